/**
 * The geometry a row carries: the store's WKB unchanged for interior rows (bbox inside the area),
 * else the exact intersection with the area (clip) — or, without clipping, the whole geometry of
 * a row that really meets the area. Rows whose intersection is empty are dropped (null).
 */
import { GEOMETRY_TYPE_CODE } from '../../../core/geometry-type-code.js';
import { bboxOf } from '../../../geometry/clip.js';
import type { Geometry } from '../../../geometry/types.js';
import { decodeWkb } from '../../../geometry/wkb.js';
import { outcomeOf, type ClipOutcome } from '../boundary-clip-task.js';
import { clipAll, type BoundaryClipper } from '../boundary-clipper.js';
import type { SqlAreaPlan } from '../../sql/area.js';
import type { BBoxStruct } from '../../../query/v2-requests.js';

export const GEOMETRY_TYPE_NAME: readonly (string | null)[] = (() => {
  const names: (string | null)[] = [null];
  for (const [name, code] of Object.entries(GEOMETRY_TYPE_CODE)) if (code > 0) names[code] = name;
  return names;
})();

export interface OutputGeometry {
  wkb: Uint8Array;
  geomType: string;
  bbox: BBoxStruct;
  clipped: boolean;
  /** The decoded geometry, when it was decoded anyway (collections reuse it). */
  geometry?: Geometry;
}

export function bboxStruct(g: Geometry): BBoxStruct | null {
  const b = bboxOf(g);
  return b === null ? null : { xmin: b[0], ymin: b[1], xmax: b[2], ymax: b[3] };
}

/**
 * `bbox` is the store's bbox of `wkb`. `clip` false: the whole geometry of a row that meets the
 * area. A clipped result equal to the input (a boundary row that lies inside after all) is
 * reported unclipped, as the reference's ST_Covers test would. `outcomes`: the boundary WKBs
 * clipped with their chunk (`clipOutcomes`); a WKB not among them is clipped here.
 */
export function outputGeometry(
  plan: SqlAreaPlan,
  wkb: Uint8Array,
  typeCode: number,
  bbox: BBoxStruct,
  interior: boolean,
  clip: boolean,
  decode = false,
  outcomes?: ReadonlyMap<Uint8Array, ClipOutcome>,
): OutputGeometry | null {
  const geomType = GEOMETRY_TYPE_NAME[typeCode] ?? 'GeometryCollection';
  if (interior) return { wkb, geomType, bbox, clipped: false, geometry: decode ? decodeWkb(wkb) : undefined };
  const outcome = outcomeOf(outcomes, plan, wkb);
  if (outcome === null) return null;
  if (!clip || outcome === 'same') return { wkb, geomType, bbox, clipped: false, geometry: decode ? decodeWkb(wkb) : undefined };
  const c = decodeWkb(outcome);
  const cb = bboxStruct(c);
  if (cb === null) return null;
  return { wkb: outcome, geomType: c.type, bbox: cb, clipped: true, geometry: c };
}

/**
 * The clip outcomes of a chunk's boundary rows (`interior` false), in one call of the request's
 * clipper: in the geometry pool when they are many or large (boundary-clipper.ts).
 */
export async function clipOutcomes(
  clipper: BoundaryClipper | undefined,
  rows: readonly unknown[][],
  geometryColumn: number,
  interiorColumn: number,
  signal: AbortSignal | undefined,
): Promise<Map<Uint8Array, ClipOutcome>> {
  if (clipper === undefined) return new Map();
  const wkbs: Uint8Array[] = [];
  for (const r of rows) {
    const wkb = r[geometryColumn] as Uint8Array | null;
    if (wkb !== null && r[interiorColumn] !== true) wkbs.push(wkb);
  }
  return clipAll(clipper, wkbs, signal);
}
