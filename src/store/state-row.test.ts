import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { geometry } from '../geometry/testing/arbitrary-geometry.js';
import type { Geometry } from '../geometry/types.js';
import { geometryColumns, type MemberMeasures } from './state-row.js';

/** Members without coordinates: a collection of only these has no bbox. */
const EMPTY: Geometry[] = [
  { type: 'Point', coordinates: [] as unknown as [number, number] },
  { type: 'LineString', coordinates: [] },
  { type: 'GeometryCollection', geometries: [] },
];

describe('geometryColumns', () => {
  it('gives a collection the same columns, to the bit, from its members measured once (property)', () => {
    // Collections drawn from one pool of members, as a relation's states share the unchanged ones.
    fc.assert(
      fc.property(
        fc.array(geometry, { maxLength: 6 }),
        fc.array(fc.array(fc.nat(9), { maxLength: 8 }), { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        (pool, picks, withMeasures) => {
          const members = [...EMPTY, ...pool];
          const memo = new WeakMap<Geometry, MemberMeasures>();
          for (const pick of picks) {
            const g: Geometry = { type: 'GeometryCollection', geometries: pick.map((i) => members[i % members.length]!) };
            assert.deepStrictEqual(geometryColumns(g, null, withMeasures, memo), geometryColumns(g, null, withMeasures));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('measures a route-like collection as the sum of its members', () => {
    const a: Geometry = {
      type: 'LineString',
      coordinates: [
        [1.5, 42.5],
        [1.51, 42.5],
      ],
    };
    const b: Geometry = {
      type: 'Polygon',
      coordinates: [
        [
          [1.5, 42.5],
          [1.6, 42.5],
          [1.6, 42.6],
          [1.5, 42.5],
        ],
      ],
    };
    const memo = new WeakMap<Geometry, MemberMeasures>();
    const both = geometryColumns({ type: 'GeometryCollection', geometries: [a, b] }, null, true, memo);
    const onlyA = geometryColumns(a, null, true);
    const onlyB = geometryColumns(b, null, true);
    assert.equal(both.length, onlyA.length + onlyB.length);
    assert.equal(both.area, onlyA.area + onlyB.area);
    assert.ok(both.area > 0 && both.length > 800 && both.length < 840); // 0.01° of longitude at 42.5° N: about 820 m
    assert.deepEqual([both.vertices, both.outers, both.inners, both.perimeter, both.squareness], [6, -1, -1, 0, 0]);
    assert.deepEqual(both.bbox, [1.5, 42.5, 1.6, 42.6]);
    // Only-empty members: no bbox, spatial key 0.
    const none = geometryColumns({ type: 'GeometryCollection', geometries: EMPTY }, null, true, memo);
    assert.deepEqual([none.bbox, none.spatialKey, none.vertices], [null, 0, 0]);
  });
});
