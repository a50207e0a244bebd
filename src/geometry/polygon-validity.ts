/**
 * Validity of a boundary polygon before it is used (the reference let JTS fail later and answered
 * 500 for most cases). Says what is wrong and where, so the user can fix the input:
 * rings with fewer than four points or not closed, rings without area, rings that cross or touch
 * themselves, rings of one polygon that cross each other, holes outside their shell or inside
 * another hole, and parts of a MultiPolygon that overlap.
 */
import Flatbush from 'flatbush';
import { Location, RingIndex } from './ring-index.js';
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

/**
 * A description of the first problem found, or undefined if the geometry is valid. Throws
 * PolygonTooComplex when its edges come near each other in more than `maxEdgePairs` pairs.
 */
export function findPolygonProblem(geometry: Polygon | MultiPolygon, maxEdgePairs = MAX_EDGE_PAIRS): string | undefined {
  const steps = polygonProblemSteps(geometry, maxEdgePairs);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** About this much work (edges, pairs, rings) is done between two yields of polygonProblemSteps. */
const STEP_WORK = 5_000;

/**
 * `findPolygonProblem` in steps: yields after about STEP_WORK units of work (a few milliseconds), so
 * that a caller on an event loop can let other work run between them (src/core/yielding.ts); returns
 * what findPolygonProblem returns. The kernel does no I/O: the caller decides when to go on.
 */
export function* polygonProblemSteps(geometry: Polygon | MultiPolygon, maxEdgePairs = MAX_EDGE_PAIRS): Generator<void, string | undefined, void> {
  const parts = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  const multi = geometry.type === 'MultiPolygon';
  if (parts.length === 0) return 'the geometry has no polygon';
  const cleaned: Position[][][] = [];
  let work = 0;
  for (let p = 0; p < parts.length; p++) {
    const rings: Position[][] = [];
    if (parts[p]!.length === 0) return `${where(multi, p, 0)} has no rings`;
    for (let r = 0; r < parts[p]!.length; r++) {
      const ring = parts[p]![r]!;
      work += ring.length;
      if (work >= STEP_WORK) {
        work = 0;
        yield;
      }
      const name = () => where(multi, p, r);
      if (ring.length < 4) return `${name()} has ${ring.length} point(s); a ring needs at least 4, the last repeating the first`;
      const first = ring[0]!;
      const last = ring[ring.length - 1]!;
      if (first[0] !== last[0] || first[1] !== last[1]) return `${name()} is not closed: its last point must repeat its first point`;
      const dedup = dropRepeatedPoints(ring);
      if (dedup.length < 4 || allOnOneLine(dedup)) return `${name()} has no area (its points are repeated or on one line)`;
      rings.push(dedup);
    }
    cleaned.push(rings);
  }
  return (yield* findCrossing(cleaned, multi, maxEdgePairs)) ?? (yield* findNestingProblem(cleaned, multi, maxEdgePairs));
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

/**
 * The most pairs of edges with meeting extents that one check compares. Ordinary polygons have about
 * one per edge (a 100,000-vertex circle 100,000); only long edges across much of the polygon (a
 * star, a comb of diagonal teeth) come near each other quadratically: a 100,000-vertex star took a
 * minute with a sweep over x. Such a polygon is refused (`PolygonTooComplex`) after about 0.2 s. The
 * pairs of rings one inside another count too (islands in holes nested 10,000 deep are 50 million).
 */
export const MAX_EDGE_PAIRS = 1_000_000;

/** A polygon whose edges, or rings, come near each other in more pairs than the check compares (MAX_EDGE_PAIRS). */
export class PolygonTooComplex extends RangeError {
  constructor(readonly limit: number) {
    super(`more than ${limit} pairs of edges or rings with meeting extents`);
  }
}

/**
 * A pair of edges that meet where they must not. First a sweep over x, the fastest for ordinary
 * polygons (an edge's x range meets a few others'); when it has compared more than a few pairs per
 * edge (a column of parts, long edges) it gives up, and the pairs come from an R-tree of the edges'
 * extents instead, in edge order (part, ring, edge): n edges cost about n log n however they lie
 * (the sweep alone took 13 s for a column of 10,000 squares).
 */
function* findCrossing(parts: Position[][][], multi: boolean, maxPairs: number): Generator<void, string | undefined, void> {
  const segments: Segment[] = [];
  for (let part = 0; part < parts.length; part++) {
    const rings = parts[part]!;
    for (let r = 0; r < rings.length; r++) {
      const ring = rings[r]!;
      const n = ring.length - 1;
      if (segments.length % STEP_WORK > (segments.length + n) % STEP_WORK) yield;
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
    }
  }
  yield;
  const swept = yield* sweepX(segments, multi);
  if (swept !== undefined) return swept.problem;
  const index = segmentIndex(segments);
  yield;
  let pairs = 0;
  let work = 0;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    const near = index.search(s.minX, s.minY, s.maxX, s.maxY, (j) => j > i).sort((a, b) => a - b);
    pairs += near.length;
    if (pairs > maxPairs) throw new PolygonTooComplex(maxPairs);
    work += near.length + 1;
    if (work >= STEP_WORK) {
      work = 0;
      yield;
    }
    for (const j of near) {
      const t = segments[j]!;
      const c = contact(s, t);
      if (c === undefined) continue;
      const problem = judge(s, t, c, multi);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}

/** The sweep compares at most this many pairs per edge (plus SWEEP_SLACK) before it gives up. */
const SWEEP_PAIRS_PER_EDGE = 4;
const SWEEP_SLACK = 1_000;

/**
 * A sweep over x: the edges in order of their left end, each compared with those whose x range
 * starts before it ends. `{ problem }` when it finished (undefined: none); undefined when it gave
 * up, having compared more than SWEEP_PAIRS_PER_EDGE pairs per edge.
 */
function* sweepX(segments: readonly Segment[], multi: boolean): Generator<void, { problem: string | undefined } | undefined, void> {
  const byX = segments.slice().sort((s, t) => s.minX - t.minX);
  const budget = SWEEP_PAIRS_PER_EDGE * byX.length + SWEEP_SLACK;
  let compared = 0;
  let work = 0;
  for (let i = 0; i < byX.length; i++) {
    const s = byX[i]!;
    for (let j = i + 1; j < byX.length && byX[j]!.minX <= s.maxX; j++) {
      if (++compared > budget) return undefined;
      const t = byX[j]!;
      if (t.maxY < s.minY || t.minY > s.maxY) continue;
      const c = contact(s, t);
      if (c === undefined) continue;
      const problem = judge(s, t, c, multi);
      if (problem !== undefined) return { problem };
    }
    if (++work >= STEP_WORK) {
      work = 0;
      yield;
    }
  }
  return { problem: undefined };
}

function segmentIndex(segments: readonly Segment[]): Flatbush {
  const index = new Flatbush(segments.length);
  for (const s of segments) index.add(s.minX, s.minY, s.maxX, s.maxY);
  index.finish();
  return index;
}

function judge(s: Segment, t: Segment, c: Contact, multi: boolean): string | undefined {
  const sameRing = s.part === t.part && s.ring === t.ring;
  if (sameRing) {
    const adjacent = Math.abs(s.index - t.index) === 1 || Math.abs(s.index - t.index) === s.ringSize - 1;
    if (adjacent && c.kind === 'touch') return undefined; // the shared vertex
    if (adjacent && s.ringSize === 2) return undefined;
  } else if (c.kind === 'touch') return undefined; // rings may touch in single points
  const at = `near (${Math.round(c.at[0] * 1e7) / 1e7}, ${Math.round(c.at[1] * 1e7) / 1e7})`;
  if (sameRing) {
    const what = c.kind === 'cross' ? 'crosses itself' : c.kind === 'overlap' ? 'runs back over itself' : 'touches itself';
    return `${where(multi, s.part, s.ring)} ${what} ${at}; the edges of a ring must not cross or touch each other`;
  }
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

/** Rings of more vertices than this are located against through a RingIndex (bands of edges), not edge by edge. */
const BANDED_RING_MIN = 64;
const banded = new WeakMap<Position[], RingIndex>();

/** `inRing`, through the ring's bands when it is long (a shell of 50,000 vertices with 10,000 holes). */
function locateIn(p: Position, ring: Position[]): boolean | undefined {
  if (ring.length <= BANDED_RING_MIN) return inRing(p, ring);
  let index = banded.get(ring);
  if (index === undefined) banded.set(ring, (index = new RingIndex(ring)));
  const where = index.locate(p);
  return where === Location.Boundary ? undefined : where === Location.Inside;
}

/** Where `ring` lies relative to `container`: judged by its first vertex not on the container's boundary. */
function ringInside(ring: Position[], container: Position[]): boolean | undefined {
  for (const p of ring) {
    const r = locateIn(p, container);
    if (r !== undefined) return r;
  }
  // Every vertex on the container's boundary: judge by a segment midpoint.
  for (let i = 0; i + 1 < ring.length; i++) {
    const m: Position = [(ring[i]![0] + ring[i + 1]![0]) / 2, (ring[i]![1] + ring[i + 1]![1]) / 2];
    const r = locateIn(m, container);
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
 * Visits the pairs (i, j), i ≠ j, where box i lies within box j, in index order, until `visit`
 * returns a problem. Only boxes whose extents meet are compared (an R-tree, as for the edges), so n
 * disjoint parts or holes cost n log n, not n², however they lie. Every visit counts against
 * `budget` (nested rings, each in all the others, make quadratically many).
 */
function* firstContained(
  boxes: readonly Box[],
  budget: { left: number; limit: number },
  visit: (inner: number, outer: number) => string | undefined,
): Generator<void, string | undefined, void> {
  if (boxes.length < 2) return undefined;
  const index = new Flatbush(boxes.length);
  for (const b of boxes) index.add(b[0], b[1], b[2], b[3]);
  index.finish();
  let work = 0;
  for (let i = 0; i < boxes.length; i++) {
    const bi = boxes[i]!;
    const outers = index.search(bi[0], bi[1], bi[2], bi[3], (j) => j !== i && boxWithin(bi, boxes[j]!)).sort((x, y) => x - y);
    work += outers.length + 1;
    for (const j of outers) {
      if (--budget.left < 0) throw new PolygonTooComplex(budget.limit);
      const problem = visit(i, j);
      if (problem !== undefined) return problem;
    }
    if (work >= STEP_RINGS) {
      work = 0;
      yield;
    }
  }
  return undefined;
}

/** Rings located against another between two yields of findNestingProblem. */
const STEP_RINGS = 1_000;

function* findNestingProblem(parts: Position[][][], multi: boolean, maxPairs: number): Generator<void, string | undefined, void> {
  const boxes = parts.map((rings) => rings.map(boxOf));
  yield;
  const budget = { left: maxPairs, limit: maxPairs };
  let located = 0;
  for (let p = 0; p < parts.length; p++) {
    const [shell, ...holes] = parts[p]!;
    const holeBoxes = boxes[p]!.slice(1);
    for (let h = 0; h < holes.length; h++) {
      if (++located % STEP_RINGS === 0) yield;
      if (!boxWithin(holeBoxes[h]!, boxes[p]![0]!) || ringInside(holes[h]!, shell!) === false) {
        return `${where(multi, p, h + 1)} lies outside the outer ring; an inner ring (hole) must lie inside its outer ring`;
      }
    }
    const nested = yield* firstContained(holeBoxes, budget, (h, k) =>
      ringInside(holes[h]!, holes[k]!) === true
        ? `${where(multi, p, h + 1)} lies inside ${where(multi, p, k + 1)}; holes must not be nested (give an island as a separate polygon of a MultiPolygon)`
        : undefined,
    );
    if (nested !== undefined) return nested;
  }
  return yield* firstContained(
    boxes.map((b) => b[0]!),
    budget,
    (p, q) => {
      const [shell, ...holes] = parts[q]!;
      const inner = parts[p]![0]!;
      if (ringInside(inner, shell!) !== true) return undefined;
      // In one of q's holes (an island), or overlapping q.
      const innerBox = boxes[p]![0]!;
      budget.left -= holes.length;
      const inHole = holes.some((hole, h) => boxWithin(innerBox, boxes[q]![h + 1]!) && ringInside(inner, hole) === true);
      return inHole ? undefined : `polygon ${p + 1} lies inside polygon ${q + 1} of the MultiPolygon; its polygons must not overlap`;
    },
  );
}
