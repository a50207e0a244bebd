import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import polygonClipping from 'polygon-clipping';
import { bboxOf, clipToBBox, clipToPolygon } from './clip.js';
import { areaOf, lengthOf } from './measures.js';
import type { BBox, Geometry, Polygon, Position } from './types.js';
import { parseWkt } from './wkt.js';

function close(actual: number, expected: number, relative = 1e-9): void {
  assert.ok(Math.abs(actual - expected) <= relative * Math.abs(expected) + 1e-12, `got ${actual}, expected ${expected}`);
}

function bboxPolygon([minX, minY, maxX, maxY]: BBox): Polygon {
  return {
    type: 'Polygon',
    coordinates: [
      [
        [minX, minY],
        [maxX, minY],
        [maxX, maxY],
        [minX, maxY],
        [minX, minY],
      ],
    ],
  };
}

const wkt = parseWkt;

describe('bboxOf', () => {
  it('spans all coordinates of every type; null when empty', () => {
    assert.deepEqual(bboxOf(wkt('LINESTRING(1 2,-3 4,5 -6)')), [-3, -6, 5, 4]);
    assert.deepEqual(bboxOf(wkt('GEOMETRYCOLLECTION(POINT(1 1),POLYGON((2 2,3 2,3 3,2 2)))')), [1, 1, 3, 3]);
    assert.equal(bboxOf(wkt('GEOMETRYCOLLECTION EMPTY')), null);
    assert.equal(bboxOf(wkt('POINT EMPTY')), null);
  });
});

describe('clipToBBox', () => {
  const box: BBox = [0, 0, 1, 1];

  it('keeps points inside or on the boundary', () => {
    assert.deepEqual(clipToBBox(wkt('POINT(0.5 0.5)'), box), wkt('POINT(0.5 0.5)'));
    assert.deepEqual(clipToBBox(wkt('POINT(1 0.5)'), box), wkt('POINT(1 0.5)'));
    assert.equal(clipToBBox(wkt('POINT(2 0.5)'), box), null);
    assert.deepEqual(clipToBBox(wkt('MULTIPOINT(0.5 0.5,2 2,0.2 0.2)'), box), wkt('MULTIPOINT(0.5 0.5,0.2 0.2)'));
    assert.deepEqual(clipToBBox(wkt('MULTIPOINT(0.5 0.5,2 2)'), box), wkt('POINT(0.5 0.5)'));
  });

  it('returns a geometry inside the bbox unchanged (same object)', () => {
    const g = wkt('LINESTRING(0.1 0.1,0.9 0.9)');
    assert.equal(clipToBBox(g, box), g);
  });

  it('cuts a line into the part inside, with the exact length of that part', () => {
    const clipped = clipToBBox(wkt('LINESTRING(-1 0.5,2 0.5)'), box);
    assert.deepEqual(clipped, wkt('LINESTRING(0 0.5,1 0.5)'));
    close(lengthOf(clipped!), lengthOf(wkt('LINESTRING(0 0.5,1 0.5)')));
  });

  it('a line leaving and re-entering becomes a MultiLineString', () => {
    const clipped = clipToBBox(wkt('LINESTRING(0.5 0.5,1.5 0.5,1.5 0.8,0.5 0.8)'), box);
    assert.deepEqual(clipped, wkt('MULTILINESTRING((0.5 0.5,1 0.5),(1 0.8,0.5 0.8))'));
  });

  it('keeps the vertices inside a partly clipped line', () => {
    const clipped = clipToBBox(wkt('LINESTRING(-1 0.5,0.5 0.5,0.5 0.7,2 0.7)'), box);
    assert.deepEqual(clipped, wkt('LINESTRING(0 0.5,0.5 0.5,0.5 0.7,1 0.7)'));
  });

  it('a line touching the bbox in one point gives that point; along an edge, that edge', () => {
    assert.deepEqual(clipToBBox(wkt('LINESTRING(1 2,2 1)'), [0, 0, 1.5, 1.5]), wkt('POINT(1.5 1.5)'));
    assert.deepEqual(clipToBBox(wkt('LINESTRING(-1 1,2 1)'), box), wkt('LINESTRING(0 1,1 1)'));
    assert.equal(clipToBBox(wkt('LINESTRING(-1 2,2 2)'), box), null);
  });

  it('intersects polygons (polygon-clipping) with the right area', () => {
    const clipped = clipToBBox(wkt('POLYGON((-1 -1,0.5 -1,0.5 2,-1 2,-1 -1))'), box);
    close(areaOf(clipped!), areaOf(wkt('POLYGON((0 0,0.5 0,0.5 1,0 1,0 0))')), 1e-12);
  });

  it('a concave polygon can fall apart into a MultiPolygon', () => {
    // A U shape whose bottom lies below the box: two prongs remain.
    const u = wkt('POLYGON((0.1 -1,0.9 -1,0.9 0.9,0.7 0.9,0.7 -0.5,0.3 -0.5,0.3 0.9,0.1 0.9,0.1 -1))');
    const clipped = clipToBBox(u, box);
    assert.equal(clipped?.type, 'MultiPolygon');
    const expected = areaOf(wkt('MULTIPOLYGON(((0.1 0,0.3 0,0.3 0.9,0.1 0.9,0.1 0)),((0.7 0,0.9 0,0.9 0.9,0.7 0.9,0.7 0)))'));
    close(areaOf(clipped!), expected, 1e-9);
  });

  it('a polygon only touching the bbox gives the shared edge (as JTS does)', () => {
    // The edge comes out in the direction of the polygon's ring.
    assert.deepEqual(clipToBBox(wkt('POLYGON((1 0,2 0,2 1,1 1,1 0))'), box), wkt('LINESTRING(1 1,1 0)'));
    assert.deepEqual(clipToBBox(wkt('POLYGON((1 1,2 1,2 2,1 2,1 1))'), box), wkt('POINT(1 1)'));
  });

  it('clips collections member by member and drops empty members', () => {
    const clipped = clipToBBox(wkt('GEOMETRYCOLLECTION(POINT(5 5),LINESTRING(-1 0.5,2 0.5))'), box);
    assert.deepEqual(clipped, wkt('GEOMETRYCOLLECTION(LINESTRING(0 0.5,1 0.5))'));
    assert.equal(clipToBBox(wkt('GEOMETRYCOLLECTION(POINT(5 5))'), box), null);
  });

  it('an inverted bbox intersects nothing', () => {
    assert.equal(clipToBBox(wkt('POINT(0.5 0.5)'), [1, 1, 0, 0]), null);
  });
});

