/**
 * Elements without geometry, placed by their history's bbox (pure, no I/O; src/query/README.md,
 * "Elements without geometry"). The reference (OSHDB CellIterator) first tests the bbox of an
 * element's whole history against the area; when it lies inside, the element is neither clipped
 * nor dropped, so a version whose geometry is empty (a relation left with only relation members,
 * a way whose nodes do not exist yet) still counts (measures 0), and in contributions such a side
 * is "in".
 *
 * The engine reads the states without geometry once (src/engines/duckdb/empty-geometry.ts); per
 * query, `placedRowids` keeps those the query's filter matches and whose history bbox lies inside
 * the area. The planner's statements add them as a separate branch (`AreaPlan.placedRowids`,
 * src/query/plan.ts), so the main scan keeps its bbox predicate and DuckDB's zone maps; a query
 * whose filter matches none of them (`building=*` on the samples) runs exactly the SQL it would
 * without the rule.
 */
import { prepareArea } from '../geometry/clip-area.js';
import { Location } from '../geometry/ring-index.js';
import type { BBox, MultiPolygon, Polygon, Position } from '../geometry/types.js';
import type { FilterableState } from '../filter/index.js';
import { coversWholeWorld, rectangleOf } from './area-plan.js';

/**
 * A state of a way or relation whose geometry is empty (not deleted), with the bbox of its
 * element's whole history (every version of every node and way member it ever referenced: the
 * reference's OSH bbox). `members`: its version has at least one member (snapshots skip those
 * with none, as the reference's snapshot iterator does; contributions do not). `rowid`: its row
 * in the store's `states` table; `state`: what the filter looks at.
 */
export interface EmptyGeometryState {
  rowid: number;
  type: number;
  id: number;
  version: number;
  members: boolean;
  historyBBox: BBox;
  state: FilterableState;
}

/**
 * The rowids (ascending) of the states placed in the area: those `matches` accepts (the query's
 * filter, on the state's own tags), with members when `snapshot`, whose history bbox lies inside
 * the area. None for an area covering the whole world: its plan already counts every row without
 * geometry (src/query/area-plan.ts).
 */
export function placedRowids(
  states: readonly EmptyGeometryState[],
  area: Polygon | MultiPolygon,
  matches: (s: FilterableState) => boolean,
  snapshot: boolean,
): number[] {
  const rect = rectangleOf(area);
  if (rect && coversWholeWorld(rect)) return [];
  let within: ((b: BBox) => boolean) | undefined;
  const out: number[] = [];
  for (const s of states) {
    if (snapshot && !s.members) continue;
    if (!matches(s.state)) continue;
    within ??= bboxWithinAreaTest(area);
    if (within(s.historyBBox)) out.push(s.rowid);
  }
  return out.sort((a, b) => a - b);
}

/** Does the bbox lie inside the area (boundary included)? Exact for any (multi)polygon. */
export function bboxWithinArea(b: BBox, area: Polygon | MultiPolygon): boolean {
  return bboxWithinAreaTest(area)(b);
}

/** `bboxWithinArea` for one area and many bboxes (the area prepared once). */
export function bboxWithinAreaTest(area: Polygon | MultiPolygon): (b: BBox) => boolean {
  const rect = rectangleOf(area);
  if (rect) return (b) => b[0] >= rect[0] && b[1] >= rect[1] && b[2] <= rect[2] && b[3] <= rect[3];
  const polygons = area.type === 'Polygon' ? [area.coordinates] : area.coordinates;
  const outer: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const polygon of polygons) {
    for (const p of polygon[0] ?? []) {
      outer[0] = Math.min(outer[0], p[0]);
      outer[1] = Math.min(outer[1], p[1]);
      outer[2] = Math.max(outer[2], p[0]);
      outer[3] = Math.max(outer[3], p[1]);
    }
  }
  let prepared: ReturnType<typeof prepareArea> | undefined;
  return (b) => {
    if (b[0] < outer[0] || b[1] < outer[1] || b[2] > outer[2] || b[3] > outer[3]) return false;
    prepared ??= prepareArea(area);
    const corners: Position[] = [
      [b[0], b[1]],
      [b[2], b[1]],
      [b[2], b[3]],
      [b[0], b[3]],
    ];
    if (corners.some((p) => prepared!.locate(p) === Location.Outside)) return false;
    // No edge of the area may pass through the bbox's inside (a hole, a notch); along a degenerate
    // (zero-width or zero-height) bbox, through the bbox itself.
    for (const polygon of polygons) {
      for (const ring of polygon) {
        for (let i = 0; i + 1 < ring.length; i++) if (segmentEntersBox(ring[i], ring[i + 1], b)) return false;
      }
    }
    return true;
  };
}

/**
 * Does segment a–p pass through the inside of the box (Liang–Barsky)? Along a degenerate
 * dimension (zero width or height) the box is closed, so a segment crossing a flat box counts; a
 * point box is settled by the corner test alone.
 */
function segmentEntersBox(a: Position, p: Position, b: BBox): boolean {
  const strict = [b[2] > b[0], b[3] > b[1]];
  if (!strict[0] && !strict[1]) return false;
  let t0 = 0;
  let t1 = 1;
  for (let axis = 0; axis < 2; axis++) {
    const lo = b[axis];
    const hi = b[axis + 2];
    const v = a[axis];
    const d = p[axis] - v;
    if (d === 0) {
      if (strict[axis] ? v <= lo || v >= hi : v !== lo) return false;
      continue;
    }
    const ta = (lo - v) / d;
    const tb = (hi - v) / d;
    t0 = Math.max(t0, Math.min(ta, tb));
    t1 = Math.min(t1, Math.max(ta, tb));
  }
  return strict[0] && strict[1] ? t0 < t1 : t0 <= t1 && strictlyInsideAlong(a, p, (t0 + t1) / 2, b, strict);
}

/** The point at t on a–p lies strictly inside the box along its non-degenerate dimension. */
function strictlyInsideAlong(a: Position, p: Position, t: number, b: BBox, strict: boolean[]): boolean {
  const axis = strict[0] ? 0 : 1;
  const x = a[axis] + t * (p[axis] - a[axis]);
  return x > b[axis] && x < b[axis + 2];
}
