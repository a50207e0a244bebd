/**
 * The server over a store with the DuckDB engines, composed as the command line does it (tests,
 * benchmarks and the golden-file scripts; src/cli/commands/serve.ts composes the same way): a
 * store handle with one generation over the store, which the caller keeps and closes itself.
 */
import type { FastifyInstance } from 'fastify';
import { createServer, type ServerOptions } from '../api/server.js';
import { createDuckDbEngines, type DuckDbEngines } from '../engines/duckdb/engines.js';
import { createStoreHandle } from '../query/generations.js';
import type { Store } from '../store/open-store.js';

export async function createDuckDbServer(store: Store, options: ServerOptions & { engines?: DuckDbEngines } = {}): Promise<FastifyInstance> {
  const { engines: given, ...serverOptions } = options;
  const engines = given ?? (await createDuckDbEngines(store));
  // Closing the generation leaves the store open: its owner (the test) closes it.
  const handle = createStoreHandle({ engines, metadata: store.metadata, dictionary: engines.dictionary, close: () => undefined });
  return createServer(handle, serverOptions);
}
