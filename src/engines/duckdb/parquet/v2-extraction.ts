/**
 * Version 2 extraction over a DuckDB store: the record extraction of
 * src/engines/common/parquet/v2-extraction.ts over DuckDB's statements (../sql/v2-extraction.ts),
 * each streamed chunk by chunk (../chunk-rows.ts `streamChunkRows`).
 */
import { compileSql, duckdbDialect } from '../../../filter/index.js';
import type { RecordExtraction } from '../../../query/v2-requests.js';
import type { Store } from '../../../store/open-store.js';
import { dictionaryOf, type StoreTagDictionary } from '../../../store/store-tag-dictionary.js';
import type { BoundaryClipperOptions } from '../../common/boundary-clipper.js';
import { createSqlV2Extraction, type ExtractionSql, type RowStatement } from '../../common/parquet/v2-extraction.js';
import { v2CollectionRelationSql } from '../../common/scope.js';
import { DUCKDB_FLAVOR } from '../../sql/flavor.js';
import { streamChunkRows } from '../chunk-rows.js';
import { duckDbParquetWriter } from './copy-writer.js';
import { collectionSql, contributionSql, featureSql } from '../sql/v2-extraction.js';

/** The DuckDB statements over a store. */
export async function duckDbExtractionSql(store: Store, dictionary?: StoreTagDictionary): Promise<ExtractionSql> {
  const d = await dictionaryOf(store, dictionary);
  const text = (sql: string): RowStatement => ({ text: sql });
  return {
    flavor: DUCKDB_FLAVOR,
    dictionary: d,
    alias: 'st',
    filterSql: (filter, alias, tags = 'current') => compileSql(filter, { dialect: duckdbDialect, dictionary: d, tableAlias: alias, tags }).sql,
    collectionRelationSql: (alias) => v2CollectionRelationSql(alias),
    features: (ctx, request) => text(featureSql(ctx, request)),
    contributions: (ctx, request) => text(contributionSql(ctx, request)),
    collections: (ctx, request) => text(collectionSql(ctx, request)),
    rows: (st, signal) => streamChunkRows(store, st.text, signal),
  };
}

/**
 * `clipper`: where a chunk's boundary rows are clipped (src/engines/common/boundary-clipper.ts; tests set the thresholds).
 * `engineWriter` false: no engine-side GeoParquet writer (copy-writer.ts), the API writes every file from the records.
 */
export async function createV2Extraction(
  store: Store,
  dictionary?: StoreTagDictionary,
  options: { clipper?: BoundaryClipperOptions; engineWriter?: boolean } = {},
): Promise<RecordExtraction> {
  const db = await duckDbExtractionSql(store, dictionary);
  const records = createSqlV2Extraction(db, options);
  if (options.engineWriter === false) return records;
  return { records: records.records, parquet: (request) => duckDbParquetWriter(store, db, request, options) };
}
