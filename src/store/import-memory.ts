/**
 * How an import shares its memory budget (`maphist import --memory-limit`, default 4 GB) among the
 * parts that hold memory in proportion to a setting rather than to the input: DuckDB's buffer pool
 * while staging rows and, larger, while sorting every row in the finish (beyond its limit DuckDB
 * spills to the run's work directory); the history builder's caches over its disk stores (node
 * pages, decoded way states); and a changeset load's DuckDB. What is left is for the parts that a
 * setting does not bound: the main thread's V8 heap (the elements in progress, the tag dictionary),
 * the batches on their way to the writer thread, the decode workers and native memory outside
 * DuckDB's accounting (bench/RESULTS.md, "Import within a memory budget", measures the resulting
 * peak RSS against the budget). The shares at the default budget are about the sizes the import
 * used before the budget existed; a smaller budget shrinks every part in proportion, down to
 * MIN_IMPORT_MEMORY_BYTES, below which the unbounded parts alone would not fit.
 */
import type { HistoryCaches } from '../history/build-history.js';
import { MaphistError } from '../core/errors.js';

const MiB = 2 ** 20;

/** The budget when none is given: 4 GB. */
export const DEFAULT_IMPORT_MEMORY_BYTES = 4e9;
/**
 * The smallest budget an import accepts: 1.5 GB. Below it the parts no setting bounds are most of
 * the budget: the build alone reached 1.04 GB on the four-country file and 1.47 GB on synth-x8,
 * mostly the relation phase's V8 heap (bench/RESULTS.md, "Import within a memory budget").
 */
export const MIN_IMPORT_MEMORY_BYTES = 1.5e9;

export interface ImportMemoryPlan {
  /** DuckDB's memory limit while rows are staged (the build). */
  stagingLimit: string;
  /** DuckDB's memory limit while finishing (sorting every row into the store), in bytes. */
  finishBytes: number;
  /**
   * The staged bytes one sorted INSERT of the finish takes at most (finalize-sql.ts, sortPassCount):
   * half the finish's limit, since DuckDB's sort needed about the rows' size in memory.
   */
  sortPassBytes: number;
  /** DuckDB's memory limit while loading a changeset dump after the history. */
  changesetsLimit: string;
  caches: HistoryCaches;
}

/**
 * Each part as a share of the budget. The build's parts are capped at the size they had before the
 * budget existed (larger ones gave no faster import). The finish's is not: beyond one sort pass
 * (about 0.75 GB of staged rows at the default budget) every further pass reads all the staged rows
 * again, so a larger budget buys fewer passes (synth-x48: 33 passes of 20 GB of staging each at
 * the default budget; bench/RESULTS.md, "Session 22").
 */
export function importMemoryPlan(budgetBytes: number = DEFAULT_IMPORT_MEMORY_BYTES): ImportMemoryPlan {
  const share = (fraction: number, capMiB: number, floorMiB: number) => Math.max(floorMiB, Math.min(capMiB, Math.floor((budgetBytes * fraction) / MiB)));
  const finish = share(0.4, Infinity, 512);
  return {
    stagingLimit: `${share(0.125, 512, 96)}MiB`,
    finishBytes: finish * MiB,
    sortPassBytes: (finish * MiB) / 2,
    changesetsLimit: `${finish}MiB`,
    caches: {
      nodeCacheBytes: share(1 / 16, 256, 32) * MiB,
      relationPhaseNodeCacheBytes: share(1 / 128, 32, 8) * MiB,
      wayCacheBytes: share(1 / 16, 256, 32) * MiB,
    },
  };
}

/**
 * DuckDB's "Out of Memory Error" (its buffer pool at the budget's share, in the writer thread or a
 * changeset load) as IMPORT_OUT_OF_MEMORY, with the budget to raise; anything else: undefined.
 */
export function importOutOfMemory(e: unknown, budgetBytes: number, unchanged: string): MaphistError | undefined {
  const message = e instanceof Error ? e.message : String(e);
  const duckdb = /Out of Memory Error: ([^\n]*)/.exec(message);
  if (!duckdb) return undefined;
  return new MaphistError(
    'IMPORT_OUT_OF_MEMORY',
    `maphist import ran out of memory within its budget of ${(budgetBytes / 1e9).toFixed(1)} GB (DuckDB: ${duckdb[1]}); ${unchanged}. ` +
      'Run it again with a larger --memory-limit (the default is 4 GB).',
    { budgetBytes },
    { cause: e },
  );
}
