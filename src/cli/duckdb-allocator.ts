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
 */
export const DUCKDB_ALLOCATOR_ENV = 'DUCKDB_JE_MALLOC_CONF';
export const DUCKDB_ALLOCATOR_DEFAULT = 'narenas:1';

/** The allocator configuration DuckDB runs with: the user's own `DUCKDB_JE_MALLOC_CONF`, or maphist's default. */
export function duckDbAllocatorConf(env: NodeJS.ProcessEnv): string {
  return env[DUCKDB_ALLOCATOR_ENV] ?? DUCKDB_ALLOCATOR_DEFAULT;
}
