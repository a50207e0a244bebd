import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { areaOf } from './measures.js';
import { assembleMultipolygon, type AssemblyOptions, type MemberLine } from './multipolygon.js';
import { readOsmSnapshot, relationLines } from './testing/osm-snapshot.js';
import type { Geometry, Position } from './types.js';
import { parseWkt } from './wkt.js';
import { TESTCASES_DIR } from '../testing/test-data.js';

/** A member line from node ids, placing node n at `positions[n]`. */
function line(positions: Record<number, Position>, ...ids: number[]): MemberLine {
  return { nodeIds: ids, coords: ids.map((id) => positions[id]) };
}

// 1──2        A square 1-2-3-4 (0..4), a hole 5-6-7-8 (1..2) and a far square 9-10-11-12.
// │  │
// 4──3
const P: Record<number, Position> = {
  1: [0, 4],
  2: [4, 4],
  3: [4, 0],
  4: [0, 0],
  5: [1, 1],
  6: [1, 2],
  7: [2, 2],
  8: [2, 1],
  9: [10, 0],
  10: [10, 1],
  11: [11, 1],
  12: [11, 0],
};

function polygonCounts(g: Geometry | null): { parts: number; holes: number } {
  if (g === null) return { parts: 0, holes: -1 };
  if (g.type === 'Polygon') return { parts: 1, holes: g.coordinates.length - 1 };
  if (g.type === 'MultiPolygon') return { parts: g.coordinates.length, holes: g.coordinates.reduce((n, p) => n + p.length - 1, 0) };
  throw new Error(`unexpected ${g.type}`);
}

describe('assembleMultipolygon: ring building', () => {
  it('joins lines in any direction into one ring', () => {
    const { geometry, problems } = assembleMultipolygon([line(P, 1, 2, 3), line(P, 1, 4, 3)], []);
    assert.deepEqual(problems, []);
    assert.equal(geometry?.type, 'Polygon');
    // 1-2-3 then 1-4-3 matched end to end: appended reversed.
    assert.deepEqual(geometry?.coordinates, [[P[1], P[2], P[3], P[4], P[1]]]);
    assert.equal(areaOf(geometry!), areaOf(parseWkt('POLYGON((0 0,0 4,4 4,4 0,0 0))')));
  });

  it('follows the reference join order: append, prepend, append reversed, prepend reversed', () => {
    // current 1-2; remaining: 3-4 (no match yet), 2-3 (append), 4-1 (prepend) → closes after one more pass.
    const { geometry } = assembleMultipolygon([line(P, 1, 2), line(P, 3, 4), line(P, 2, 3), line(P, 4, 1)], []);
    assert.deepEqual(geometry, { type: 'Polygon', coordinates: [[P[4], P[1], P[2], P[3], P[4]]] });
    const reversed = assembleMultipolygon([line(P, 1, 2), line(P, 3, 2), line(P, 1, 4), line(P, 3, 4)], []);
    assert.deepEqual(reversed.geometry, { type: 'Polygon', coordinates: [[P[4], P[1], P[2], P[3], P[4]]] });
  });

  it('discards lines that cannot be closed and says so; null when no outer ring remains', () => {
    const open = assembleMultipolygon([line(P, 1, 2, 3)], []);
    assert.equal(open.geometry, null);
    assert.match(open.problems.join('\n'), /1 outer way\(s\) do not form a closed ring/);
    const partly = assembleMultipolygon([line(P, 1, 2, 3, 4, 1), line(P, 9, 10)], []);
    assert.equal(partly.geometry?.type, 'Polygon');
    assert.equal(partly.problems.length, 1);
  });

  it('drops rings with fewer than 4 coordinates and skips empty lines', () => {
    const { geometry, problems } = assembleMultipolygon([{ nodeIds: [], coords: [] }, line(P, 1, 2, 1), line(P, 9, 10, 11, 12, 9)], []);
    assert.equal(geometry?.type, 'Polygon');
    assert.match(problems.join('\n'), /1 ring\(s\) with fewer than 4 nodes/);
  });

  it('does not modify its inputs', () => {
    const outer = [line(P, 1, 2, 3), line(P, 1, 4, 3)];
    const inner = [line(P, 5, 6, 7, 8, 5)];
    const before = JSON.stringify([outer, inner]);
    assembleMultipolygon(outer, inner);
    assert.equal(JSON.stringify([outer, inner]), before);
  });
});

