import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { encodeWkb } from './wkb.js';
import { someWkbVertex } from './wkb-vertices.js';
import type { Geometry, Position } from './types.js';

function vertices(g: Geometry): Position[] {
  switch (g.type) {
    case 'Point':
      return [g.coordinates];
    case 'MultiPoint':
    case 'LineString':
      return g.coordinates;
    case 'MultiLineString':
    case 'Polygon':
      return g.coordinates.flat();
    case 'MultiPolygon':
      return g.coordinates.flat(2);
    case 'GeometryCollection':
      return g.geometries.flatMap(vertices);
  }
}

const position = fc.tuple(fc.double({ min: -180, max: 180, noNaN: true }), fc.double({ min: -90, max: 90, noNaN: true })) as fc.Arbitrary<Position>;
const line = fc.array(position, { minLength: 2, maxLength: 6 });
const simple: fc.Arbitrary<Geometry> = fc.oneof(
  position.map((p) => ({ type: 'Point', coordinates: p }) as Geometry),
  line.map((c) => ({ type: 'LineString', coordinates: c }) as Geometry),
  fc.array(line, { minLength: 1, maxLength: 3 }).map((c) => ({ type: 'Polygon', coordinates: c }) as Geometry),
  fc.array(line, { minLength: 1, maxLength: 3 }).map((c) => ({ type: 'MultiLineString', coordinates: c }) as Geometry),
  fc.array(fc.array(line, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 2 }).map((c) => ({ type: 'MultiPolygon', coordinates: c }) as Geometry),
);
const geometry: fc.Arbitrary<Geometry> = fc.oneof(
  simple,
  fc.array(simple, { maxLength: 3 }).map((gs) => ({ type: 'GeometryCollection', geometries: gs }) as Geometry),
);

test('someWkbVertex visits exactly the vertices decodeWkb would produce, in order', () => {
  fc.assert(
    fc.property(geometry, (g) => {
      const seen: Position[] = [];
      assert.equal(
        someWkbVertex(encodeWkb(g), (x, y) => (seen.push([x, y]), false)),
        false,
      );
      assert.deepEqual(seen, vertices(g));
    }),
  );
});

test('someWkbVertex stops at the first vertex passing the test', () => {
  const g: Geometry = {
    type: 'LineString',
    coordinates: [
      [0, 0],
      [1, 1],
      [2, 2],
    ],
  };
  let visited = 0;
  assert.equal(
    someWkbVertex(encodeWkb(g), (x) => (visited++, x === 1)),
    true,
  );
  assert.equal(visited, 2);
});

test('someWkbVertex rejects truncated WKB', () => {
  const bytes = encodeWkb({
    type: 'LineString',
    coordinates: [
      [0, 0],
      [1, 1],
    ],
  });
  assert.throws(() => someWkbVertex(bytes.subarray(0, bytes.length - 3), () => false), /truncated/);
});
