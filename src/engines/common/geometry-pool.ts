/**
 * The geometry pool: worker threads (Piscina, docs/dependencies.md) that decode, clip and measure
 * the boundary rows of aggregation queries (boundary-measure-task.ts), so that a request with
 * many geometries on its area's edge does not hold the event loop, and with it every other client
 * (health checks included), for the seconds its geometry takes. A batch is split into parts of
 * about equal size, one per worker, and its WKB transferred, not copied. A task whose request is
 * cancelled is aborted (Piscina ends the worker that runs it and starts another).
 *
 * One pool per process (`sharedGeometryPool`): idle workers do not keep the process alive and end
 * after a while.
 */
import { availableParallelism } from 'node:os';
import { setImmediate as immediate } from 'node:timers/promises';
import { Piscina } from 'piscina';
import type { AreaOfInterest, Measure } from '../../query/model.js';
import { packWkbs, type BoundaryMeasureTask } from './boundary-measure-task.js';
import { unpackOutcomes, type BoundaryClipTask, type ClipOutcome, type PackedClipOutcomes } from './boundary-clip-task.js';

export interface GeometryPool {
  /** Clips each WKB to `area` and measures it: the values in order, NaN where nothing lies in the area. */
  measureClipped(area: AreaOfInterest, measure: Measure, wkbs: readonly Uint8Array[], signal?: AbortSignal): Promise<Float64Array>;
  /** Clips each WKB to `area` (extraction rows on its edge): the outcomes in order (boundary-clip-task.ts). */
  clipWkbs(area: AreaOfInterest, wkbs: readonly Uint8Array[], signal?: AbortSignal): Promise<ClipOutcome[]>;
  readonly threads: number;
  close(): Promise<void>;
}

export function createGeometryPool(threads = Math.max(1, availableParallelism())): GeometryPool {
  const pool = new Piscina({
    filename: new URL('./geometry-worker.js', import.meta.url).href,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 30_000,
  });
  return {
    threads,
    async measureClipped(area, measure, wkbs, signal) {
      const results = await runParts(wkbs, threads, (p) => {
        const { bytes, offsets } = packWkbs(p);
        const task: BoundaryMeasureTask = { area, measure, bytes, offsets };
        return pool.run(task, { signal, transferList: [bytes.buffer as ArrayBuffer, offsets.buffer as ArrayBuffer] }) as Promise<Float64Array>;
      });
      const out = new Float64Array(wkbs.length);
      let at = 0;
      for (const r of results) {
        out.set(r, at);
        at += r.length;
      }
      return out;
    },
    async clipWkbs(area, wkbs, signal) {
      const results = await runParts(wkbs, threads, (p) => {
        const { bytes, offsets } = packWkbs(p);
        const task: BoundaryClipTask = { kind: 'clip', area, bytes, offsets };
        return pool.run(task, { signal, transferList: [bytes.buffer as ArrayBuffer, offsets.buffer as ArrayBuffer] }) as Promise<PackedClipOutcomes>;
      });
      return results.flatMap(unpackOutcomes);
    },
    close: () => pool.destroy(),
  };
}

/** A part holds at most this many bytes of WKB (unless one geometry is bigger). */
const MAX_PART_BYTES = 4 * 2 ** 20;

/**
 * Runs `task` on each part of `wkbs` (partsOf) and gives the results in order. The parts are packed
 * one at a time with a turn of the event loop between them: packing tens of megabytes of boundary
 * geometries at once (a daily series over a country's relation) held the loop for a second.
 */
async function runParts<T>(wkbs: readonly Uint8Array[], threads: number, task: (part: Uint8Array[]) => Promise<T>): Promise<T[]> {
  const running: Promise<T>[] = [];
  for (const part of partsOf(wkbs, threads)) {
    if (running.length > 0) await immediate();
    const result = task(part);
    // Handled now: a part that fails while the next is packed must not count as unhandled.
    result.catch(() => undefined);
    running.push(result);
  }
  return Promise.all(running);
}

/**
 * The WKBs in parts of about equal bytes, in order: one per thread (a request alone uses every
 * worker), or more when that would put over MAX_PART_BYTES in one.
 */
function partsOf(wkbs: readonly Uint8Array[], threads: number): Uint8Array[][] {
  let total = 0;
  for (const w of wkbs) total += w.length;
  const target = Math.min(Math.ceil(total / threads), MAX_PART_BYTES);
  const parts: Uint8Array[][] = [];
  let part: Uint8Array[] = [];
  let size = 0;
  for (const w of wkbs) {
    part.push(w);
    size += w.length;
    if (size >= target) {
      parts.push(part);
      part = [];
      size = 0;
    }
  }
  if (part.length > 0) parts.push(part);
  return parts;
}

/** A batch of at least this many bytes of WKB goes to the pool however few its geometries (about a thousand vertices). */
export const POOL_MIN_BYTES = 16_384;

/**
 * Whether a batch of boundary geometries is clipped in the pool: `minCount` geometries or more, or
 * POOL_MIN_BYTES of WKB (a handful of country-sized polygons took 1.8 s on the calling thread);
 * `minCount` Infinity: never (tests), 0: always.
 */
export function worthPooling(wkbs: readonly Uint8Array[], minCount: number): boolean {
  if (wkbs.length === 0 || minCount === Number.POSITIVE_INFINITY) return false;
  if (wkbs.length >= minCount) return true;
  let bytes = 0;
  for (const w of wkbs) if ((bytes += w.length) >= POOL_MIN_BYTES) return true;
  return false;
}

let shared: GeometryPool | undefined;

/** The process's pool, made at first use. */
export function sharedGeometryPool(): GeometryPool {
  return (shared ??= createGeometryPool());
}
