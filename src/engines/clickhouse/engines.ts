/**
 * The ClickHouse engines over a loaded store, as the bundle the APIs take (src/query/engines.ts),
 * and as a store generation (src/query/generations.ts) for `maphist serve --engine clickhouse`:
 * version 1 aggregation (engine.ts) and extraction (extraction.ts), version 2 statistics (stats.ts)
 * and extraction (parquet.ts), and boundaries by relation id, all on ClickHouse, sharing one tag
 * dictionary and one boundary cache as the DuckDB bundle's do; the metadata is read from the
 * loaded `meta` table.
 */
import type { Engines } from '../../query/engines.js';
import type { OpenedGeneration } from '../../query/generations.js';
import type { StoreMetadata } from '../../store/metadata.js';
import type { StoreTagDictionary } from '../../store/store-tag-dictionary.js';
import { createBoundaryCache } from '../common/boundary-cache.js';
import { createClickHouseBoundaryRelationSource } from './boundary-relations.js';
import type { ClickHouseConnection } from './connection.js';
import { chDictionary, clickHouseAggregationSql, openClickHouseStore, type ClickHouseStore } from './engine.js';
import { createSqlQueryEngine } from '../common/engine.js';
import { createClickHouseStatsEngine } from './stats.js';
import { createClickHouseV2Extraction } from './parquet.js';
import { createClickHouseExtractionEngine } from './extraction.js';

export interface ClickHouseEnginesOptions {
  database?: string;
}

export interface ClickHouseEngines extends Engines {
  readonly dictionary: StoreTagDictionary;
  readonly store: ClickHouseStore;
}

export async function createClickHouseEngines(connection: ClickHouseConnection, options: ClickHouseEnginesOptions = {}): Promise<ClickHouseEngines> {
  const store = await openClickHouseStore(connection, options.database);
  const dictionary = await chDictionary(store);
  const boundaryCache = createBoundaryCache();
  const aggregation = await createSqlQueryEngine(await clickHouseAggregationSql(store, dictionary), { boundaryCache });
  // The states without geometry now, not inside the first query's time limit.
  await aggregation.preload();
  const stats = await createClickHouseStatsEngine(store, dictionary, boundaryCache);
  const parquet = await createClickHouseV2Extraction(store, dictionary);
  let extraction: ReturnType<typeof createClickHouseExtractionEngine> | undefined;
  return {
    aggregation,
    // Made on first use.
    extraction: () => (extraction ??= createClickHouseExtractionEngine(store, dictionary)),
    stats,
    parquet,
    boundaryRelations: createClickHouseBoundaryRelationSource(store),
    databaseAnswers: () => connection.ping(),
    dictionary,
    store,
  };
}

/** The loaded store's metadata (`meta`: one JSON value per key, as the DuckDB store keeps it). */
export async function chMetadata(store: ClickHouseStore): Promise<StoreMetadata> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of await store.connection.rows(`SELECT key, value FROM ${store.database}.meta`)) out[String(key)] = JSON.parse(String(value));
  return out as unknown as StoreMetadata;
}

/** The store loaded in `database` as a generation: its engines and metadata; closing releases nothing on the server. */
export async function openClickHouseGeneration(connection: ClickHouseConnection, database?: string): Promise<OpenedGeneration> {
  const engines = await createClickHouseEngines(connection, { database });
  return { engines, metadata: await chMetadata(engines.store), dictionary: engines.dictionary, close: () => connection.close?.() };
}