describe('clipToPolygon', () => {
  const squareWithHole = wkt('POLYGON((0 0,4 0,4 4,0 4,0 0),(1 1,3 1,3 3,1 3,1 1))') as Polygon;

  it('points: inside, on the boundary, in the hole', () => {
    assert.deepEqual(clipToPolygon(wkt('POINT(0.5 0.5)'), squareWithHole), wkt('POINT(0.5 0.5)'));
    assert.deepEqual(clipToPolygon(wkt('POINT(1 2)'), squareWithHole), wkt('POINT(1 2)'));
    assert.equal(clipToPolygon(wkt('POINT(2 2)'), squareWithHole), null);
  });

  it('a line across the hole is cut in two; lengths add up', () => {
    const clipped = clipToPolygon(wkt('LINESTRING(-1 2,5 2)'), squareWithHole);
    assert.deepEqual(clipped, wkt('MULTILINESTRING((0 2,1 2),(3 2,4 2))'));
    close(lengthOf(clipped!), lengthOf(wkt('LINESTRING(0 2,1 2)')) + lengthOf(wkt('LINESTRING(3 2,4 2)')));
  });

  it('a line along the boundary is kept', () => {
    assert.deepEqual(clipToPolygon(wkt('LINESTRING(-1 0,2 0)'), squareWithHole), wkt('LINESTRING(0 0,2 0)'));
  });

  it('polygons: the hole is cut out', () => {
    const clipped = clipToPolygon(wkt('POLYGON((-1 -1,5 -1,5 2,-1 2,-1 -1))'), squareWithHole);
    const expected = areaOf(wkt('POLYGON((0 0,4 0,4 2,3 2,3 1,1 1,1 2,0 2,0 0))'));
    close(areaOf(clipped!), expected, 1e-9);
  });

  it('a polygon inside the area (away from holes) is returned unchanged', () => {
    const area = wkt('POLYGON((0 0,4 0,4 4,0 4,0 0))') as Polygon;
    const g = wkt('POLYGON((1 1,2 1,2 2,1 1))');
    assert.equal(clipToPolygon(g, area), g);
  });

  it('multipolygon areas', () => {
    const area = wkt('MULTIPOLYGON(((0 0,1 0,1 1,0 1,0 0)),((2 0,3 0,3 1,2 1,2 0)))');
    if (area.type !== 'MultiPolygon') throw new Error('test setup');
    assert.deepEqual(clipToPolygon(wkt('LINESTRING(-1 0.5,4 0.5)'), area), wkt('MULTILINESTRING((0 0.5,1 0.5),(2 0.5,3 0.5))'));
    assert.deepEqual(clipToPolygon(wkt('POINT(2.5 0.5)'), area), wkt('POINT(2.5 0.5)'));
  });
});

