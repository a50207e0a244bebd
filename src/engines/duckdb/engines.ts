/**
 * The DuckDB engines over one store, as the bundle the APIs take (src/query/engines.ts): one tag
 * dictionary and one boundary cache (the WKB of geometries crossing areas' edges) shared by both API
 * versions; the streaming instance opened and the states without geometry read now, rather than
 * inside the first extraction's or contribution query's time limit.
 */
import type { Engines } from '../../query/engines.js';
import type { Store } from '../../store/open-store.js';
import type { StoreTagDictionary } from '../../store/store-tag-dictionary.js';
import { createBoundaryCache } from '../common/boundary-cache.js';
import { createBoundaryRelationSource } from './boundary-relations.js';
import { createDuckDbQueryEngine } from './engine.js';
import { createDuckDbExtractionEngine } from './extraction.js';
import { createV2Extraction } from './parquet/v2-extraction.js';
import { createDuckDbStatsEngine } from './stats.js';

/** A trivial query on the store. */
async function databaseAnswers(store: Store): Promise<boolean> {
  try {
    const con = await store.connect();
    try {
      await con.run('SELECT 1 FROM meta LIMIT 1');
      return true;
    } finally {
      con.closeSync();
    }
  } catch {
    return false;
  }
}

/** The bundle, and the tag dictionary its engines share (a store generation reports it). */
export interface DuckDbEngines extends Engines {
  readonly dictionary: StoreTagDictionary;
}

export async function createDuckDbEngines(store: Store): Promise<DuckDbEngines> {
  const boundaryCache = createBoundaryCache();
  const aggregation = await createDuckDbQueryEngine(store, { boundaryCache });
  await aggregation.preload();
  const dictionary = aggregation.dictionary;
  const stats = await createDuckDbStatsEngine(store, dictionary, boundaryCache);
  const parquet = await createV2Extraction(store, dictionary);
  (await store.connectStreaming()).closeSync();
  let extraction: ReturnType<typeof createDuckDbExtractionEngine> | undefined;
  return {
    aggregation,
    extraction: () => (extraction ??= createDuckDbExtractionEngine(store, dictionary)),
    stats,
    parquet,
    boundaryRelations: createBoundaryRelationSource(store),
    databaseAnswers: () => databaseAnswers(store),
    dictionary,
  };
}
