/**
 * The geometry a row carries: the store's WKB unchanged for interior rows (bbox inside the area),
 * else the exact intersection with the area (clip) — or, without clipping, the whole geometry of
 * a row that really meets the area. Rows whose intersection is empty are dropped (null).
 */
import { GEOMETRY_TYPE_CODE } from '../../../core/geometry-type-code.js';
import { bboxOf } from '../../../geometry/clip.js';
import type { Geometry } from '../../../geometry/types.js';
import { decodeWkb, encodeWkb } from '../../../geometry/wkb.js';
import type { SqlAreaPlan } from '../sql/area.js';
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

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function bboxStruct(g: Geometry): BBoxStruct | null {
  const b = bboxOf(g);
  return b === null ? null : { xmin: b[0], ymin: b[1], xmax: b[2], ymax: b[3] };
}

/**
 * `bbox` is the store's bbox of `wkb`. `clip` false: the whole geometry of a row that meets the
 * area. A clipped result equal to the input (a boundary row that lies inside after all) is
 * reported unclipped, as the reference's ST_Covers test would.
 */
export function outputGeometry(
  plan: SqlAreaPlan,
  wkb: Uint8Array,
  typeCode: number,
  bbox: BBoxStruct,
  interior: boolean,
  clip: boolean,
  decode = false,
): OutputGeometry | null {
  const geomType = GEOMETRY_TYPE_NAME[typeCode] ?? 'GeometryCollection';
  if (interior) return { wkb, geomType, bbox, clipped: false, geometry: decode ? decodeWkb(wkb) : undefined };
  const g = decodeWkb(wkb);
  const c = plan.clip(g);
  if (c === null) return null;
  if (!clip) return { wkb, geomType, bbox, clipped: false, geometry: g };
  const out = encodeWkb(c);
  if (sameBytes(out, wkb)) return { wkb, geomType, bbox, clipped: false, geometry: g };
  const cb = bboxStruct(c);
  if (cb === null) return null;
  return { wkb: out, geomType: c.type, bbox: cb, clipped: true, geometry: c };
}
