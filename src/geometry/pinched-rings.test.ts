import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { splitPinchedRings } from './pinched-rings.js';
import type { NodeLine } from './ring-building.js';
import type { Position } from './types.js';

function ring(positions: Record<number, Position>, ...ids: number[]): NodeLine {
  return { ids, coords: ids.map((id) => positions[id]) };
}

describe('splitPinchedRings (reference)', () => {
  it('splits a figure-8 into two rings of the same role (documented example)', () => {
    //  A--B
    //  |  |
    //  G--C--D
    //     |  |
    //     F--E
    const P: Record<number, Position> = { 1: [0, 2], 2: [1, 2], 3: [1, 1], 4: [2, 1], 5: [2, 0], 6: [1, 0], 7: [0, 1] };
    const { kept, flipped } = splitPinchedRings([ring(P, 1, 2, 3, 4, 5, 6, 3, 7, 1)]);
    assert.deepEqual(
      kept.map((r) => r.ids),
      [
        [3, 4, 5, 6, 3],
        [1, 2, 3, 7, 1],
      ],
    );
    assert.deepEqual(flipped, []);
  });

  it('a loop inside the rest of the ring flips role (a hole of an outer ring)', () => {
    // Outer square 0..4 with an inner square 1..3 reached through node 5 on the outer edge.
    const P: Record<number, Position> = {
      1: [0, 0],
      2: [4, 0],
      3: [4, 4],
      4: [0, 4],
      5: [2, 0],
      6: [2, 1],
      7: [3, 1],
      8: [3, 3],
      9: [1, 3],
      10: [1, 1],
    };
    const { kept, flipped } = splitPinchedRings([ring(P, 1, 5, 6, 10, 9, 8, 7, 6, 5, 2, 3, 4, 1)]);
    assert.deepEqual(
      flipped.map((r) => r.ids),
      [[6, 10, 9, 8, 7, 6]],
    );
    // The spike 5-6-5 becomes a 3-node piece (dropped later); the square stays.
    assert.deepEqual(
      kept.map((r) => r.ids),
      [
        [5, 6, 5],
        [1, 5, 2, 3, 4, 1],
      ],
    );
  });

  it('leaves unpinched rings in place', () => {
    const P: Record<number, Position> = { 1: [0, 0], 2: [1, 0], 3: [1, 1] };
    const input = [ring(P, 1, 2, 3, 1)];
    assert.deepEqual(splitPinchedRings(input), { kept: input, flipped: [] });
  });
});
