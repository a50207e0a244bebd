/**
 * Validity of a boundary polygon before it is used (the reference let JTS fail later and answered
 * 500 for most cases). Says what is wrong and where, so the user can fix the input:
 * rings with fewer than four points or not closed, rings without area, rings that cross or touch
 * themselves, rings of one polygon that cross each other, holes outside their shell or inside
 * another hole, and parts of a MultiPolygon that overlap.
 */
import type { MultiPolygon, Polygon, Position } from './types.js';

interface Segment {
  a: Position;
  b: Position;
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
  /** Part (polygon) index, ring index within the part, segment index within the ring. */
  part: number;
  ring: number;
  index: number;
  /** Number of segments of its ring. */
  ringSize: number;
}

/** A description of the first problem found, or undefined if the geometry is valid. */
export function findPolygonProblem(geometry: Polygon | MultiPolygon): string | undefined {
  const parts = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  const multi = geometry.type === 'MultiPolygon';
  if (parts.length === 0) return 'the geometry has no polygon';
  const cleaned: Position[][][] = [];
  for (let p = 0; p < parts.length; p++) {
    const rings: Position[][] = [];
    if (parts[p]!.length === 0) return `${where(multi, p, 0)} has no rings`;
    for (let r = 0; r < parts[p]!.length; r++) {
      const ring = parts[p]![r]!;
      const name = where(multi, p, r);
      if (ring.length < 4) return `${name} has ${ring.length} point(s); a ring needs at least 4, the last repeating the first`;
      const first = ring[0]!;
      const last = ring[ring.length - 1]!;
      if (first[0] !== last[0] || first[1] !== last[1]) return `${name} is not closed: its last point must repeat its first point`;
      const dedup = dropRepeatedPoints(ring);
      if (dedup.length < 4 || allOnOneLine(dedup)) return `${name} has no area (its points are repeated or on one line)`;
      rings.push(dedup);
    }
    cleaned.push(rings);
  }
  return findCrossing(cleaned, multi) ?? findNestingProblem(cleaned, multi);
}

function where(multi: boolean, part: number, ring: number): string {
  const r = ring === 0 ? 'the outer ring' : `inner ring ${ring}`;
  return multi ? `${r} of polygon ${part + 1}` : r;
}

function dropRepeatedPoints(ring: Position[]): Position[] {
  const out: Position[] = [ring[0]!];
  for (let i = 1; i < ring.length; i++) {
    const p = ring[i]!;
    const q = out[out.length - 1]!;
    if (p[0] !== q[0] || p[1] !== q[1]) out.push(p);
  }
  return out;
}

function allOnOneLine(ring: Position[]): boolean {
  const a = ring[0]!;
  const b = ring[1]!;
  return ring.every((p) => cross(a, b, p) === 0);
}

function cross(o: Position, a: Position, b: Position): number {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

function onSegment(p: Position, s: Segment): boolean {
  return p[0] >= s.minX && p[0] <= s.maxX && p[1] >= s.minY && p[1] <= s.maxY && cross(s.a, s.b, p) === 0;
}

function samePoint(p: Position, q: Position): boolean {
  return p[0] === q[0] && p[1] === q[1];
}

type Contact = { kind: 'cross'; at: Position } | { kind: 'touch'; at: Position } | { kind: 'overlap'; at: Position };

/** How two segments meet, if at all. */
function contact(s: Segment, t: Segment): Contact | undefined {
  const d1 = cross(s.a, s.b, t.a);
  const d2 = cross(s.a, s.b, t.b);
  const d3 = cross(t.a, t.b, s.a);
  const d4 = cross(t.a, t.b, s.b);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) {
    const k = d3 / (d3 - d4);
    return { kind: 'cross', at: [s.a[0] + k * (s.b[0] - s.a[0]), s.a[1] + k * (s.b[1] - s.a[1])] };
  }
  if (d1 === 0 && d2 === 0) {
    // Collinear: they overlap if they share more than one point.
    const onT = [s.a, s.b].filter((p) => onSegment(p, t));
    const onS = [t.a, t.b].filter((p) => onSegment(p, s));
    const points = [...onT, ...onS];
    if (points.length === 0) return undefined;
    const distinct = points.filter((p, i) => points.findIndex((q) => samePoint(p, q)) === i);
    return distinct.length > 1 ? { kind: 'overlap', at: distinct[0]! } : { kind: 'touch', at: distinct[0]! };
  }
  for (const p of [t.a, t.b]) if (onSegment(p, s)) return { kind: 'touch', at: p };
  for (const p of [s.a, s.b]) if (onSegment(p, t)) return { kind: 'touch', at: p };
  return undefined;
}

