/**
 * The extent rule: a boundary object that does not intersect the area the data covers answers
 * 404 BOUNDARY_OUTSIDE_DATA (with the reference's message). The reference requires the union to lie
 * *completely* within its extract polygon; on the public server that was the whole world, so every
 * query passed. On a local store the extent is the data's own bbox, and a whole-world bbox (the
 * usual way to ask "everything") must keep working, so only a boundary entirely outside the data
 * is refused — a deliberate difference (params/README.md).
 */
import polygonClipping from 'polygon-clipping';
import { MaphistError } from '../../../core/errors.js';
import type { BBox, MultiPolygon, Polygon, Position } from '../../../geometry/types.js';
import type { AreaOfInterest } from '../../../query/model.js';
import type { StoreMetadata } from '../../../store/metadata.js';
import { MSG } from './messages.js';

export function assertWithinDataExtent(areas: readonly AreaOfInterest[], extent: StoreMetadata['spatialExtent']): void {
  const ring = extent.coordinates[0] ?? [];
  const extentBox = boxOf(ring);
  const rectangle = isAxisAlignedRectangle(ring) && extent.coordinates.length === 1;
  for (const a of areas) {
    if (!boxesIntersect(a.bbox, extentBox)) throw outside(a);
    if (rectangle) continue;
    const common = polygonClipping.intersection(coords(a.geometry), extent.coordinates as Position[][]);
    if (common.length === 0) throw outside(a);
  }
}

function outside(a: AreaOfInterest): MaphistError {
  return new MaphistError('BOUNDARY_OUTSIDE_DATA', MSG.BOUNDARY_OUTSIDE, { boundary: a.id });
}

function coords(g: Polygon | MultiPolygon): Position[][] | Position[][][] {
  return g.coordinates;
}

function boxOf(ring: readonly Position[]): BBox {
  const b: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of ring) {
    b[0] = Math.min(b[0], x);
    b[1] = Math.min(b[1], y);
    b[2] = Math.max(b[2], x);
    b[3] = Math.max(b[3], y);
  }
  return b;
}

function boxesIntersect(a: BBox, b: BBox): boolean {
  return a[0] <= b[2] && a[2] >= b[0] && a[1] <= b[3] && a[3] >= b[1];
}

/** True for a closed ring whose every vertex is a corner of its bbox and whose edges are axis-parallel. */
function isAxisAlignedRectangle(ring: readonly Position[]): boolean {
  if (ring.length < 5) return false;
  const b = boxOf(ring);
  for (let i = 0; i + 1 < ring.length; i++) {
    const [x1, y1] = ring[i]!;
    const [x2, y2] = ring[i + 1]!;
    if (x1 !== x2 && y1 !== y2) return false;
    if ((x1 !== b[0] && x1 !== b[2]) || (y1 !== b[1] && y1 !== b[3])) return false;
  }
  return true;
}
