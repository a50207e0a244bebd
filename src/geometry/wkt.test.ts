import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { geometry } from './testing/arbitrary-geometry.js';
import type { Geometry } from './types.js';
import { parseWkt, plainNumber, toWkt } from './wkt.js';

describe('parseWkt', () => {
  it('reads all seven types, case-insensitively and with free spacing', () => {
    assert.deepEqual(parseWkt('POINT(1 2)'), { type: 'Point', coordinates: [1, 2] });
    assert.deepEqual(parseWkt(' linestring ( 1 2 , 3.5 -4e-1 ) '), {
      type: 'LineString',
      coordinates: [
        [1, 2],
        [3.5, -0.4],
      ],
    });
    assert.deepEqual(parseWkt('POLYGON((0 0,1 0,1 1,0 0),(0.1 0.1,0.2 0.1,0.2 0.2,0.1 0.1))').type, 'Polygon');
    assert.deepEqual(parseWkt('MULTIPOINT((1 2),(3 4))'), {
      type: 'MultiPoint',
      coordinates: [
        [1, 2],
        [3, 4],
      ],
    });
    assert.deepEqual(parseWkt('MULTIPOINT(1 2, 3 4)'), {
      type: 'MultiPoint',
      coordinates: [
        [1, 2],
        [3, 4],
      ],
    });
    assert.deepEqual(parseWkt('MULTILINESTRING((1 2,3 4),(5 6,7 8))').type, 'MultiLineString');
    assert.deepEqual(parseWkt('MULTIPOLYGON(((7.01 1.01,7.01 1.04,7.04 1.04,7.04 1.01,7.01 1.01)))'), {
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [7.01, 1.01],
            [7.01, 1.04],
            [7.04, 1.04],
            [7.04, 1.01],
            [7.01, 1.01],
          ],
        ],
      ],
    });
    assert.deepEqual(parseWkt('GEOMETRYCOLLECTION(POINT(1 2),LINESTRING(0 0,1 1))'), {
      type: 'GeometryCollection',
      geometries: [
        { type: 'Point', coordinates: [1, 2] },
        {
          type: 'LineString',
          coordinates: [
            [0, 0],
            [1, 1],
          ],
        },
      ],
    });
  });

  it('reads EMPTY and skips an SRID prefix', () => {
    assert.deepEqual(parseWkt('GEOMETRYCOLLECTION EMPTY'), { type: 'GeometryCollection', geometries: [] });
    assert.deepEqual(parseWkt('LINESTRING EMPTY'), { type: 'LineString', coordinates: [] });
    assert.deepEqual(parseWkt('SRID=4326;POINT(1 2)'), { type: 'Point', coordinates: [1, 2] });
    const empty = parseWkt('POINT EMPTY');
    assert.ok(empty.type === 'Point' && Number.isNaN(empty.coordinates[0]));
  });

  it('names the position of the problem', () => {
    assert.throws(() => parseWkt('POINT(1)'), /WKT: expected a number at position 7/);
    assert.throws(() => parseWkt('POLYGON((0 0,1 0,1 1,0 0)'), /expected "\)" at position 25 \(found end of input\)/);
    assert.throws(() => parseWkt('CIRCLE(1 2)'), /unknown geometry type "CIRCLE" at position 0/);
    assert.throws(() => parseWkt('POINT Z (1 2 3)'), /Z coordinates are not supported/);
    assert.throws(() => parseWkt('POINT(1 2 3)'), /only 2D/);
    assert.throws(() => parseWkt('POINT(1 2) x'), /unexpected "x" after the geometry at position 11/);
    assert.throws(() => parseWkt(''), /expected a geometry type at position 0/);
  });
});

describe('toWkt', () => {
  it('writes the shortest round-tripping numbers, without exponents', () => {
    assert.equal(toWkt({ type: 'Point', coordinates: [73200000 * 1e-7, 1e-7] }), 'POINT(7.319999999999999 0.0000001)');
    assert.equal(plainNumber(-1.5e-10), '-0.00000000015');
    assert.equal(plainNumber(1e21), '1000000000000000000000');
    assert.equal(plainNumber(1.2345e22), '12345000000000000000000');
    assert.equal(plainNumber(-0), '0');
  });

  it('writes EMPTY forms', () => {
    assert.equal(toWkt({ type: 'GeometryCollection', geometries: [] }), 'GEOMETRYCOLLECTION EMPTY');
    assert.equal(toWkt({ type: 'Polygon', coordinates: [] }), 'POLYGON EMPTY');
  });

  it('round-trips through parseWkt (property)', () => {
    fc.assert(
      fc.property(geometry, (g: Geometry) => {
        assert.deepEqual(parseWkt(toWkt(g)), normalizeNegativeZero(g));
      }),
      { numRuns: 500 },
    );
  });
});

/** WKT has no negative zero: "-0" and "0" both read as +0 after plain formatting of -0. */
function normalizeNegativeZero(g: Geometry): Geometry {
  return JSON.parse(JSON.stringify(g)) as Geometry;
}
