/**
 * Cooperative yielding for the loops that run on the main thread: finishing a query's rows
 * (src/engines/common/engine.ts, stats.ts), reading boundary geometries, and writing an
 * extraction's records (src/api/common/extraction-stream.ts). A loop asks `pause()` after each
 * item (it costs one clock read); once the loop has run for `sliceMs` since its last turn, the
 * returned promise lets the event loop run (other requests, health checks, a socket's `close`)
 * before it goes on. A loop that only awaits promises that are already settled never lets I/O in
 * by itself: microtasks run before the event loop's next turn. The heavy geometry work runs in the
 * geometry pool (src/engines/common/geometry-pool.ts); this bounds what is left.
 */
import { setImmediate as immediate } from 'node:timers/promises';

export type Pause = () => Promise<void> | undefined;

/** A pause function for one loop (or one request's loops). */
export function slicer(sliceMs = 10): Pause {
  let since = performance.now();
  return () => {
    const now = performance.now();
    if (now - since < sliceMs) return undefined;
    return immediate().then(() => {
      since = performance.now();
    });
  };
}
