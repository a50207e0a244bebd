/**
 * Clipping an extraction's rows on the area's edge off the event loop: a chunk's boundary WKBs go
 * to the geometry pool in one call (boundary-clip-task.ts) when they are many or large, and are
 * clipped on the calling thread when they are few and small (a round trip to a worker costs more
 * than they do). Both ways give the same bytes.
 */
import { createHash } from 'node:crypto';
import { encodeWkb } from '../../geometry/wkb.js';
import type { AreaPlan } from '../../query/area-plan.js';
import type { ByteBoundedLru } from '../../core/byte-lru.js';
import type { AreaOfInterest } from '../../query/model.js';
import { clipOutcome, type ClipOutcome } from './boundary-clip-task.js';
import { POOL_MIN_BYTES, sharedGeometryPool, type GeometryPool } from './geometry-pool.js';
import { checkAborted } from './statements.js';

export interface BoundaryClipper {
  /** The outcome of clipping each WKB, in order. */
  clip(wkbs: readonly Uint8Array[], signal?: AbortSignal): Promise<ClipOutcome[]>;
}

export interface BoundaryClipperOptions {
  /** The pool (default: the process's, geometry-pool.ts). */
  pool?: () => GeometryPool;
  /**
   * A batch goes to the pool when it holds at least this many bytes of WKB (default 16 KB, about
   * a thousand vertices: a clip of that size takes milliseconds) or `poolMinCount` geometries
   * (default 64). 0 sends every batch to the pool, Infinity none.
   */
  poolMinBytes?: number;
  poolMinCount?: number;
}

export function boundaryClipper(plan: Pick<AreaPlan, 'clip'>, area: AreaOfInterest, options: BoundaryClipperOptions = {}): BoundaryClipper {
  const poolMinBytes = options.poolMinBytes ?? POOL_MIN_BYTES;
  const poolMinCount = options.poolMinCount ?? 64;
  const pool = options.pool ?? sharedGeometryPool;
  return {
    async clip(wkbs, signal) {
      if (wkbs.length === 0) return [];
      let bytes = 0;
      for (const w of wkbs) bytes += w.length;
      if (bytes < poolMinBytes && wkbs.length < poolMinCount) return wkbs.map((w) => clipOutcome(plan, w));
      const outcomes = await pool().clipWkbs(area, wkbs, signal);
      checkAborted(signal);
      return outcomes;
    },
  };
}

/** The outcomes of clipping `wkbs`, by WKB object (how the row loops look them up). */
export async function clipAll(clipper: BoundaryClipper, wkbs: readonly Uint8Array[], signal: AbortSignal | undefined): Promise<Map<Uint8Array, ClipOutcome>> {
  const values = await clipper.clip(wkbs, signal);
  const outcomes = new Map<Uint8Array, ClipOutcome>();
  wkbs.forEach((w, i) => outcomes.set(w, values[i]));
  return outcomes;
}

/** A key naming an area's geometry exactly (equal keys, equal clips): a digest of its WKB. */
export function areaKey(area: AreaOfInterest): string {
  return createHash('sha256').update(encodeWkb(area.geometry)).digest('base64url');
}

/**
 * clipAll over geometries named by `key` (a run representative's rowid), remembering outcomes in
 * `cache` under `area#key` so that the next request over the same area clips none of them again.
 */
export async function clipAllRemembered(
  clipper: BoundaryClipper,
  items: Iterable<readonly [key: number, wkb: Uint8Array]>,
  cache: ByteBoundedLru<string, ClipOutcome>,
  area: string,
  signal: AbortSignal | undefined,
): Promise<Map<Uint8Array, ClipOutcome>> {
  const outcomes = new Map<Uint8Array, ClipOutcome>();
  const missing: Uint8Array[] = [];
  const missingKeys: string[] = [];
  for (const [key, wkb] of items) {
    const k = `${area}#${key}`;
    const known = cache.get(k);
    if (known !== undefined) outcomes.set(wkb, known);
    else {
      missing.push(wkb);
      missingKeys.push(k);
    }
  }
  const values = await clipper.clip(missing, signal);
  missing.forEach((w, i) => {
    outcomes.set(w, values[i]);
    cache.set(missingKeys[i], values[i]);
  });
  return outcomes;
}

/** At most this many rows, or rows holding this many bytes of boundary WKB, wait for one clip call. */
const GROUP_ROWS = 256;
const GROUP_BYTES = 1 << 20;

/**
 * The rows in groups, each with the clip outcomes of its boundary WKBs (by WKB object): `boundary`
 * names the WKBs of a row that need clipping. Groups are small (256 rows, 1 MB of boundary WKB), so
 * a lazily read chunk is not held as a whole.
 */
export async function* withClipOutcomes<R>(
  rows: Iterable<R>,
  boundary: (row: R, need: (wkb: Uint8Array) => void) => void,
  clipper: BoundaryClipper,
  signal: AbortSignal | undefined,
): AsyncGenerator<{ rows: R[]; outcomes: Map<Uint8Array, ClipOutcome> }, void, undefined> {
  let group: R[] = [];
  let wkbs: Uint8Array[] = [];
  let bytes = 0;
  const need = (wkb: Uint8Array) => {
    wkbs.push(wkb);
    bytes += wkb.length;
  };
  const flush = async () => {
    const out = { rows: group, outcomes: await clipAll(clipper, wkbs, signal) };
    group = [];
    wkbs = [];
    bytes = 0;
    return out;
  };
  for (const row of rows) {
    group.push(row);
    boundary(row, need);
    if (group.length >= GROUP_ROWS || bytes >= GROUP_BYTES) yield await flush();
  }
  if (group.length > 0) yield await flush();
}
