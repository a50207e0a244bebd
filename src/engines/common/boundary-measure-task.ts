/**
 * The geometry work of boundary rows (engine.ts, `snapshotScan`): each geometry, given as WKB,
 * decoded, clipped to the area and measured; `null` when nothing of it lies in the area. Pure (no
 * I/O): the same function runs on the calling thread for small batches and in the geometry pool's
 * workers (geometry-pool.ts) for big ones, so both give the same numbers.
 */
import { areaOf, lengthOf, perimeterOf } from '../../geometry/measures.js';
import type { Geometry } from '../../geometry/types.js';
import { decodeWkb } from '../../geometry/wkb.js';
import { planArea, type AreaPlan } from '../../query/area-plan.js';
import type { AreaOfInterest, Measure } from '../../query/model.js';

export const MEASURE_OF: Record<Measure, (g: Geometry) => number> = { count: () => 1, length: lengthOf, area: areaOf, perimeter: perimeterOf };

/** One batch for a worker: the WKBs packed into one buffer (transferred, not copied), `offsets` of length n + 1. */
export interface BoundaryMeasureTask {
  area: AreaOfInterest;
  measure: Measure;
  bytes: Uint8Array;
  offsets: Uint32Array;
}

/** The measure of each clipped geometry (NaN: nothing in the area). */
export function measureClipped(plan: Pick<AreaPlan, 'clip'>, measure: Measure, wkbs: Iterable<Uint8Array>): Float64Array {
  const measureOf = MEASURE_OF[measure];
  const out: number[] = [];
  for (const wkb of wkbs) {
    const clipped = plan.clip(decodeWkb(wkb));
    out.push(clipped === null ? Number.NaN : measureOf(clipped));
  }
  return Float64Array.from(out);
}

/** Packs WKBs for a task. */
export function packWkbs(wkbs: readonly Uint8Array[]): { bytes: Uint8Array; offsets: Uint32Array } {
  const offsets = new Uint32Array(wkbs.length + 1);
  for (let i = 0; i < wkbs.length; i++) offsets[i + 1] = offsets[i] + wkbs[i].length;
  const bytes = new Uint8Array(offsets[wkbs.length]);
  for (let i = 0; i < wkbs.length; i++) bytes.set(wkbs[i], offsets[i]);
  return { bytes, offsets };
}

function* unpacked(bytes: Uint8Array, offsets: Uint32Array): Generator<Uint8Array> {
  for (let i = 0; i + 1 < offsets.length; i++) yield bytes.subarray(offsets[i], offsets[i + 1]);
}

/** The area plans a worker built last (the same area comes in several batches of one request). */
const plans = new Map<string, AreaPlan>();

/** The area plan of a task's area, built once per area in a worker (the last 8 are kept). */
export function planOfTask(area: AreaOfInterest): AreaPlan {
  const key = JSON.stringify(area);
  let plan = plans.get(key);
  if (!plan) {
    if (plans.size >= 8) plans.delete(plans.keys().next().value!);
    plans.set(key, (plan = planArea(area)));
  }
  return plan;
}

/** The worker's task (geometry-pool.ts): the measures of the batch, in order. */
export function runBoundaryMeasureTask(task: BoundaryMeasureTask): Float64Array {
  return measureClipped(planOfTask(task.area), task.measure, unpacked(task.bytes, task.offsets));
}
