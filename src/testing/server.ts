/**
 * The server over a store with the DuckDB engines, composed as the command line does it (tests,
 * benchmarks and the golden-file scripts; src/cli/commands/serve.ts composes the same way), with
 * the flat options the tests have always passed.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppConfig } from '../api/server.js';
import type { ApiKeyHook } from '../api/v2/services.js';
import { createDuckDbEngines } from '../engines/duckdb/engines.js';
import type { Engines } from '../query/engines.js';
import type { QueryEngine } from '../query/model.js';
import type { Store } from '../store/open-store.js';

export interface TestServerOptions extends AppConfig {
  /** The engines (default: DuckDB's over `store`). */
  engines?: Engines;
  /** Replaces `engines.aggregation`. */
  engine?: QueryEngine;
  /** Replaces parts of the engines (an instrumented extraction, a recording statistics engine). */
  replace?: Partial<Engines>;
  apiKeys?: ApiKeyHook;
}

export async function createDuckDbServer(store: Store, options: TestServerOptions = {}): Promise<FastifyInstance> {
  const { engines: given, engine, replace, apiKeys, ...config } = options;
  const base = given ?? (await createDuckDbEngines(store));
  const engines: Engines = { ...base, ...replace, ...(engine ? { aggregation: engine } : {}) };
  return buildApp({ engines, store, keys: apiKeys, config });
}
