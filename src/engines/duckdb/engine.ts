/**
 * The DuckDB query engine: the version 1 aggregation engine (src/engines/common/engine.ts) over a
 * DuckDB store, its statements in DuckDB's SQL (sql/aggregation.ts) run by statements.ts.
 */
import { compileSql, duckdbDialect } from '../../filter/index.js';
import type { Store } from '../../store/open-store.js';
import { dictionaryOf } from '../../store/store-tag-dictionary.js';
import { createSqlQueryEngine, type AggregationSql, type SqlQueryEngine, type SqlQueryEngineOptions } from '../common/engine.js';
import { withV1Scope } from '../common/scope.js';
import { DUCKDB_FLAVOR } from '../sql/flavor.js';
import { EMPTY_GEOMETRY_STATES_SQL } from './empty-geometry.js';
import { emptyGeometryStatesOf } from '../common/empty-geometry.js';
import { readAllRows, readColumns, readRecords } from './statements.js';
import { contributionAggregateSql, contributionListSql, geometriesByRowidSql, snapshotBoxesSql, snapshotSql } from './sql/aggregation.js';
import { boundaryGeometriesSql } from './sql/stats.js';

/** The aggregation engine over a DuckDB store (the common engine's, `SqlQueryEngine`). */
export type DuckDbQueryEngine = SqlQueryEngine;
export type DuckDbQueryEngineOptions = SqlQueryEngineOptions;

/** The DuckDB statements over a store. */
export async function duckDbAggregationSql(store: Store): Promise<AggregationSql> {
  const dictionary = await dictionaryOf(store);
  return {
    flavor: DUCKDB_FLAVOR,
    dictionary,
    contributionAlias: 'st',
    // Every v1 query's filter, with the v1 scope: never-tagged nodes are in no result (src/engines/common/scope.ts).
    filterSql: (filter, alias) => withV1Scope(filter, compileSql(filter, { dialect: duckdbDialect, dictionary, tableAlias: alias }).sql, alias),
    emptyGeometryStates: async (signal) => emptyGeometryStatesOf(await readAllRows(store, EMPTY_GEOMETRY_STATES_SQL, signal)),
    snapshot: snapshotSql,
    snapshotBoxes: snapshotBoxesSql,
    contributionAggregate: contributionAggregateSql,
    contributionList: contributionListSql,
    // The area test is not needed with the rowid list (geometriesByRowidSql).
    geometriesByRowid: (rowids, _intersectsSql, signal) => readRecords(store, geometriesByRowidSql(rowids), signal),
    boundaryGeometries: boundaryGeometriesSql,
    records: (st, signal) => readRecords(store, st, signal),
    columns: (st, signal) => readColumns(store, st, signal),
  };
}

export async function createDuckDbQueryEngine(store: Store, options: DuckDbQueryEngineOptions = {}): Promise<DuckDbQueryEngine> {
  return createSqlQueryEngine(await duckDbAggregationSql(store), options);
}
