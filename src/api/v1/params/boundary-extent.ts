/**
 * The extent rule (v1 §1.4): the union of the boundary objects must lie completely within the
 * polygon the data covers, else 404 BOUNDARY_OUTSIDE_DATA. Slivers outside of less than a square
 * millimetre (rounding noise) are ignored.
 */
import polygonClipping from 'polygon-clipping';
import { MaphistError } from '../../../core/errors.js';
import { areaOf } from '../../../geometry/measures.js';
import type { BBox, MultiPolygon, Polygon, Position } from '../../../geometry/types.js';
import type { AreaOfInterest } from '../../../query/model.js';
import type { StoreMetadata } from '../../../store/metadata.js';
import { MSG } from './messages.js';

const NEGLIGIBLE_SQUARE_METRES = 1e-6;

export function assertWithinDataExtent(areas: readonly AreaOfInterest[], extent: StoreMetadata['spatialExtent']): void {
  const ring = extent.coordinates[0] ?? [];
  const extentBox = boxOf(ring);
  const rectangle = isAxisAlignedRectangle(ring) && extent.coordinates.length === 1;
  for (const a of areas) {
    if (rectangle && within(a.bbox, extentBox)) continue;
    if (!rectangle && !within(a.bbox, extentBox)) throw outside(a);
    const rest = polygonClipping.difference(coords(a.geometry), extent.coordinates as Position[][]);
    if (rest.length > 0 && areaOf({ type: 'MultiPolygon', coordinates: rest as Position[][][] }) > NEGLIGIBLE_SQUARE_METRES) {
      throw outside(a);
    }
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

function within(inner: BBox, outer: BBox): boolean {
  return inner[0] >= outer[0] && inner[1] >= outer[1] && inner[2] <= outer[2] && inner[3] <= outer[3];
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
