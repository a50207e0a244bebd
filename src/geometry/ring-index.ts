/**
 * A ring's edges bucketed into horizontal bands, so that locating a point or finding the edges
 * near a segment looks at a few edges instead of all of them (the idea of the reference's
 * `FastPolygonOperations` bands, applied to one ring). Small rings use a single band.
 */
import type { BBox, Position } from './types.js';

/** Where a point lies relative to an area. */
export const Location = { Outside: 0, Boundary: 1, Inside: 2 } as const;
export type Location = (typeof Location)[keyof typeof Location];

/**
 * Distance (in degrees) within which a point counts as lying on an edge. OSM coordinates have
 * 1e-7° resolution, so this only absorbs rounding of computed points (midpoints of shared edges,
 * intersection points), never merges distinct OSM positions.
 */
export const ON_EDGE_TOLERANCE = 1e-10;

/** Bands are sized for about this many edges each; smaller rings get a single band. */
const EDGES_PER_BAND = 16;

export class RingIndex {
  /** The ring, closed (a copy with the first position appended if the input was open). */
  readonly ring: Position[];
  readonly bbox: BBox;
  private readonly minY: number;
  private readonly bandHeight: number;
  private readonly bandCount: number;
  /** Edge i goes from ring[i] to ring[i + 1]; each band lists the edges overlapping it. */
  private readonly bands: Int32Array[];

  constructor(input: Position[]) {
    const ring = isClosed(input) ? input : [...input, input[0]];
    this.ring = ring;
    const edgeCount = Math.max(0, ring.length - 1);
    this.bbox = ringBBox(ring);
    const [, minY, , maxY] = this.bbox;
    const bandCount = Math.max(1, Math.min(4096, Math.floor(edgeCount / EDGES_PER_BAND)));
    this.minY = minY;
    this.bandCount = bandCount;
    this.bandHeight = maxY > minY ? (maxY - minY) / bandCount : 1;
    const lists: number[][] = Array.from({ length: bandCount }, () => []);
    for (let i = 0; i < edgeCount; i++) {
      const a = ring[i][1];
      const b = ring[i + 1][1];
      const from = this.bandOf(Math.min(a, b) - ON_EDGE_TOLERANCE);
      const to = this.bandOf(Math.max(a, b) + ON_EDGE_TOLERANCE);
      for (let band = from; band <= to; band++) lists[band].push(i);
    }
    this.bands = lists.map((list) => Int32Array.from(list));
  }

  private bandOf(y: number): number {
    const band = Math.floor((y - this.minY) / this.bandHeight);
    return band < 0 ? 0 : band >= this.bandCount ? this.bandCount - 1 : band;
  }

  /** Where `p` lies relative to the area enclosed by the ring (even–odd rule). */
  locate(p: Position): Location {
    return this.locateXY(p[0], p[1]);
  }

  locateXY(x: number, y: number): Location {
    const ring = this.ring;
    let inside = false;
    for (const i of this.bands[this.bandOf(y)]) {
      const a = ring[i];
      const b = ring[i + 1];
      if (onSegment(x, y, a, b)) return Location.Boundary;
      if (a[1] > y !== b[1] > y) {
        const crossX = a[0] + ((y - a[1]) * (b[0] - a[0])) / (b[1] - a[1]);
        if (x < crossX) inside = !inside;
      }
    }
    return inside ? Location.Inside : Location.Outside;
  }

  /** Adds to `cuts` the parameters along a→b where it meets edges of this ring (see `addCuts`). */
  addCutsOf(a: Position, b: Position, cuts: number[]): void {
    this.forEachEdgeNear(a, b, (edge) => addCuts(a, b, this.ring[edge], this.ring[edge + 1], cuts));
  }

  /**
   * Calls `visit(i)` for every edge i (ring[i] → ring[i+1]) that may come near the segment a→b
   * (band overlap and bounding-box test; an edge may be visited more than once).
   */
  forEachEdgeNear(a: Position, b: Position, visit: (edge: number) => void): void {
    const ring = this.ring;
    const minX = Math.min(a[0], b[0]) - ON_EDGE_TOLERANCE;
    const maxX = Math.max(a[0], b[0]) + ON_EDGE_TOLERANCE;
    const minY = Math.min(a[1], b[1]) - ON_EDGE_TOLERANCE;
    const maxY = Math.max(a[1], b[1]) + ON_EDGE_TOLERANCE;
    const from = this.bandOf(minY);
    const to = this.bandOf(maxY);
    for (let band = from; band <= to; band++) {
      for (const i of this.bands[band]) {
        const c = ring[i];
        const d = ring[i + 1];
        if (Math.max(c[0], d[0]) < minX || Math.min(c[0], d[0]) > maxX) continue;
        if (Math.max(c[1], d[1]) < minY || Math.min(c[1], d[1]) > maxY) continue;
        visit(i);
      }
    }
  }
}

function isClosed(ring: Position[]): boolean {
  if (ring.length === 0) return true;
  const a = ring[0];
  const b = ring[ring.length - 1];
  return a[0] === b[0] && a[1] === b[1];
}

/** Is (x, y) within `ON_EDGE_TOLERANCE` of the segment a→b? */
export function onSegment(x: number, y: number, a: Position, b: Position): boolean {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const lengthSquared = dx * dx + dy * dy;
  let t = lengthSquared === 0 ? 0 : ((x - a[0]) * dx + (y - a[1]) * dy) / lengthSquared;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  const ex = a[0] + t * dx - x;
  const ey = a[1] + t * dy - y;
  return ex * ex + ey * ey <= ON_EDGE_TOLERANCE * ON_EDGE_TOLERANCE;
}

/**
 * Adds to `cuts` the parameters t ∈ (0, 1) along a→b where it meets the segment c→d: the crossing
 * point, or for collinear overlapping segments the ends of c→d that fall inside a→b.
 */
export function addCuts(a: Position, b: Position, c: Position, d: Position, cuts: number[]): void {
  const rx = b[0] - a[0];
  const ry = b[1] - a[1];
  const sx = d[0] - c[0];
  const sy = d[1] - c[1];
  const denominator = rx * sy - ry * sx;
  const qx = c[0] - a[0];
  const qy = c[1] - a[1];
  if (denominator !== 0) {
    const t = (qx * sy - qy * sx) / denominator;
    const u = (qx * ry - qy * rx) / denominator;
    if (t > 0 && t < 1 && u >= 0 && u <= 1) cuts.push(t);
    return;
  }
  if (qx * ry - qy * rx !== 0) return; // parallel, not collinear
  const lengthSquared = rx * rx + ry * ry;
  if (lengthSquared === 0) return;
  const tc = (qx * rx + qy * ry) / lengthSquared;
  const td = ((d[0] - a[0]) * rx + (d[1] - a[1]) * ry) / lengthSquared;
  if (tc > 0 && tc < 1) cuts.push(tc);
  if (td > 0 && td < 1) cuts.push(td);
}

/** [minX, minY, maxX, maxY] of a ring. */
export function ringBBox(ring: Position[]): BBox {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const p of ring) {
    if (p[0] < minX) minX = p[0];
    if (p[0] > maxX) maxX = p[0];
    if (p[1] < minY) minY = p[1];
    if (p[1] > maxY) maxY = p[1];
  }
  return [minX, minY, maxX, maxY];
}
