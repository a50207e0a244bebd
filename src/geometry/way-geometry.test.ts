import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Position } from './types.js';
import { buildWayGeometry } from './way-geometry.js';

const ring: Position[] = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 0],
];

describe('buildWayGeometry (reference getWayGeometry, docs/reference/history-engine-semantics.md §2.3)', () => {
  it('area with a closed ring of ≥ 4 coordinates → Polygon', () => {
    assert.deepEqual(buildWayGeometry(ring, true), { type: 'Polygon', coordinates: [ring] });
  });

  it('not an area → LineString even when closed', () => {
    assert.deepEqual(buildWayGeometry(ring, false), { type: 'LineString', coordinates: ring });
  });

  it('area whose ring is broken after node resolution → LineString', () => {
    assert.deepEqual(buildWayGeometry(ring.slice(0, 3), true), { type: 'LineString', coordinates: ring.slice(0, 3) });
    const open: Position[] = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1e-7],
    ];
    assert.equal(buildWayGeometry(open, true)?.type, 'LineString');
  });

  it('first = last is 2D coordinate equality, not node identity', () => {
    // Different end nodes at the same position close the ring (the id check is isAreaWay's job).
    const samePlace: Position[] = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 0],
    ];
    assert.equal(buildWayGeometry(samePlace, true)?.type, 'Polygon');
  });

  it('one coordinate → Point; none → null (empty)', () => {
    assert.deepEqual(buildWayGeometry([[3, 4]], true), { type: 'Point', coordinates: [3, 4] });
    assert.equal(buildWayGeometry([], false), null);
  });
});
