import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { joinLinesIntoRings, type NodeLine } from './ring-building.js';

/** A line of node ids whose coordinates are [id, 0] (enough to follow where nodes go). */
function ids(...nodeIds: number[]): NodeLine {
  return { ids: nodeIds, coords: nodeIds.map((id) => [id, 0]) };
}

describe('joinLinesIntoRings (reference buildRings)', () => {
  it('keeps closed lines as they are, in order', () => {
    const { rings, discardedLines } = joinLinesIntoRings([ids(1, 2, 3, 1), ids(4, 5, 6, 4)]);
    assert.deepEqual(
      rings.map((r) => r.ids),
      [
        [1, 2, 3, 1],
        [4, 5, 6, 4],
      ],
    );
    assert.equal(discardedLines, 0);
  });

  it('joins in the reference case order and keeps coordinates parallel to ids', () => {
    // 1-2 + 2-3 (append) + 4-1 (prepend) + 3-4 in a second pass (append): 4,1,2,3,4.
    const { rings } = joinLinesIntoRings([ids(1, 2), ids(3, 4), ids(2, 3), ids(4, 1)]);
    assert.deepEqual(rings[0].ids, [4, 1, 2, 3, 4]);
    assert.deepEqual(
      rings[0].coords.map((c) => c[0]),
      [4, 1, 2, 3, 4],
    );
  });

  it('reverses lines matched end to end or start to start', () => {
    assert.deepEqual(joinLinesIntoRings([ids(1, 2, 3), ids(1, 4, 3)]).rings[0].ids, [1, 2, 3, 4, 1]);
    assert.deepEqual(joinLinesIntoRings([ids(1, 2, 3), ids(1, 4, 5), ids(3, 5)]).rings[0].ids, [5, 4, 1, 2, 3, 5]);
  });

  it('takes the first matching line in member order, even if that leaves the ring open', () => {
    // From 1-2, both 2-3 and 2-5 could follow; the reference greedily takes 2-5 (listed first),
    // then attaches everything else to the same open line, which is discarded as a whole.
    const greedy = joinLinesIntoRings([ids(1, 2), ids(2, 5), ids(2, 3), ids(3, 1), ids(5, 6)]);
    assert.deepEqual(greedy, { rings: [], discardedLines: 5 });
    // Listed the other way round, the ring 1-2-3-1 closes before 2-5 is looked at.
    const lucky = joinLinesIntoRings([ids(1, 2), ids(2, 3), ids(2, 5), ids(3, 1), ids(5, 6)]);
    assert.deepEqual(
      lucky.rings.map((r) => r.ids),
      [[1, 2, 3, 1]],
    );
    assert.equal(lucky.discardedLines, 2);
  });

  it('discards open lines with everything joined to them; skips empty lines', () => {
    const { rings, discardedLines } = joinLinesIntoRings([ids(), ids(1, 2), ids(2, 3), ids(7, 8, 9, 7)]);
    assert.deepEqual(
      rings.map((r) => r.ids),
      [[7, 8, 9, 7]],
    );
    assert.equal(discardedLines, 2);
  });

  it('does not modify the input lines', () => {
    const input = [ids(1, 2), ids(2, 3), ids(3, 1)];
    const copy = JSON.stringify(input);
    joinLinesIntoRings(input);
    assert.equal(JSON.stringify(input), copy);
  });

  it('gives exactly what a literal port of the reference loop gives (property)', () => {
    const line = fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 0, maxLength: 4 });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), (lines) => {
        const actual = joinLinesIntoRings(lines.map((l) => ids(...l)));
        assert.deepEqual(
          actual.rings.map((r) => r.ids),
          referenceBuildRings(lines),
        );
      }),
      { numRuns: 2000 },
    );
  });
});

/** The reference's `buildRings`, transcribed literally (quadratic; lists are copied, not shared). */
function referenceBuildRings(input: number[][]): number[][] {
  const ways = input.map((l) => [...l]);
  const joined: number[][] = [];
  while (ways.length > 0) {
    const current = ways.shift()!;
    if (current.length === 0) continue;
    let joinable: boolean;
    do {
      let firstId = current[0];
      let lastId = current[current.length - 1];
      if (firstId === lastId) {
        joined.push(current);
        break;
      }
      joinable = false;
      for (let k = 0; k < ways.length; k++) {
        const what = ways[k];
        if (what.length === 0) continue; // the reference would fail on an empty line here
        let matched = true;
        if (lastId === what[0]) current.push(...what.slice(1));
        else if (firstId === what[what.length - 1]) current.unshift(...what.slice(0, -1));
        else if (lastId === what[what.length - 1]) current.push(...what.slice(0, -1).reverse());
        else if (firstId === what[0]) current.unshift(...what.slice(1).reverse());
        else matched = false;
        if (matched) {
          ways.splice(k--, 1);
          firstId = current[0];
          lastId = current[current.length - 1];
          joinable = true;
        }
        if (firstId === lastId) break;
      }
    } while (joinable);
  }
  return joined;
}