describe('clipping properties', () => {
  // Small geometries in a 1° window, where the geodesic formulas are nearly additive.
  const coordinate = fc.double({ min: 0, max: 1, noNaN: true });
  const position = fc.tuple(coordinate, coordinate) as fc.Arbitrary<Position>;
  const line = fc.array(position, { minLength: 2, maxLength: 12 });
  const split = fc.double({ min: 0.15, max: 0.85, noNaN: true });

  it('a line cut into the left and right halves of a bbox has the length of the whole clip', () => {
    fc.assert(
      fc.property(line, split, (coordinates, x) => {
        const g: Geometry = { type: 'LineString', coordinates };
        const whole = clipToBBox(g, [0.1, 0.1, 0.9, 0.9]);
        const left = clipToBBox(g, [0.1, 0.1, x, 0.9]);
        const right = clipToBBox(g, [x, 0.1, 0.9, 0.9]);
        // Planar lengths must add up exactly (up to rounding): that checks the cutting itself.
        const planarSum = (left ? planarLength(left) : 0) + (right ? planarLength(right) : 0);
        const planarTotal = whole ? planarLength(whole) : 0;
        assert.ok(Math.abs(planarSum - planarTotal) <= 1e-12, `planar sum ${planarSum} whole ${planarTotal}`);
        // The reference's length formula (cosine of each segment's mid-latitude) is not exactly
        // additive when a segment is cut: agreement to 1e-5.
        const sum = (left ? lengthOf(left) : 0) + (right ? lengthOf(right) : 0);
        const total = whole ? lengthOf(whole) : 0;
        assert.ok(Math.abs(sum - total) <= 1e-5 * total + 1e-6, `sum ${sum} whole ${total}`);
      }),
      { numRuns: 300 },
    );
  });

  it('clipping to a bbox and to the same bbox as a polygon give the same length', () => {
    fc.assert(
      fc.property(line, (coordinates) => {
        const g: Geometry = { type: 'LineString', coordinates };
        const box: BBox = [0.2, 0.3, 0.7, 0.8];
        const a = clipToBBox(g, box);
        const b = clipToPolygon(g, bboxPolygon(box));
        const la = a ? lengthOf(a) : 0;
        const lb = b ? lengthOf(b) : 0;
        assert.ok(Math.abs(la - lb) <= 1e-6 * la + 1e-6, `bbox ${la} polygon ${lb}`);
      }),
      { numRuns: 300 },
    );
  });

  it('a convex polygon cut into two halves keeps its area', () => {
    const convex = fc
      .array(position, { minLength: 3, maxLength: 10 })
      .map(convexHull)
      .filter((ring) => ring.length >= 4 && planarArea({ type: 'Polygon', coordinates: [ring] }) > 1e-6); // no slivers
    fc.assert(
      fc.property(convex, split, (ring, x) => {
        const g: Geometry = { type: 'Polygon', coordinates: [ring] };
        const left = clipToBBox(g, [-1, -1, x, 2]);
        const right = clipToBBox(g, [x, -1, 2, 2]);
        // Planar areas must add up exactly (up to rounding): that checks the clipping itself.
        const planarSum = (left ? planarArea(left) : 0) + (right ? planarArea(right) : 0);
        assert.ok(Math.abs(planarSum - planarArea(g)) <= 1e-12, `planar sum ${planarSum} whole ${planarArea(g)}`);
        // The reference's area formula is a trapezoid rule in (lon, sin lat) and so not exactly
        // additive when a new vertex is put on a cut edge: for these 1° shapes it moves by up to
        // ~1e-5 (for building-sized shapes it is far below 1e-9).
        const sum = (left ? areaOf(left) : 0) + (right ? areaOf(right) : 0);
        assert.ok(Math.abs(sum - areaOf(g)) <= 1e-4 * areaOf(g) + 1e-6, `sum ${sum} whole ${areaOf(g)}`);
      }),
      { numRuns: 200 },
    );
  });
});

