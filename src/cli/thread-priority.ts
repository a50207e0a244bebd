/**
 * The event loop first (issue 17: a trivial request answers at once while the server is
 * saturated). On 2 cores the main thread, which answers every request, competes with DuckDB's
 * threads, the libuv threads DuckDB's calls run on and the geometry pool's workers; the kernel
 * shares the cores among them equally, so a health check waited for its turn behind seconds of
 * engine work (bench/RESULTS.md). On Linux the nice value belongs to each thread (setpriority(2)
 * on a thread id, see its "Bugs" section), so every thread of the process but the main one is given
 * a lower priority, nice +N over the process's own: the engine's threads keep whatever CPU the event
 * loop leaves, and the event loop gets a core as soon as it has work. Threads started later (the
 * pool's workers, DuckDB's) are found by looking at `/proc/self/task` again every second.
 * Lowering a priority needs no privilege. Elsewhere this does nothing.
 */
import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

export interface ThreadPriority {
  /** Threads given the lower priority so far (ids). */
  readonly lowered: ReadonlySet<number>;
  /** Looks for new threads now (the timer does so every `everyMs`). */
  scan(): void;
  stop(): void;
}

/** Gives every thread but the main one nice +`nice` over the process's (at most 19), now and every `everyMs`. */
export function lowerOtherThreads(nice: number, everyMs = 1000): ThreadPriority {
  const lowered = new Set<number>();
  const main = process.pid;
  const target = Math.min(19, getPriority(main) + nice);
  const scan = () => {
    let tids: number[];
    try {
      tids = readdirSync('/proc/self/task').map(Number);
    } catch {
      return; // not Linux, or /proc not mounted
    }
    const alive = new Set(tids);
    for (const tid of lowered) if (!alive.has(tid)) lowered.delete(tid);
    for (const tid of tids) {
      if (tid === main || lowered.has(tid)) continue;
      try {
        setPriority(tid, target);
        lowered.add(tid);
      } catch {
        // The thread ended between the listing and the call.
      }
    }
  };
  scan();
  const timer = setInterval(scan, everyMs).unref();
  return { lowered, scan, stop: () => clearInterval(timer) };
}
