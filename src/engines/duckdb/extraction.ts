/**
 * The DuckDB extraction engine: the version 1 extraction engine (src/engines/common/extraction.ts)
 * over a DuckDB store, its statements in DuckDB's SQL (sql/extraction.ts), streamed chunk by chunk
 * (`connection.stream` + `fetchChunk`, statements.ts): the next chunk is pulled only when the
 * consumer asks for more (backpressure reaches DuckDB); ending the iteration early or aborting the
 * signal interrupts the statement and closes the connection.
 */
import { compileSql, duckdbDialect } from '../../filter/index.js';
import type { Store } from '../../store/open-store.js';
import { dictionaryOf, type StoreTagDictionary } from '../../store/store-tag-dictionary.js';
import { createSqlExtractionEngine, type ExtractionEngineOptions, type ExtractionSql, type SqlExtractionEngine } from '../common/extraction.js';
import { withV1Scope } from '../common/scope.js';
import { DUCKDB_FLAVOR } from '../sql/flavor.js';
import { lazyChunkRecords } from './chunk-rows.js';
import { readRecords, streamRecords } from './statements.js';
import {
  batchSql,
  candidatesWhere,
  contributionElementsWhere,
  contributionExtractionSql,
  fullHistoryExtractionSql,
  idCutsSql,
  snapshotExtractionSql,
  typeRowsSql,
  versionStatesSql,
} from './sql/extraction.js';

/** The extraction engine over a DuckDB store (the common engine's, `SqlExtractionEngine`). */
export type DuckDbExtractionEngine = SqlExtractionEngine;

/** The DuckDB statements over a store: the batches' sorts on the streaming instance (`spilling`), which spills them to disk. */
export async function duckDbExtractionSql(store: Store, dictionary?: StoreTagDictionary): Promise<ExtractionSql> {
  const d = await dictionaryOf(store, dictionary);
  return {
    flavor: DUCKDB_FLAVOR,
    dictionary: d,
    alias: 'st',
    // The v1 scope comes with every filter: never-tagged nodes are extracted by no route (src/engines/common/scope.ts).
    filterSql: (filter) => withV1Scope(filter, compileSql(filter, { dialect: duckdbDialect, dictionary: d, tableAlias: 'st' }).sql, 'st'),
    snapshot: snapshotExtractionSql,
    fullHistory: fullHistoryExtractionSql,
    contributions: contributionExtractionSql,
    candidatesWhere,
    contributionElementsWhere,
    batchSql: (b) => batchSql(b),
    typeRows: typeRowsSql,
    idCuts: idCutsSql,
    versionStates: versionStatesSql,
    records: (st, signal) => readRecords(store, st, signal, true),
    stream: (st, options) => streamRecords(store, st, options, lazyChunkRecords),
    outOfMemory: (e) => /^Out of Memory Error/.test(e.message),
  };
}

export async function createDuckDbExtractionEngine(
  store: Store,
  dictionary?: StoreTagDictionary,
  options: ExtractionEngineOptions = {},
): Promise<DuckDbExtractionEngine> {
  return createSqlExtractionEngine(await duckDbExtractionSql(store, dictionary), options);
}
