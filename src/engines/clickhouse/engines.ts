/**
 * The ClickHouse engines over a loaded store, as the bundle the APIs take (src/query/engines.ts).
 * Version 1 aggregation (engine.ts) and version 2 statistics (stats.ts) run on ClickHouse, sharing
 * one tag dictionary and one boundary cache as the DuckDB bundle's do; the other contracts (v1
 * extraction, v2 extraction, boundaries by relation id) are not built on ClickHouse yet (issue 19)
 * and refuse with ENGINE_FAILURE naming what is missing.
 */
import { MaphistError } from '../../core/errors.js';
import type { Engines } from '../../query/engines.js';
import type { ClickHouseConnection } from './connection.js';
import { createBoundaryCache } from '../duckdb/boundary-cache.js';
import { createClickHouseQueryEngine, openClickHouseStore } from './engine.js';
import { createClickHouseStatsEngine } from './stats.js';

/** The operations of the engine conformance suite (src/engines/conformance/cases.ts) this bundle serves. */
export const SERVED_OPS: ReadonlySet<string> = new Set([
  'snapshots',
  'ratio',
  'contributions',
  'latest',
  'users',
  'stats.features',
  'stats.contributions',
  'stats.contributors',
  'stats.currentness',
]);

export interface ClickHouseEnginesOptions {
  database?: string;
}

function notYet(what: string): never {
  throw new MaphistError('ENGINE_FAILURE', `${what} is not served from ClickHouse yet (issue 19); serve this store from DuckDB for it`);
}

export async function createClickHouseEngines(connection: ClickHouseConnection, options: ClickHouseEnginesOptions = {}): Promise<Engines> {
  const store = await openClickHouseStore(connection, options.database);
  const boundaryCache = createBoundaryCache();
  const aggregation = await createClickHouseQueryEngine(store, { boundaryCache });
  const stats = await createClickHouseStatsEngine(store, aggregation.dictionary, boundaryCache);
  const refuse = (what: string) => async () => notYet(what);
  return {
    aggregation,
    extraction: refuse('version 1 extraction'),
    stats,
    parquet: refuse('version 2 extraction') as unknown as Engines['parquet'],
    boundaryRelations: refuse('boundaries by relation id') as unknown as Engines['boundaryRelations'],
    databaseAnswers: () => connection.ping(),
  };
}
