/**
 * Sutherland–Hodgman clipping of a ring to a rectangle. Used only to cut a big clip area down to
 * the neighbourhood of one geometry before the exact boolean operation: the result may run along
 * the rectangle's border in zero-width spikes, which cannot matter for a geometry lying strictly
 * inside the rectangle.
 */
import type { BBox, Position } from './types.js';

/** The part of the ring's area inside the bbox, as a closed ring; [] if nothing is left. */
export function ringWindow(ring: Position[], [minX, minY, maxX, maxY]: BBox): Position[] {
  let points = ring.length > 1 && sameEnds(ring) ? ring.slice(0, -1) : ring.slice();
  points = clipHalfPlane(
    points,
    (p) => p[0] >= minX,
    (a, b) => atX(a, b, minX),
  );
  points = clipHalfPlane(
    points,
    (p) => p[0] <= maxX,
    (a, b) => atX(a, b, maxX),
  );
  points = clipHalfPlane(
    points,
    (p) => p[1] >= minY,
    (a, b) => atY(a, b, minY),
  );
  points = clipHalfPlane(
    points,
    (p) => p[1] <= maxY,
    (a, b) => atY(a, b, maxY),
  );
  if (points.length < 3) return [];
  points.push(points[0]);
  return points;
}

function sameEnds(ring: Position[]): boolean {
  const a = ring[0];
  const b = ring[ring.length - 1];
  return a[0] === b[0] && a[1] === b[1];
}

function clipHalfPlane(points: Position[], inside: (p: Position) => boolean, cross: (a: Position, b: Position) => Position): Position[] {
  const out: Position[] = [];
  const n = points.length;
  for (let i = 0; i < n; i++) {
    const current = points[i];
    const previous = points[(i + n - 1) % n];
    const currentIn = inside(current);
    if (currentIn !== inside(previous)) out.push(cross(previous, current));
    if (currentIn) out.push(current);
  }
  return out;
}

function atX(a: Position, b: Position, x: number): Position {
  return [x, a[1] + ((x - a[0]) * (b[1] - a[1])) / (b[0] - a[0])];
}

function atY(a: Position, b: Position, y: number): Position {
  return [a[0] + ((y - a[1]) * (b[0] - a[0])) / (b[1] - a[1]), y];
}
