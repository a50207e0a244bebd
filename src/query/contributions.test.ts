/**
 * `sameGeometry` (contributions.ts) compares structurally; the oracle it replaced compared the
 * JSON texts. Over random geometries, and over pairs that differ in one number, one ring or the
 * type, both agree.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Geometry } from '../geometry/types.js';
import { sameGeometry } from './contributions.js';

const coordinate = fc.oneof(fc.constantFrom(0, -0, 1.5, Number.NaN), fc.double({ min: -180, max: 180, noNaN: true }));
const position = fc.tuple(coordinate, coordinate);
const line = fc.array(position, { minLength: 0, maxLength: 4 });
const polygon = fc.array(line, { minLength: 0, maxLength: 3 });
const simple: fc.Arbitrary<Geometry> = fc.oneof(
  position.map((coordinates) => ({ type: 'Point', coordinates }) as Geometry),
  line.map((coordinates) => ({ type: 'LineString', coordinates }) as Geometry),
  line.map((coordinates) => ({ type: 'MultiPoint', coordinates }) as Geometry),
  polygon.map((coordinates) => ({ type: 'Polygon', coordinates }) as Geometry),
  polygon.map((coordinates) => ({ type: 'MultiLineString', coordinates }) as Geometry),
  fc.array(polygon, { maxLength: 2 }).map((coordinates) => ({ type: 'MultiPolygon', coordinates }) as Geometry),
);
const geometry: fc.Arbitrary<Geometry> = fc.oneof(
  { weight: 4, arbitrary: simple },
  { weight: 1, arbitrary: fc.array(simple, { maxLength: 3 }).map((geometries) => ({ type: 'GeometryCollection', geometries }) as Geometry) },
);
const byJson = (a: Geometry | null, b: Geometry | null) => (a === null || b === null ? a === b : JSON.stringify(a) === JSON.stringify(b));

test('sameGeometry agrees with comparing JSON texts: random pairs, a geometry and its copy, and a copy with one number changed', () => {
  fc.assert(
    fc.property(geometry, geometry, fc.nat(), (a, b, k) => {
      assert.equal(sameGeometry(a, b), byJson(a, b));
      const copy = structuredClone(a);
      assert.equal(sameGeometry(a, copy), byJson(a, copy));
      // Change the k-th number of the copy (when it has numbers).
      let seen = 0;
      const bump = (x: unknown): unknown => (typeof x === 'number' ? (seen++ === k % Math.max(1, count(a)) ? x + 1 : x) : Array.isArray(x) ? x.map(bump) : x);
      const changed = mapCoordinates(a, bump);
      assert.equal(sameGeometry(a, changed), byJson(a, changed));
    }),
    { numRuns: 500 },
  );
  assert.equal(sameGeometry(null, null), true);
  assert.equal(sameGeometry(null, { type: 'Point', coordinates: [0, 0] }), false);
});

function mapCoordinates(g: Geometry, f: (x: unknown) => unknown): Geometry {
  return g.type === 'GeometryCollection'
    ? { type: 'GeometryCollection', geometries: g.geometries.map((h) => mapCoordinates(h, f)) }
    : ({ type: g.type, coordinates: f(g.coordinates) } as Geometry);
}

function count(g: Geometry): number {
  const n = (x: unknown): number => (typeof x === 'number' ? 1 : Array.isArray(x) ? x.reduce((s: number, y) => s + n(y), 0) : 0);
  return g.type === 'GeometryCollection' ? g.geometries.reduce((s, h) => s + count(h), 0) : n(g.coordinates);
}
