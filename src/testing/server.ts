/**
 * The server over a store with the DuckDB engines, composed as the command line does it (tests,
 * benchmarks and the golden-file scripts; src/cli/commands/serve.ts composes the same way).
 */
import type { FastifyInstance } from 'fastify';
import { createServer, type ServerOptions } from '../api/server.js';
import { createDuckDbEngines } from '../engines/duckdb/engines.js';
import type { Store } from '../store/open-store.js';

export async function createDuckDbServer(store: Store, options: Omit<ServerOptions, 'engines'> & { engines?: ServerOptions['engines'] } = {}): Promise<FastifyInstance> {
  return createServer(store, { ...options, engines: options.engines ?? (await createDuckDbEngines(store)) });
}