describe('clipToPolygon with a big area (cut to a window around each geometry first)', () => {
  // A star with 600 spikes and a hole: concave, so the window cut leaves spikes along its border.
  const star: Position[] = [];
  for (let i = 0; i < 1200; i++) {
    const angle = (2 * Math.PI * i) / 1200;
    const radius = i % 2 === 0 ? 1 : 0.8;
    star.push([radius * Math.cos(angle), radius * Math.sin(angle)]);
  }
  star.push(star[0]);
  const hole: Position[] = [
    [-0.2, -0.2],
    [0.2, -0.2],
    [0.2, 0.2],
    [-0.2, 0.2],
    [-0.2, -0.2],
  ];
  const area: Polygon = { type: 'Polygon', coordinates: [star, hole] };
  const centre = fc.tuple(fc.double({ min: -1.1, max: 1.1, noNaN: true }), fc.double({ min: -1.1, max: 1.1, noNaN: true }));
  const size = fc.double({ min: 0.001, max: 0.5, noNaN: true });

  it('gives the same areas as intersecting with the whole area (property)', () => {
    fc.assert(
      fc.property(centre, size, ([x, y], r) => {
        const square: Polygon = {
          type: 'Polygon',
          coordinates: [
            [
              [x - r, y - r],
              [x + r, y - r],
              [x + r, y + r],
              [x - r, y + r],
              [x - r, y - r],
            ],
          ],
        };
        const clipped = clipToPolygon(square, area);
        const direct = polygonClipping.intersection(square.coordinates, area.coordinates) as Position[][][];
        const expected = planarArea({ type: 'MultiPolygon', coordinates: direct });
        const actual = clipped ? planarArea(clipped) : 0;
        assert.ok(Math.abs(actual - expected) <= 1e-12 + 1e-9 * expected, `window ${actual}, whole ${expected}`);
      }),
      { numRuns: 100 },
    );
  });
});

/** Euclidean length in degrees of the linear parts. */
function planarLength(g: Geometry): number {
  const line = (l: Position[]): number => {
    let s = 0;
    for (let i = 1; i < l.length; i++) s += Math.hypot(l[i][0] - l[i - 1][0], l[i][1] - l[i - 1][1]);
    return s;
  };
  if (g.type === 'LineString') return line(g.coordinates);
  if (g.type === 'MultiLineString') return g.coordinates.reduce((sum, l) => sum + line(l), 0);
  return 0;
}

/** Shoelace area in square degrees: |shell| − Σ|holes| per polygon. */
function planarArea(g: Geometry): number {
  const ring = (r: Position[]): number => {
    let s = 0;
    for (let i = 1; i < r.length; i++) s += r[i - 1][0] * r[i][1] - r[i][0] * r[i - 1][1];
    return Math.abs(s) / 2;
  };
  const polygon = (rings: Position[][]): number => rings.reduce((sum, r, i) => sum + (i === 0 ? ring(r) : -ring(r)), 0);
  if (g.type === 'Polygon') return polygon(g.coordinates);
  if (g.type === 'MultiPolygon') return g.coordinates.reduce((sum, p) => sum + polygon(p), 0);
  return 0;
}

/** Monotone chain convex hull, closed. */
function convexHull(points: Position[]): Position[] {
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: Position, a: Position, b: Position): number => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Position[] = [];
  for (const p of sorted) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Position[] = [];
  for (const p of sorted.reverse()) {
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 0) upper.pop();
    upper.push(p);
  }
  const hull = lower.slice(0, -1).concat(upper.slice(0, -1));
  return hull.length >= 3 ? [...hull, hull[0]] : [];
}