function findCrossing(parts: Position[][][], multi: boolean): string | undefined {
  const segments: Segment[] = [];
  parts.forEach((rings, part) =>
    rings.forEach((ring, r) => {
      const n = ring.length - 1;
      for (let i = 0; i < n; i++) {
        const a = ring[i]!;
        const b = ring[i + 1]!;
        segments.push({
          a,
          b,
          minX: Math.min(a[0], b[0]),
          maxX: Math.max(a[0], b[0]),
          minY: Math.min(a[1], b[1]),
          maxY: Math.max(a[1], b[1]),
          part,
          ring: r,
          index: i,
          ringSize: n,
        });
      }
    }),
  );
  segments.sort((s, t) => s.minX - t.minX);
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    for (let j = i + 1; j < segments.length && segments[j]!.minX <= s.maxX; j++) {
      const t = segments[j]!;
      if (t.maxY < s.minY || t.minY > s.maxY) continue;
      const c = contact(s, t);
      if (c === undefined) continue;
      const problem = judge(s, t, c, multi);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}

function judge(s: Segment, t: Segment, c: Contact, multi: boolean): string | undefined {
  const at = `near (${Math.round(c.at[0] * 1e7) / 1e7}, ${Math.round(c.at[1] * 1e7) / 1e7})`;
  if (s.part === t.part && s.ring === t.ring) {
    const adjacent = Math.abs(s.index - t.index) === 1 || Math.abs(s.index - t.index) === s.ringSize - 1;
    if (adjacent && c.kind === 'touch') return undefined; // the shared vertex
    if (adjacent && s.ringSize === 2) return undefined;
    const what = c.kind === 'cross' ? 'crosses itself' : c.kind === 'overlap' ? 'runs back over itself' : 'touches itself';
    return `${where(multi, s.part, s.ring)} ${what} ${at}; the edges of a ring must not cross or touch each other`;
  }
  if (c.kind === 'touch') return undefined; // rings may touch in single points
  if (s.part === t.part) {
    const [a, b] = s.ring < t.ring ? [s, t] : [t, s];
    const what = c.kind === 'cross' ? 'crosses' : 'shares an edge with';
    return `${where(multi, a.part, a.ring)} ${what} ${where(multi, b.part, b.ring)} ${at}; the rings of a polygon must not cross`;
  }
  const [a, b] = s.part < t.part ? [s, t] : [t, s];
  return `polygon ${a.part + 1} and polygon ${b.part + 1} of the MultiPolygon overlap ${at}; its polygons may only touch in single points`;
}

/** Even-odd point in ring; undefined when the point lies on the ring. */
function inRing(p: Position, ring: Position[]): boolean | undefined {
  let inside = false;
  for (let i = 0, j = ring.length - 2; i < ring.length - 1; j = i++) {
    const a = ring[i]!;
    const b = ring[j]!;
    if (cross(a, b, p) === 0 && p[0] >= Math.min(a[0], b[0]) && p[0] <= Math.max(a[0], b[0]) && p[1] >= Math.min(a[1], b[1]) && p[1] <= Math.max(a[1], b[1])) {
      return undefined;
    }
    if (a[1] > p[1] !== b[1] > p[1] && p[0] < ((b[0] - a[0]) * (p[1] - a[1])) / (b[1] - a[1]) + a[0]) inside = !inside;
  }
  return inside;
}

/** Where `ring` lies relative to `container`: judged by its first vertex not on the container's boundary. */
function ringInside(ring: Position[], container: Position[]): boolean | undefined {
  for (const p of ring) {
    const r = inRing(p, container);
    if (r !== undefined) return r;
  }
  // Every vertex on the container's boundary: judge by a segment midpoint.
  for (let i = 0; i + 1 < ring.length; i++) {
    const m: Position = [(ring[i]![0] + ring[i + 1]![0]) / 2, (ring[i]![1] + ring[i + 1]![1]) / 2];
    const r = inRing(m, container);
    if (r !== undefined) return r;
  }
  return undefined;
}

type Box = [number, number, number, number];

function boxOf(ring: Position[]): Box {
  const b: Box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of ring) {
    if (x < b[0]) b[0] = x;
    if (y < b[1]) b[1] = y;
    if (x > b[2]) b[2] = x;
    if (y > b[3]) b[3] = y;
  }
  return b;
}

function boxWithin(inner: Box, outer: Box): boolean {
  return inner[0] >= outer[0] && inner[1] >= outer[1] && inner[2] <= outer[2] && inner[3] <= outer[3];
}

/**
 * The pairs [i, j] (i ≠ j) where box i lies within box j, by a sweep over x: only boxes whose x
 * ranges overlap are compared, so n disjoint parts or holes cost n log n, not n² (a 10,000-part
 * MultiPolygon is checked in milliseconds).
 */
function containedPairs(boxes: Box[]): [number, number][] {
  const order = boxes.map((_, i) => i).sort((a, b) => boxes[a]![0] - boxes[b]![0]);
  const out: [number, number][] = [];
  let active: number[] = [];
  for (const i of order) {
    const bi = boxes[i]!;
    active = active.filter((j) => boxes[j]![2] >= bi[0]);
    for (const j of active) {
      if (boxWithin(bi, boxes[j]!)) out.push([i, j]);
      if (boxWithin(boxes[j]!, bi)) out.push([j, i]);
    }
    active.push(i);
  }
  // The first problem in index order, whatever the sweep's order.
  return out.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

function findNestingProblem(parts: Position[][][], multi: boolean): string | undefined {
  const boxes = parts.map((rings) => rings.map(boxOf));
  for (let p = 0; p < parts.length; p++) {
    const [shell, ...holes] = parts[p]!;
    const holeBoxes = boxes[p]!.slice(1);
    for (let h = 0; h < holes.length; h++) {
      if (!boxWithin(holeBoxes[h]!, boxes[p]![0]!) || ringInside(holes[h]!, shell!) === false) {
        return `${where(multi, p, h + 1)} lies outside the outer ring; an inner ring (hole) must lie inside its outer ring`;
      }
    }
    for (const [h, k] of containedPairs(holeBoxes)) {
      if (ringInside(holes[h]!, holes[k]!) === true) {
        return `${where(multi, p, h + 1)} lies inside ${where(multi, p, k + 1)}; holes must not be nested (give an island as a separate polygon of a MultiPolygon)`;
      }
    }
  }
  for (const [p, q] of containedPairs(boxes.map((b) => b[0]!))) {
    const [shell, ...holes] = parts[q]!;
    const inner = parts[p]![0]!;
    if (ringInside(inner, shell!) === true && !holes.some((h) => ringInside(inner, h) === true)) {
      return `polygon ${p + 1} lies inside polygon ${q + 1} of the MultiPolygon; its polygons must not overlap`;
    }
  }
  return undefined;
}
