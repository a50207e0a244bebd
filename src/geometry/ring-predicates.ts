/**
 * Ring/ring relations needed by multipolygon assembly, standing in for the JTS predicates the
 * reference uses (`coveredBy` between pieces of a pinched ring, prepared `contains` of an inner
 * ring by an outer polygon). A ring's polygon is the area it encloses (even–odd rule); the
 * container side is a `RingIndex` so that big rings are cheap to test against repeatedly.
 */
import { Location, RingIndex, ringBBox } from './ring-index.js';
import type { BBox, Position } from './types.js';

export { ringBBox };

/** What the points of a line are relative to a polygon: any outside? any strictly inside? */
export interface LineLocation {
  anyOutside: boolean;
  anyInside: boolean;
}

/**
 * Locates every point of `line` against `container`: each edge of the line is cut where it meets
 * container edges, and every vertex and every piece's midpoint is located. Stops as soon as a
 * point outside is found (`untilOutside`), or once points both inside and outside are found.
 */
export function locateLine(line: Position[], container: RingIndex, untilOutside = false): LineLocation {
  let anyOutside = false;
  let anyInside = false;
  const cuts: number[] = [];
  for (let i = 0; i < line.length; i++) {
    const where = container.locate(line[i]);
    if (where === Location.Outside) anyOutside = true;
    else if (where === Location.Inside) anyInside = true;
    if (anyOutside && (untilOutside || anyInside)) break;
    if (i === 0) continue;
    const a = line[i - 1];
    const b = line[i];
    cuts.length = 0;
    cuts.push(0, 1);
    container.addCutsOf(a, b, cuts);
    if (cuts.length > 2) cuts.sort((u, v) => u - v);
    for (let k = 1; k < cuts.length; k++) {
      if (cuts[k] - cuts[k - 1] <= 0) continue;
      const t = (cuts[k] + cuts[k - 1]) / 2;
      const midWhere = container.locateXY(a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]));
      if (midWhere === Location.Outside) anyOutside = true;
      else if (midWhere === Location.Inside) anyInside = true;
      if (anyOutside && (untilOutside || anyInside)) return { anyOutside, anyInside };
    }
  }
  return { anyOutside, anyInside };
}

/** JTS `coveredBy` between the polygons of two rings: no point of `ring` lies outside `container`. */
export function ringCoveredBy(ring: Position[], container: RingIndex): boolean {
  if (!bboxWithin(ringBBox(ring), container.bbox)) return false;
  return !locateLine(ring, container, true).anyOutside;
}

/**
 * JTS `polygon.contains(ring)` with the ring taken as a line: no point of the ring outside the
 * polygon and at least one strictly inside (so a ring lying entirely on the boundary is not
 * contained, while one touching the boundary is).
 */
export function polygonContainsRing(container: RingIndex, ring: Position[]): boolean {
  if (!bboxWithin(ringBBox(ring), container.bbox)) return false;
  const where = locateLine(ring, container, true);
  return !where.anyOutside && where.anyInside;
}

export function bboxesIntersect(a: BBox, b: BBox): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

export function bboxWithin(inner: BBox, outer: BBox): boolean {
  return inner[0] >= outer[0] && inner[2] <= outer[2] && inner[1] >= outer[1] && inner[3] <= outer[3];
}

/**
 * Calls `visit(i, j)` (i < j) for every pair of boxes that intersect, sweeping over the boxes
 * sorted by their west edge, so that far-apart rings cost nothing. `visit` returns true to stop.
 */
export function forEachIntersectingPair(boxes: readonly BBox[], visit: (i: number, j: number) => boolean | void): void {
  const order = boxes.map((_, i) => i).sort((a, b) => boxes[a][0] - boxes[b][0]);
  for (let k = 0; k < order.length; k++) {
    const a = boxes[order[k]];
    for (let m = k + 1; m < order.length && boxes[order[m]][0] <= a[2]; m++) {
      const b = boxes[order[m]];
      if (b[1] > a[3] || a[1] > b[3]) continue;
      const i = Math.min(order[k], order[m]);
      const j = Math.max(order[k], order[m]);
      if (visit(i, j) === true) return;
    }
  }
}
