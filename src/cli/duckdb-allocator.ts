/**
 * The configuration of DuckDB's bundled allocator (jemalloc), which must be in the environment
 * before DuckDB loads: jemalloc reads `DUCKDB_JE_MALLOC_CONF` once, when the library is loaded
 * (not `MALLOC_CONF`: DuckDB's copy is built with a prefix). Options set there override DuckDB's
 * own choice (`narenas` = the number of cores, decay 1 s) one by one.
 *
 * `narenas:1`: one arena instead of one per core. DuckDB runs each call of a Node process on
 * whichever libuv thread takes it, and with an arena per core each kept its own freed pages: a
 * fresh server streaming the x48 way extraction held about 50 MB less outside V8 with one
 * (bench/RESULTS.md, extract-rss-notes). Aggregation timings on the same store did not change
 * measurably (2 cores; there is little allocation contention to lose).
 *
 * A server (`serve`, `start`) also keeps freed pages for 10 s instead of DuckDB's 1 s before it
 * gives them back to the system: with 1 s, every request faulted its hash tables' and
 * materializations' memory in afresh (about 1,000 page faults per contributions/count over the
 * benchmark's box, each some 10 µs on a virtual machine), and answers took 0.83–0.99 of the time
 * without them (bench/RESULTS.md, session 29); an idle server still returns its memory. The import
 * keeps 1 s: a longer decay gained nothing there and held about 0.3 GB more (session 28).
 */
export const DUCKDB_ALLOCATOR_ENV = 'DUCKDB_JE_MALLOC_CONF';
export const DUCKDB_ALLOCATOR_DEFAULT = 'narenas:1';
export const DUCKDB_ALLOCATOR_SERVER_DEFAULT = `${DUCKDB_ALLOCATOR_DEFAULT},dirty_decay_ms:10000,muzzy_decay_ms:10000`;

/** Whether `command` runs a server (it keeps running after the command returns; the server default). */
export function isServerCommand(command: string | undefined): boolean {
  return command === 'serve' || command === 'start';
}

/** The allocator configuration DuckDB runs with: the user's own `DUCKDB_JE_MALLOC_CONF`, or maphist's default for the command. */
export function duckDbAllocatorConf(env: NodeJS.ProcessEnv, command: string | undefined): string {
  return env[DUCKDB_ALLOCATOR_ENV] ?? (isServerCommand(command) ? DUCKDB_ALLOCATOR_SERVER_DEFAULT : DUCKDB_ALLOCATOR_DEFAULT);
}
