/**
 * The geometry a feature carries (docs/reference/v1-reference-behaviour.md §4.4): `geometry` as is, `bbox` as the envelope (a 5-point
 * Polygon, a Point when degenerate to a point), `centroid` as a Point (JTS rules: the centroid of
 * the parts of highest dimension — area-weighted for polygons, length-weighted for lines, the mean
 * for points). Coordinates are rounded to 7 decimals (~1 cm) on output.
 */
import { bboxOf } from '../../../geometry/clip.js';
import type { Geometry, Position } from '../../../geometry/types.js';

export type OutputGeometryKind = 'geometry' | 'bbox' | 'centroid';

export function outputGeometry(g: Geometry, kind: OutputGeometryKind): Geometry | null {
  if (kind === 'geometry') return g;
  if (kind === 'bbox') {
    const b = bboxOf(g);
    if (b === null) return null;
    const [x0, y0, x1, y1] = b;
    if (x0 === x1 && y0 === y1) return { type: 'Point', coordinates: [x0, y0] };
    return {
      type: 'Polygon',
      coordinates: [
        [
          [x0, y0],
          [x1, y0],
          [x1, y1],
          [x0, y1],
          [x0, y0],
        ],
      ],
    };
  }
  const c = centroidOf(g);
  return c === null ? null : { type: 'Point', coordinates: c };
}

interface Acc {
  dim: number;
  w: number;
  x: number;
  y: number;
}

function addPoint(acc: Acc, p: Position): void {
  if (acc.dim > 0) return;
  acc.w += 1;
  acc.x += p[0];
  acc.y += p[1];
}

function addLine(acc: Acc, line: Position[]): void {
  if (acc.dim > 1) return;
  let w = 0;
  let x = 0;
  let y = 0;
  for (let i = 1; i < line.length; i++) {
    const [ax, ay] = line[i - 1];
    const [bx, by] = line[i];
    const len = Math.hypot(bx - ax, by - ay);
    w += len;
    x += (len * (ax + bx)) / 2;
    y += (len * (ay + by)) / 2;
  }
  if (w === 0) {
    // A degenerate line counts as its points.
    for (const p of line) addPoint(acc, p);
    return;
  }
  if (acc.dim < 1) Object.assign(acc, { dim: 1, w: 0, x: 0, y: 0 });
  acc.w += w;
  acc.x += x;
  acc.y += y;
}

function ringSums(ring: Position[]): [number, number, number] {
  // Signed area (shoelace) and first moments, relative to the ring's first point for precision.
  const [ox, oy] = ring[0];
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 1; i < ring.length; i++) {
    const x0 = ring[i - 1][0] - ox;
    const y0 = ring[i - 1][1] - oy;
    const x1 = ring[i][0] - ox;
    const y1 = ring[i][1] - oy;
    const cross = x0 * y1 - x1 * y0;
    a += cross;
    cx += (x0 + x1) * cross;
    cy += (y0 + y1) * cross;
  }
  a /= 2;
  if (a === 0) return [0, 0, 0];
  return [Math.abs(a), (cx / (6 * a) + ox) * Math.abs(a), (cy / (6 * a) + oy) * Math.abs(a)];
}

function addPolygon(acc: Acc, rings: Position[][]): void {
  let w = 0;
  let x = 0;
  let y = 0;
  rings.forEach((ring, i) => {
    if (ring.length < 4) return;
    const [a, mx, my] = ringSums(ring);
    const s = i === 0 ? 1 : -1;
    w += s * a;
    x += s * mx;
    y += s * my;
  });
  if (w <= 0) {
    for (const ring of rings) addLine(acc, ring);
    return;
  }
  if (acc.dim < 2) Object.assign(acc, { dim: 2, w: 0, x: 0, y: 0 });
  acc.w += w;
  acc.x += x;
  acc.y += y;
}

function add(acc: Acc, g: Geometry): void {
  switch (g.type) {
    case 'Point':
      return addPoint(acc, g.coordinates);
    case 'MultiPoint':
      return g.coordinates.forEach((p) => addPoint(acc, p));
    case 'LineString':
      return addLine(acc, g.coordinates);
    case 'MultiLineString':
      return g.coordinates.forEach((l) => addLine(acc, l));
    case 'Polygon':
      return addPolygon(acc, g.coordinates);
    case 'MultiPolygon':
      return g.coordinates.forEach((p) => addPolygon(acc, p));
    case 'GeometryCollection':
      return g.geometries.forEach((c) => add(acc, c));
  }
}

export function centroidOf(g: Geometry): Position | null {
  const acc: Acc = { dim: 0, w: 0, x: 0, y: 0 };
  add(acc, g);
  if (acc.w === 0) return null;
  return [acc.x / acc.w, acc.y / acc.w];
}
