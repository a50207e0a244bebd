import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Position } from './types.js';
import { findPolygonProblem } from './polygon-validity.js';

const square = (x: number, y: number, s: number): Position[] => [
  [x, y],
  [x + s, y],
  [x + s, y + s],
  [x, y + s],
  [x, y],
];
const poly = (...rings: Position[][]) => ({ type: 'Polygon' as const, coordinates: rings });
const multi = (...polys: Position[][][]) => ({ type: 'MultiPolygon' as const, coordinates: polys });

test('valid polygons pass', () => {
  assert.equal(findPolygonProblem(poly(square(0, 0, 10))), undefined);
  assert.equal(findPolygonProblem(poly(square(0, 0, 10), square(2, 2, 2), square(5, 5, 2))), undefined);
  // Hole touching the shell in one point, repeated points.
  assert.equal(
    findPolygonProblem(
      poly(square(0, 0, 10), [
        [0, 5],
        [2, 4],
        [2, 6],
        [0, 5],
      ]),
    ),
    undefined,
  );
  assert.equal(
    findPolygonProblem(
      poly([
        [0, 0],
        [1, 0],
        [1, 0],
        [1, 1],
        [0, 1],
        [0, 0],
      ]),
    ),
    undefined,
  );
  // Parts touching in a corner; island in a hole.
  assert.equal(findPolygonProblem(multi([square(0, 0, 1)], [square(1, 1, 1)])), undefined);
  assert.equal(findPolygonProblem(multi([square(0, 0, 10), square(2, 2, 6)], [square(4, 4, 1)])), undefined);
});

test('invalid polygons are described', () => {
  assert.match(
    findPolygonProblem(
      poly([
        [0, 0],
        [1, 1],
        [1, 0],
        [0, 1],
        [0, 0],
      ]),
    )!,
    /outer ring crosses itself near \(0.5, 0.5\)/,
  );
  assert.match(
    findPolygonProblem(
      poly([
        [0, 0],
        [1, 0],
        [0, 0],
        [0, 0],
      ]),
    )!,
    /no area/,
  );
  assert.match(
    findPolygonProblem(
      poly([
        [0, 0],
        [1, 0],
        [1, 1],
      ]),
    )!,
    /3 point/,
  );
  assert.match(
    findPolygonProblem(
      poly([
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
      ]),
    )!,
    /not closed/,
  );
  // A ring touching itself in a vertex (figure eight).
  assert.match(
    findPolygonProblem(
      poly([
        [0, 0],
        [2, 0],
        [1, 1],
        [2, 2],
        [0, 2],
        [1, 1],
        [0, 0],
      ]),
    )!,
    /touches itself/,
  );
  // Spike going back over itself.
  assert.match(
    findPolygonProblem(
      poly([
        [0, 0],
        [2, 0],
        [3, 0],
        [2, 0],
        [2, 2],
        [0, 0],
      ]),
    )!,
    /runs back over itself|touches itself/,
  );
  assert.match(findPolygonProblem(poly(square(0, 0, 10), square(8, 8, 5)))!, /inner ring 1 crosses the outer ring|crosses/);
  assert.match(findPolygonProblem(poly(square(0, 0, 10), square(20, 20, 1)))!, /outside the outer ring/);
  assert.match(findPolygonProblem(poly(square(0, 0, 10), square(1, 1, 8), square(2, 2, 1)))!, /nested/);
  assert.match(findPolygonProblem(multi([square(0, 0, 2)], [square(1, 1, 2)]))!, /overlap/);
  assert.match(findPolygonProblem(multi([square(0, 0, 10)], [square(1, 1, 2)]))!, /lies inside polygon 1/);
  assert.match(findPolygonProblem(multi([square(0, 0, 1)], [square(1, 0, 1)]))!, /overlap/);
});
