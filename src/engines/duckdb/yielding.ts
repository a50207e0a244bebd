/**
 * Cooperative yielding for the loops that finish a query's rows on the main thread (engine.ts):
 * every few hundred rows a loop asks `pause()`, which, once the loop has run for `sliceMs` since
 * its last turn, lets the event loop run (other requests, health checks) before it goes on. The
 * heavy geometry work runs in the geometry pool (geometry-pool.ts); this bounds what is left.
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
