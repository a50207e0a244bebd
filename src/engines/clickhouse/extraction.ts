/**
 * Version 1 extraction on ClickHouse (issue 19): the extraction engine of
 * src/engines/common/extraction.ts (`createSqlExtractionEngine`: id batches, boundary clipping in
 * TypeScript, version facts, contribution classification) over the ClickHouse statements of
 * sql/extraction.ts, read as RowBinary from a `ClickHouseConnection`.
 *
 * Each id batch's rows are read whole (one RowBinary answer, decoded into records) rather than
 * streamed chunk by chunk as DuckDB's are: a batch is bounded (query/extraction.ts `BATCH_ROWS`,
 * `BATCH_BYTES`), so the memory held is one batch's, and the features still come out batch by
 * batch, the next batch read only when the consumer asks for more.
 */
import { clickhouseDialect, compileSql } from '../../filter/index.js';
import type { StoreTagDictionary } from '../../store/store-tag-dictionary.js';
import { createSqlExtractionEngine, type SqlExtractionEngine, type ExtractionEngineOptions, type ExtractionSql } from '../common/extraction.js';
import { withV1Scope } from '../common/scope.js';
import { CLICKHOUSE_FLAVOR } from '../sql/flavor.js';
import { chDictionary, readChRecords, type ClickHouseStore } from './engine.js';
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

/** The ClickHouse statements for the extraction engine. */
export async function clickHouseExtractionSql(store: ClickHouseStore, dictionary?: StoreTagDictionary): Promise<ExtractionSql> {
  const dict = dictionary ?? (await chDictionary(store));
  const t = store.tables;
  return {
    flavor: CLICKHOUSE_FLAVOR,
    dictionary: dict,
    alias: '',
    // The v1 scope comes with every filter (scope.ts); the columns are unqualified in every ClickHouse statement.
    filterSql: (filter) => withV1Scope(filter, compileSql(filter, { dialect: clickhouseDialect, dictionary: dict }).sql),
    snapshot: (p) => snapshotExtractionSql(t, p),
    fullHistory: (p) => fullHistoryExtractionSql(t, p),
    contributions: (p) => contributionExtractionSql(t, p),
    candidatesWhere,
    contributionElementsWhere,
    batchSql,
    typeRows: (where) => typeRowsSql(t, where),
    idCuts: (p) => idCutsSql(t, p),
    versionStates: (p, batch) => versionStatesSql(t, p, batch),
    records: (st, signal) => readChRecords(store, st, signal),
    // A batch read whole (see the header); `spilling` is DuckDB's and means nothing here.
    async *stream(st, options) {
      yield await readChRecords(store, st, options.signal);
    },
    // ClickHouse's "Memory limit (for query) exceeded": the batch is cut in two, as DuckDB's out-of-memory sort.
    outOfMemory: (e) => /Memory limit .*exceeded/.test(e.message),
  };
}

/** The version 1 extraction engine on ClickHouse. */
export async function createClickHouseExtractionEngine(
  store: ClickHouseStore,
  dictionary?: StoreTagDictionary,
  options: ExtractionEngineOptions = {},
): Promise<SqlExtractionEngine> {
  return createSqlExtractionEngine(await clickHouseExtractionSql(store, dictionary), options);
}
