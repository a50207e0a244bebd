import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { NodeLine } from './ring-building.js';
import { mergeTouchingRings } from './touching-rings.js';

const A = 1,
  B = 2,
  C = 3,
  D = 4,
  E = 5,
  F = 6,
  X = 7,
  Y = 8;

function ring(...nodeIds: number[]): NodeLine {
  return { ids: nodeIds, coords: nodeIds.map((id) => [id, -id]) };
}

describe('mergeTouchingRings (reference)', () => {
  it('merges the documented example into one ring without the shared segments', () => {
    // r1 = (A,B,C,D,E,F,A), r2 = (X,Y,B,C,D,E,X) share B-C, C-D, D-E.
    const merged = mergeTouchingRings([ring(A, B, C, D, E, F, A), ring(X, Y, B, C, D, E, X)]);
    assert.equal(merged.length, 1);
    assert.deepEqual(merged[0].ids, [E, F, A, B, Y, X, E]);
    assert.deepEqual(
      merged[0].coords,
      merged[0].ids.map((id) => [id, -id]),
    );
  });

  it('leaves rings without shared segments alone (sharing a node is not enough)', () => {
    const rings = [ring(A, B, C, A), ring(C, D, E, C)];
    assert.deepEqual(
      mergeTouchingRings(rings).map((r) => r.ids),
      [
        [A, B, C, A],
        [C, D, E, C],
      ],
    );
  });

  it('does not modify its input', () => {
    const rings = [ring(A, B, C, D, E, F, A), ring(X, Y, B, C, D, E, X)];
    const copy = JSON.stringify(rings);
    mergeTouchingRings(rings);
    assert.equal(JSON.stringify(rings), copy);
  });
});
