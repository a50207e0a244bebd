/**
 * The server over a store with the DuckDB engines, composed as the command line does it (tests,
 * benchmarks and the golden-file scripts; src/cli/commands/serve.ts composes the same way): a
 * store handle with one generation over the store, which the caller keeps and closes itself. The
 * flat options are the ones the tests have always passed. The answer cache is off unless asked for
 * (`answerCacheBytes`): tests and benchmarks repeat requests to measure and check the engines.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppConfig } from '../api/server.js';
import type { ApiKeyHook } from '../api/v2/services.js';
import { createDuckDbEngines, type DuckDbEngines } from '../engines/duckdb/engines.js';
import type { Engines } from '../query/engines.js';
import { createStoreHandle } from '../query/generations.js';
import type { QueryEngine } from '../query/model.js';
import type { Store } from '../store/open-store.js';

export interface TestServerOptions extends AppConfig {
  /** The engines (default: DuckDB's over `store`). */
  engines?: DuckDbEngines;
  /** Replaces `engines.aggregation`. */
  engine?: QueryEngine;
  /** Replaces parts of the engines (an instrumented extraction, a recording statistics engine). */
  replace?: Partial<Engines>;
  apiKeys?: ApiKeyHook;
}

export async function createDuckDbServer(store: Store, options: TestServerOptions = {}): Promise<FastifyInstance> {
  const { engines: given, engine, replace, apiKeys, ...config } = options;
  const engines = given ?? (await createDuckDbEngines(store));
  // Closing the generation leaves the store open: its owner (the test) closes it.
  const handle = createStoreHandle({ engines, metadata: store.metadata, dictionary: engines.dictionary, close: () => undefined });
  return buildApp({
    store: handle,
    keys: apiKeys,
    config: { answerCacheBytes: 0, ...config },
    replace: { ...replace, ...(engine ? { aggregation: engine } : {}) },
  });
}
