/**
 * The version 2 statistics engine over a DuckDB store: the common engine (src/engines/common/stats.ts)
 * over DuckDB's statements (sql/stats.ts), run by statements.ts.
 */
import { compileSql, duckdbDialect } from '../../filter/index.js';
import type { Store } from '../../store/open-store.js';
import { dictionaryOf, type StoreTagDictionary } from '../../store/store-tag-dictionary.js';
import { createBoundaryCache, type BoundaryCache } from '../common/boundary-cache.js';
import { v2ScopedFilterSql } from '../common/scope.js';
import { createSqlStatsEngine, type SqlStatsEngine, type SqlStatsEngineOptions, type StatsSql } from '../common/stats.js';
import { DUCKDB_FLAVOR } from '../sql/flavor.js';
import { readRecords } from './statements.js';
import { boundaryGeometriesSql, contributionStatsSql, currentnessSql, featureStatsSql, geometryRunsSql } from './sql/stats.js';

/** The statistics engine over a DuckDB store (the common engine's, `SqlStatsEngine`). */
export type DuckDbStatsEngine = SqlStatsEngine;
export type DuckDbStatsEngineOptions = SqlStatsEngineOptions;

/** The DuckDB statements over a store. */
export async function duckDbStatsSql(store: Store, dictionary?: StoreTagDictionary): Promise<StatsSql> {
  const d = await dictionaryOf(store, dictionary);
  return {
    flavor: DUCKDB_FLAVOR,
    dictionary: d,
    // The v2 scope comes with every filter (scope.ts): nodes, ways, multipolygon and boundary
    // relations, none whose every version is untagged.
    filterSql: (filter, tags) => v2ScopedFilterSql(filter, (scoped) => compileSql(scoped, { dialect: duckdbDialect, dictionary: d, tags }).sql),
    featureStats: featureStatsSql,
    contributionStats: contributionStatsSql,
    currentness: currentnessSql,
    geometryRuns: geometryRunsSql,
    boundaryGeometries: boundaryGeometriesSql,
    records: (st, signal) => readRecords(store, st, signal),
  };
}

/** `cache`: the boundary cache, shared with the v1 engine when the server makes both. */
export async function createDuckDbStatsEngine(
  store: Store,
  dictionary?: StoreTagDictionary,
  cache: BoundaryCache = createBoundaryCache(),
  options: DuckDbStatsEngineOptions = {},
): Promise<DuckDbStatsEngine> {
  return createSqlStatsEngine(await duckDbStatsSql(store, dictionary), cache, options);
}
