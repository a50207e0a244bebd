import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeWkb } from '../../geometry/wkb.js';
import type { Geometry, Polygon } from '../../geometry/types.js';
import { planArea } from '../../query/area-plan.js';
import type { AreaOfInterest } from '../../query/model.js';
import { createBoundaryCache } from './boundary-cache.js';
import { clipOutcome, type ClipOutcome } from './boundary-clip-task.js';
import { areaKey, boundaryClipper, clipAllRemembered, type BoundaryClipper } from './boundary-clipper.js';

const square = (x0: number, y0: number, x1: number, y1: number): Polygon => ({
  type: 'Polygon',
  coordinates: [
    [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
      [x0, y0],
    ],
  ],
});
const areaOf = (geometry: Polygon): AreaOfInterest => ({
  id: 'a',
  geometry,
  bbox: [geometry.coordinates[0][0][0], geometry.coordinates[0][0][1], geometry.coordinates[0][2][0], geometry.coordinates[0][2][1]],
});

// Three geometries against the unit square: one crossing its edge, one inside, one outside.
const crossing = encodeWkb({
  type: 'LineString',
  coordinates: [
    [0.5, 0.5],
    [2, 0.5],
  ],
} as Geometry);
const inside = encodeWkb(square(0.2, 0.2, 0.4, 0.4));
const outside = encodeWkb(square(3, 3, 4, 4));

/** A clipper that counts the geometries it is asked to clip. */
function counting(area: AreaOfInterest): { clipper: BoundaryClipper; clipped: () => number } {
  const inner = boundaryClipper(planArea(area), area, { poolMinBytes: Infinity, poolMinCount: Infinity });
  let n = 0;
  return {
    clipper: {
      clip: (wkbs, signal) => {
        n += wkbs.length;
        return inner.clip(wkbs, signal);
      },
    },
    clipped: () => n,
  };
}

test('clipAllRemembered: a second request over the same area clips nothing and gets the same outcomes', async () => {
  const area = areaOf(square(0, 0, 1, 1));
  const plan = planArea(area);
  const cache = createBoundaryCache().clips;
  const items: [number, Uint8Array][] = [
    [1, crossing],
    [2, inside],
    [3, outside],
  ];
  const first = counting(area);
  const a = await clipAllRemembered(first.clipper, items, cache, areaKey(area), undefined);
  assert.equal(first.clipped(), 3);
  const expected: ClipOutcome[] = items.map(([, w]) => clipOutcome(plan, w));
  assert.deepEqual(
    items.map(([, w]) => a.get(w)),
    expected,
  );
  assert.equal(a.get(inside), 'same');
  assert.equal(a.get(outside), null);

  // The next request decodes its WKB afresh: other objects, the same rowids.
  const again: [number, Uint8Array][] = items.map(([k, w]) => [k, w.slice()]);
  const second = counting(area);
  const b = await clipAllRemembered(second.clipper, again, cache, areaKey(areaOf(square(0, 0, 1, 1))), undefined);
  assert.equal(second.clipped(), 0);
  assert.deepEqual(
    again.map(([, w]) => b.get(w)),
    expected,
  );
});

test('clipAllRemembered: another area, or another run, is clipped afresh', async () => {
  const cache = createBoundaryCache().clips;
  const unit = areaOf(square(0, 0, 1, 1));
  await clipAllRemembered(counting(unit).clipper, [[1, crossing]], cache, areaKey(unit), undefined);

  const wider = areaOf(square(0, 0, 3, 1));
  const other = counting(wider);
  const outcomes = await clipAllRemembered(other.clipper, [[1, crossing]], cache, areaKey(wider), undefined);
  assert.equal(other.clipped(), 1);
  assert.equal(outcomes.get(crossing), 'same'); // the whole line lies in the wider area

  const sameArea = counting(unit);
  await clipAllRemembered(
    sameArea.clipper,
    [
      [1, crossing],
      [4, inside],
    ],
    cache,
    areaKey(unit),
    undefined,
  );
  assert.equal(sameArea.clipped(), 1); // only run 4
});

test('areaKey: equal geometries give equal keys, different ones different keys', () => {
  assert.equal(areaKey(areaOf(square(0, 0, 1, 1))), areaKey(areaOf(square(0, 0, 1, 1))));
  assert.notEqual(areaKey(areaOf(square(0, 0, 1, 1))), areaKey(areaOf(square(0, 0, 1, 1.0000000001))));
});
