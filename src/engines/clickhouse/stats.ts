/**
 * The version 2 statistics engine on ClickHouse (issue 19): the common engine's logic
 * (src/engines/common/stats.ts `createSqlStatsEngine`: the scans' sure rows summed, the boundary
 * rows decided by the exact test in TypeScript, one geometry per run) over the ClickHouse
 * statements of sql/stats.ts, read as RowBinary. Measures are the store's precomputed values or the
 * kernel's on clipped geometry, never ClickHouse's geometry functions.
 */
import { clickhouseDialect, compileSql } from '../../filter/index.js';
import type { StoreTagDictionary } from '../../store/store-tag-dictionary.js';
import { createBoundaryCache, type BoundaryCache } from '../common/boundary-cache.js';
import { v2ScopedFilterSql } from '../common/scope.js';
import { CLICKHOUSE_FLAVOR } from '../sql/flavor.js';
import { createSqlStatsEngine, type SqlStatsEngine, type SqlStatsEngineOptions, type StatsSql } from '../common/stats.js';
import { chDictionary, readChRecords, type ClickHouseStore } from './engine.js';
import { boundaryGeometriesSql } from './sql/aggregation.js';
import { contributionStatsSql, currentnessSql, featureStatsSql, geometryRunsSql } from './sql/stats.js';

/** The ClickHouse statements for the statistics engine. */
export async function clickHouseStatsSql(store: ClickHouseStore, dictionary?: StoreTagDictionary): Promise<StatsSql> {
  const dict = dictionary ?? (await chDictionary(store));
  const t = store.tables;
  return {
    flavor: CLICKHOUSE_FLAVOR,
    dictionary: dict,
    // The v2 scope comes with every filter (scope.ts); the columns are unqualified in every statement.
    filterSql: (filter, tags) => v2ScopedFilterSql(filter, (scoped) => compileSql(scoped, { dialect: clickhouseDialect, dictionary: dict, tags }).sql),
    featureStats: (p) => featureStatsSql(t, p),
    contributionStats: (p) => contributionStatsSql(t, p),
    currentness: (p) => currentnessSql(t, p),
    geometryRuns: (elements) => geometryRunsSql(t, elements),
    boundaryGeometries: (rids, area) => boundaryGeometriesSql(t, rids, area.elementKeySql),
    records: (st, signal) => readChRecords(store, st, signal),
  };
}

/**
 * The version 2 statistics engine on ClickHouse. `cache`: the boundary cache (rid → WKB, runs),
 * shared with the v1 engine over the same store when the bundle makes both.
 */
export async function createClickHouseStatsEngine(
  store: ClickHouseStore,
  dictionary?: StoreTagDictionary,
  cache: BoundaryCache = createBoundaryCache(),
  options: SqlStatsEngineOptions = {},
): Promise<SqlStatsEngine> {
  return createSqlStatsEngine(await clickHouseStatsSql(store, dictionary), cache, options);
}
