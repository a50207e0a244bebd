/**
 * DuckDB's C API, for the few places where @duckdb/node-api's vectors cost more than the work:
 * reading plain columns of a result chunk (engines/duckdb/plain-vectors.ts) and filling the
 * import's data chunks (store-writer-worker.ts).
 *
 * It is reached through the @duckdb/node-bindings that @duckdb/node-api itself loads (resolved
 * from node-api's own location), so a chunk's native handle is always used by the library that
 * made it: a second copy of the bindings at another version would be another DuckDB.
 */
import { createRequire } from 'node:module';
import type * as Bindings from '@duckdb/node-bindings';

const requireHere = createRequire(import.meta.url);

export const bindings = createRequire(requireHere.resolve('@duckdb/node-api'))('@duckdb/node-bindings') as typeof Bindings;