describe('assembleMultipolygon: holes', () => {
  it('one outer: every inner ring is a hole, unchecked (reference)', () => {
    const { geometry } = assembleMultipolygon([line(P, 1, 2, 3, 4, 1)], [line(P, 5, 6, 7, 8, 5), line(P, 9, 10, 11, 12, 9)]);
    assert.deepEqual(polygonCounts(geometry), { parts: 1, holes: 2 });
  });

  it('several outers: each gets the inner rings it contains; stray inner rings are dropped and reported', () => {
    const { geometry, problems } = assembleMultipolygon(
      [line(P, 1, 2, 3, 4, 1), line(P, 9, 10, 11, 12, 9)],
      [
        line(P, 5, 6, 7, 8, 5),
        {
          nodeIds: [20, 21, 22, 20],
          coords: [
            [20, 20],
            [21, 20],
            [21, 21],
            [20, 20],
          ],
        },
      ],
    );
    assert.deepEqual(polygonCounts(geometry), { parts: 2, holes: 1 });
    assert.match(problems.join('\n'), /1 inner ring\(s\) lie in no outer ring/);
  });

  it('merges inner rings that share segments (reference mergeTouchingRings)', () => {
    // Two inner squares 1..2 × 1..2 and 2..3 × 1..2 sharing the edge 7-8 → one 1..3 × 1..2 hole.
    const Q: Record<number, Position> = { ...P, 13: [3, 1], 14: [3, 2] };
    const { geometry } = assembleMultipolygon([line(Q, 1, 2, 3, 4, 1)], [line(Q, 5, 6, 7, 8, 5), line(Q, 8, 7, 14, 13, 8)]);
    assert.deepEqual(polygonCounts(geometry), { parts: 1, holes: 1 });
    const expected = parseWkt('POLYGON((0 0,0 4,4 4,4 0,0 0),(1 1,1 2,3 2,3 1,1 1))');
    assert.ok(Math.abs(areaOf(geometry!) - areaOf(expected)) < 1e-6 * areaOf(expected));
  });
});

describe('assembleMultipolygon: robustness', () => {
  it('never throws and returns polygons or null for arbitrary member lines (property)', () => {
    // Nodes 0..11 on a 4×3 grid, with some positions shared by two ids.
    const position = (id: number): Position => [id % 4, Math.floor(id / 4) % 3];
    const memberLine = fc.array(fc.integer({ min: 0, max: 11 }), { maxLength: 7 }).map((nodeIds) => ({ nodeIds, coords: nodeIds.map(position) }));
    fc.assert(
      fc.property(fc.array(memberLine, { maxLength: 6 }), fc.array(memberLine, { maxLength: 4 }), fc.boolean(), (outer, inner, exactReference) => {
        const { geometry } = assembleMultipolygon(outer, inner, { exactReference });
        assert.ok(geometry === null || geometry.type === 'Polygon' || geometry.type === 'MultiPolygon');
        if (geometry) assert.ok(Number.isFinite(areaOf(geometry)));
      }),
      { numRuns: 3000 },
    );
  });
});

const RELATIONS = join(TESTCASES_DIR, 'oshdb-history', 'relations');

function relationGeometry(file: string, relationId: number, options: AssemblyOptions = {}, order?: number[]): Geometry | null {
  const snapshot = readOsmSnapshot(readFileSync(`${RELATIONS}/${file}`, 'utf8'));
  const { outer, inner } = relationLines(snapshot, relationId);
  const ordered = order ? order.map((i) => outer[i]) : outer;
  return assembleMultipolygon(ordered, inner, options).geometry;
}

function permutations(n: number): number[][] {
  if (n === 0) return [[]];
  return permutations(n - 1).flatMap((p) => Array.from({ length: n }, (_, i) => [...p.slice(0, i), n - 1, ...p.slice(i)]));
}

describe('reference relation tests (oshdb-history/relations)', () => {
  for (const options of [{}, { exactReference: true }] as AssemblyOptions[]) {
    const mode = options.exactReference ? 'exact reference' : 'default';

    it(`multipolygonShellsShareNode (docs/reference/history-engine-semantics.md §7.2 item 8), ${mode}`, () => {
      const file = 'multipolygonShellsShareNode.osm';
      assert.deepEqual(polygonCounts(relationGeometry(file, 100, options)), { parts: 2, holes: 0 });
      for (const order of permutations(4)) {
        assert.deepEqual(polygonCounts(relationGeometry(file, 101, options, order)), { parts: 2, holes: 0 }, `order ${order}`);
      }
      assert.deepEqual(polygonCounts(relationGeometry(file, 102, options)), { parts: 3, holes: 0 });
      assert.deepEqual(polygonCounts(relationGeometry(file, 103, options)), { parts: 1, holes: 1 });
      assert.deepEqual(polygonCounts(relationGeometry(file, 104, options)), { parts: 1, holes: 2 });
      assert.deepEqual(polygonCounts(relationGeometry(file, 105, options)), { parts: 2, holes: 1 });
    });

    it(`outer ways in all directions join into one polygon, ${mode}`, () => {
      const expected = areaOf(
        parseWkt('MULTIPOLYGON(((7.16 1.36,7.16 1.35,7.15 1.34,7.14 1.34,7.14 1.35,7.14 1.36,7.15 1.36,7.15 1.37,7.16 1.37,7.16 1.36)))'),
      );
      for (const id of [1, 2, 3, 4]) {
        const g = relationGeometry('outer-directions.osm', id, options);
        assert.equal(g?.type, 'Polygon');
        assert.ok(Math.abs(areaOf(g!) - expected) < 1e-9 * expected, `relation ${id}`);
      }
    });

    it(`invalid inner and outer rings still give polygons, ${mode}`, () => {
      assert.equal(relationGeometry('invalid-inner-rings.osm', 1, options)?.type, 'Polygon');
      assert.equal(relationGeometry('invalid-inner-rings.osm', 2, options)?.type, 'Polygon');
      assert.equal(relationGeometry('invalid-outer-ring.osm', 1, options)?.type, 'MultiPolygon');
    });
  }
});
