/**
 * The geometry of a way from the coordinates of its resolved, visible member nodes
 * (reference `OSHDBGeometryBuilderInternal.getWayGeometry`, docs/reference/history-engine-semantics.md §2.3).
 */
import type { LineString, Point, Polygon, Position } from './types.js';

/**
 * A Polygon when the way is an area (see `isAreaWay`) and its resolved coordinates form a ring
 * (≥ 4 coordinates, first equals last in 2D); otherwise a LineString for ≥ 2 coordinates, a
 * Point for exactly 1 and null (empty) for none. An area whose ring is broken after resolution
 * (e.g. a deleted node) silently becomes a line, as in the reference.
 * The returned geometry shares `coords` (not copied).
 */
export function buildWayGeometry(coords: Position[], isArea: boolean): Polygon | LineString | Point | null {
  const n = coords.length;
  if (isArea && n >= 4 && coords[0][0] === coords[n - 1][0] && coords[0][1] === coords[n - 1][1]) {
    return { type: 'Polygon', coordinates: [coords] };
  }
  if (n >= 2) return { type: 'LineString', coordinates: coords };
  if (n === 1) return { type: 'Point', coordinates: coords[0] };
  return null;
}
