/**
 * Version 2 extraction on ClickHouse (issue 19): the record extraction of
 * src/engines/common/parquet/v2-extraction.ts (`createSqlV2Extraction`: the rows turned into records,
 * boundary rows clipped in TypeScript, the collections gathered by relation) over the ClickHouse
 * statements of sql/parquet.ts. The API writes the records as GeoParquet, as for DuckDB.
 *
 * A statement's answer is read whole as RowBinary (one HTTP response, or chDB's result), then
 * decoded and handed on in batches of `BATCH_ROWS` rows: the bytes of a whole answer are held while
 * its records stream, where DuckDB holds one chunk. That is acceptable for the extractions this
 * engine serves for now; a streamed read of the HTTP body would bound it (issue 19).
 */
import { MaphistError } from '../../core/errors.js';
import { clickhouseDialect, compileSql } from '../../filter/index.js';
import type { RecordExtraction } from '../../query/v2-requests.js';
import type { StoreTagDictionary } from '../../store/store-tag-dictionary.js';
import type { BoundaryClipperOptions } from '../common/boundary-clipper.js';
import { createSqlV2Extraction, type ExtractionSql } from '../common/parquet/v2-extraction.js';
import { v2CollectionRelationSql } from '../common/scope.js';
import { CLICKHOUSE_FLAVOR } from '../sql/flavor.js';
import { checkAborted } from '../common/statements.js';
import { chDictionary, type ClickHouseStore } from './engine.js';
import { RowBinaryReader } from './row-binary.js';
import { collectionSql, contributionSql, featureSql, isChRowStatement, TYPE_TAG_SQL, type ChParquetTables, type ChRowStatement } from './sql/parquet.js';

/** Rows per batch handed to the record producers (DuckDB's chunk size). */
const BATCH_ROWS = 2048;

/** The tables the extraction reads besides `states` and `users` (a store loaded before they were added lacks them). */
const EXTRACTION_TABLES = ['changesets', 'relation_members'] as const;

/** The rows of a RowBinary answer of the statement's column types, `BATCH_ROWS` at a time. */
function* batches(st: ChRowStatement, bytes: Uint8Array): Generator<unknown[][], void, undefined> {
  const reader = new RowBinaryReader(bytes);
  while (!reader.done) {
    const batch: unknown[][] = [];
    while (!reader.done && batch.length < BATCH_ROWS) {
      const row: unknown[] = new Array(st.types.length);
      for (let c = 0; c < st.types.length; c++) row[c] = reader.value(st.types[c]);
      batch.push(row);
    }
    yield batch;
  }
}

/** The ClickHouse statements for the record extraction. */
export async function clickHouseExtractionSql(store: ClickHouseStore, dictionary?: StoreTagDictionary): Promise<ExtractionSql> {
  const dict = dictionary ?? (await chDictionary(store));
  const t: ChParquetTables = { ...store.tables, database: store.database };
  const column = (alias: string, name: string) => (alias ? `${alias}.${name}` : name);
  return {
    flavor: CLICKHOUSE_FLAVOR,
    dictionary: dict,
    // Every statement names the columns of `states` bare (sql/parquet.ts).
    alias: '',
    filterSql: (filter, alias, tags = 'current') =>
      compileSql(filter, { dialect: clickhouseDialect, dictionary: dict, ...(alias ? { tableAlias: alias } : {}), tags }).sql,
    collectionRelationSql: (alias) =>
      v2CollectionRelationSql(alias, alias ? TYPE_TAG_SQL.replace(/\btag_(keys|values)\b/g, (c) => column(alias, c)) : TYPE_TAG_SQL),
    features: (ctx, request) => featureSql(t, ctx, request),
    contributions: (ctx, request) => contributionSql(t, ctx, request),
    collections: (ctx, request) => collectionSql(t, ctx, request),
    async *rows(st, signal) {
      if (!isChRowStatement(st)) throw new TypeError('not a ClickHouse statement');
      const bytes = await store.connection.bytes(st.text, 'RowBinary', { signal });
      for (const batch of batches(st, bytes)) {
        checkAborted(signal);
        yield batch;
      }
    },
  };
}

/**
 * The version 2 record extraction on a loaded store. A store loaded before the loader wrote
 * `changesets` and `relation_members` is refused when asked, naming the fix (a new load).
 */
export async function createClickHouseV2Extraction(
  store: ClickHouseStore,
  dictionary?: StoreTagDictionary,
  options: { clipper?: BoundaryClipperOptions } = {},
): Promise<RecordExtraction> {
  const present = new Set((await store.connection.rows(`SELECT name FROM system.tables WHERE database = '${store.database}'`)).map((r) => String(r[0])));
  const missing = EXTRACTION_TABLES.filter((name) => !present.has(name));
  if (missing.length > 0) {
    return {
      // biome-ignore lint/correctness/useYield: it refuses before any record
      async *records() {
        throw new MaphistError(
          'ENGINE_FAILURE',
          `the ClickHouse store in database ${store.database} has no ${missing.join(' or ')} table (loaded by an older maphist): load it again with maphist clickhouse load for version 2 extraction`,
        );
      },
    };
  }
  return createSqlV2Extraction(await clickHouseExtractionSql(store, dictionary), options);
}
