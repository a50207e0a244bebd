/**
 * The ClickHouse engines over a loaded store, as the bundle the APIs take (src/query/engines.ts).
 * Version 1 aggregation (engine.ts) and extraction (extraction.ts) run on ClickHouse; the other
 * contracts (v2 statistics and extraction, boundaries by relation id) are not built on ClickHouse
 * yet (issue 19) and refuse with ENGINE_FAILURE naming what is missing.
 */
import { MaphistError } from '../../core/errors.js';
import type { Engines } from '../../query/engines.js';
import type { ClickHouseConnection } from './connection.js';
import { createClickHouseQueryEngine, openClickHouseStore } from './engine.js';
import { createClickHouseExtractionEngine } from './extraction.js';

/** The operations of the engine conformance suite (src/engines/conformance/cases.ts) this bundle serves. */
export const SERVED_OPS: ReadonlySet<string> = new Set(['snapshots', 'ratio', 'contributions', 'latest', 'users', 'extract']);

export interface ClickHouseEnginesOptions {
  database?: string;
}

function notYet(what: string): never {
  throw new MaphistError('ENGINE_FAILURE', `${what} is not served from ClickHouse yet (issue 19); serve this store from DuckDB for it`);
}

export async function createClickHouseEngines(connection: ClickHouseConnection, options: ClickHouseEnginesOptions = {}): Promise<Engines> {
  const store = await openClickHouseStore(connection, options.database);
  const aggregation = await createClickHouseQueryEngine(store);
  const refuse = (what: string) => async () => notYet(what);
  let extraction: ReturnType<typeof createClickHouseExtractionEngine> | undefined;
  return {
    aggregation,
    // Made on first use, with the aggregation's tag dictionary.
    extraction: () => (extraction ??= createClickHouseExtractionEngine(store, aggregation.dictionary)),
    stats: {
      featureStats: refuse('version 2 statistics'),
      contributionStats: refuse('version 2 statistics'),
      contributorStats: refuse('version 2 statistics'),
      currentnessStats: refuse('version 2 statistics'),
    } as unknown as Engines['stats'],
    parquet: refuse('version 2 extraction') as unknown as Engines['parquet'],
    boundaryRelations: refuse('boundaries by relation id') as unknown as Engines['boundaryRelations'],
    databaseAnswers: () => connection.ping(),
  };
}
