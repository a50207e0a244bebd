/**
 * The geometry work of extraction rows on the area's edge (v1 extraction, v2 GeoParquet): each
 * geometry, given as WKB, decoded and clipped to the area. Pure (no I/O): the same function runs on
 * the calling thread for small batches and in the geometry pool's workers (geometry-pool.ts) for
 * big ones, so both give the same bytes. A clip of one large geometry can take a second
 * (polygon-clipping); in the pool it no longer holds the event loop.
 */
import type { Geometry } from '../../geometry/types.js';
import { decodeWkb, encodeWkb } from '../../geometry/wkb.js';
import { sameBytes } from '../../core/same-bytes.js';
import type { AreaPlan } from '../../query/area-plan.js';
import type { AreaOfInterest } from '../../query/model.js';
import { planOfTask } from './boundary-measure-task.js';

/**
 * What clipping one geometry gave: null, nothing of it lies in the area; 'same', the clip equals
 * the geometry (its WKB is unchanged); else the clipped geometry's WKB.
 */
export type ClipOutcome = null | 'same' | Uint8Array;

/** The outcome of clipping `wkb` to the plan's area. */
export function clipOutcome(plan: Pick<AreaPlan, 'clip'>, wkb: Uint8Array): ClipOutcome {
  const clipped = plan.clip(decodeWkb(wkb));
  if (clipped === null) return null;
  const out = encodeWkb(clipped);
  return sameBytes(out, wkb) ? 'same' : out;
}

/** The outcome of `wkb`: from `outcomes` when it was clipped ahead (in the pool), else clipped here. */
export function outcomeOf(outcomes: ReadonlyMap<Uint8Array, ClipOutcome> | undefined, plan: Pick<AreaPlan, 'clip'>, wkb: Uint8Array): ClipOutcome {
  const known = outcomes?.get(wkb); // a map holds null for a miss, never undefined
  return known !== undefined ? known : clipOutcome(plan, wkb);
}

/** The geometry an outcome stands for: the input's for 'same', null when it missed the area. */
export function outcomeGeometry(outcome: ClipOutcome, wkb: Uint8Array, decoded?: Geometry): Geometry | null {
  if (outcome === null) return null;
  if (outcome === 'same') return decoded ?? decodeWkb(wkb);
  return decodeWkb(outcome);
}

/** One batch for a worker: the WKBs packed into one buffer (transferred), `offsets` of length n + 1. */
export interface BoundaryClipTask {
  kind: 'clip';
  area: AreaOfInterest;
  bytes: Uint8Array;
  offsets: Uint32Array;
}

/**
 * A batch's outcomes packed for the way back: `status[i]` 0 (null), 1 ('same') or 2 (clipped,
 * its WKB at `bytes[offsets[i]..offsets[i + 1]]`; the others have empty ranges).
 */
export interface PackedClipOutcomes {
  status: Uint8Array;
  bytes: Uint8Array;
  offsets: Uint32Array;
}

export function packOutcomes(outcomes: readonly ClipOutcome[]): PackedClipOutcomes {
  const n = outcomes.length;
  const status = new Uint8Array(n);
  const offsets = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const o = outcomes[i];
    status[i] = o === null ? 0 : o === 'same' ? 1 : 2;
    offsets[i + 1] = offsets[i] + (o instanceof Uint8Array ? o.length : 0);
  }
  const bytes = new Uint8Array(offsets[n]);
  for (let i = 0; i < n; i++) {
    const o = outcomes[i];
    if (o instanceof Uint8Array) bytes.set(o, offsets[i]);
  }
  return { status, bytes, offsets };
}

export function unpackOutcomes(packed: PackedClipOutcomes): ClipOutcome[] {
  const { status, bytes, offsets } = packed;
  const out: ClipOutcome[] = new Array(status.length);
  for (let i = 0; i < status.length; i++) out[i] = status[i] === 0 ? null : status[i] === 1 ? 'same' : bytes.slice(offsets[i], offsets[i + 1]);
  return out;
}

/** The worker's task (geometry-pool.ts): the outcomes of the batch, in order. */
export function runBoundaryClipTask(task: BoundaryClipTask): PackedClipOutcomes {
  const plan = planOfTask(task.area);
  const outcomes: ClipOutcome[] = [];
  for (let i = 0; i + 1 < task.offsets.length; i++) outcomes.push(clipOutcome(plan, task.bytes.subarray(task.offsets[i], task.offsets[i + 1])));
  return packOutcomes(outcomes);
}
