/**
 * A DuckDB store generation (src/query/generations.ts): the store file opened read-only with its
 * engines (tag dictionary, boundary cache, streaming instance: all of this file's own). Closing it
 * closes both DuckDB instances and removes their spill directories; a statement still running on
 * one of its connections finishes first (DuckDB keeps an instance alive while a connection uses it).
 */
import type { OpenedGeneration } from '../../query/generations.js';
import { openStore, type OpenStoreOptions, type Store } from '../../store/open-store.js';
import { createDuckDbEngines } from './engines.js';

/** The generation over an open store; closing the generation closes the store. */
export async function duckDbGeneration(store: Store): Promise<OpenedGeneration> {
  const engines = await createDuckDbEngines(store);
  return { engines, metadata: store.metadata, dictionary: engines.dictionary, close: () => store.close() };
}

/** Opens the database at `path` as a generation (DB_NOT_FOUND, DB_INVALID as `openStore`). */
export async function openDuckDbGeneration(path: string, options: OpenStoreOptions = {}): Promise<OpenedGeneration> {
  const store = await openStore(path, options);
  try {
    return await duckDbGeneration(store);
  } catch (e) {
    store.close();
    throw e;
  }
}
