import assert from 'node:assert/strict';
import { test } from 'node:test';
import { areaOf } from '../../../geometry/measures.js';
import { parseBcircles } from './bcircles.js';
import { destination } from './geodesic-circle.js';
import { MSG } from './messages.js';
import { throwsCode } from './test-support.js';

test('a circle is a closed counter-clockwise 32-gon of the right size', () => {
  const [c] = parseBcircles('8.6528,49.3683,1000');
  const ring = c!.geometry.coordinates[0] as [number, number][];
  assert.equal(c!.id, 'boundary1');
  assert.equal(ring.length, 33);
  assert.deepEqual(ring[0], ring[32]);
  const area = areaOf(c!.geometry);
  const expected = 0.9936 * Math.PI * 1e6; // a regular 32-gon inscribed in the circle
  assert.ok(Math.abs(area - expected) / expected < 0.005, `area ${area}`);
  // Ring order: east first, then north (counter-clockwise).
  assert.ok(ring[0]![0] > 8.6528 && ring[8]![1] > 49.3683);
});

test('vertices lie at the geodesic distance', () => {
  // 1° of latitude at the equator is 110574 m.
  const p = destination(0, 0, 0, 110574.3);
  assert.ok(Math.abs(p[1] - 1) < 1e-5 && Math.abs(p[0]) < 1e-9);
  const q = destination(0, 0, 90, 111319.49);
  assert.ok(Math.abs(q[0] - 1) < 1e-5);
});

test('ids and format rules', () => {
  const cs = parseBcircles('Circle 1:8.6528,49.3683,1000|Circle 2:8.7294,49.4376,1000');
  assert.deepEqual(
    cs.map((c) => c.id),
    ['Circle 1', 'Circle 2'],
  );
  throwsCode(() => parseBcircles('8.6528,49.3683'), 'BOUNDARY_INVALID', MSG.BOUNDARY_PARAM_FORMAT);
  throwsCode(() => parseBcircles('a:8.6528,49.3683,1,2'), 'BOUNDARY_INVALID', MSG.BOUNDARY_PARAM_FORMAT);
  throwsCode(() => parseBcircles('a:8.6528,49.3683,10|8.6528,49.3683,10'), 'BOUNDARY_INVALID', MSG.BOUNDARY_IDS_FORMAT);
  throwsCode(() => parseBcircles('8.6528,49.3683,x'), 'BOUNDARY_INVALID', MSG.BCIRCLES_FORMAT);
  throwsCode(() => parseBcircles('8.6528,49.3683,10|a:8.6528,49.3683,10'), 'BOUNDARY_INVALID', MSG.BCIRCLES_FORMAT);
});

test('absurd radii and polar circles say what to fix', () => {
  throwsCode(() => parseBcircles('8.6,49.3,0'), 'BOUNDARY_INVALID', /greater than 0 and at most 1000000/);
  throwsCode(() => parseBcircles('8.6,49.3,-5'), 'BOUNDARY_INVALID', /radius/);
  throwsCode(() => parseBcircles('8.6,49.3,1e9'), 'BOUNDARY_INVALID', /radius/);
  throwsCode(() => parseBcircles('8.6,95,10'), 'BOUNDARY_INVALID', /latitude between -90 and 90/);
  throwsCode(() => parseBcircles('8.6,89.9,20000'), 'BOUNDARY_INVALID', /reaches a pole/);
});
