import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Position } from './types.js';
import { findPolygonProblem, MAX_EDGE_PAIRS, PolygonTooComplex, polygonProblemSteps } from './polygon-validity.js';

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

/** n squares of side 1 in one column: every x extent meets every other (a sweep over x compared them all). */
const column = (n: number) => multi(...Array.from({ length: n }, (_, i) => [square(0, i * 2, 1)]));
/** A star of n spikes: long edges whose extents all meet, about (2n)²/2 pairs. */
const starPolygon = (n: number) => {
  const ring: Position[] = Array.from({ length: 2 * n }, (_, i) => {
    const r = i % 2 === 0 ? 100 : 1;
    const a = (Math.PI * i) / n;
    return [r * Math.cos(a), r * Math.sin(a)];
  });
  return poly([...ring, ring[0]!]);
};

test('the pairs compared grow with the edges that come near each other, not with the parts that share an x range', () => {
  // 4 edges per square and about one pair per edge: a limit of 2 pairs per edge is enough.
  assert.equal(findPolygonProblem(column(5_000), 2 * 4 * 5_000), undefined);
  // A shell of many vertices with many holes: valid, and a hole put outside is found.
  const shell: Position[] = Array.from({ length: 2_000 }, (_, i) => [100 * Math.cos((2 * Math.PI * i) / 2_000), 100 * Math.sin((2 * Math.PI * i) / 2_000)]);
  const holes = Array.from({ length: 400 }, (_, i) => square(-40 + (i % 20) * 4, -40 + Math.floor(i / 20) * 4, 1));
  assert.equal(findPolygonProblem(poly([...shell, shell[0]!], ...holes)), undefined);
  assert.match(findPolygonProblem(poly([...shell, shell[0]!], ...holes, square(500, 500, 1)))!, /inner ring 401 lies outside the outer ring/);
});

test('a polygon whose edges come near each other in more pairs than the limit is refused, not checked for minutes', () => {
  assert.throws(
    () => findPolygonProblem(starPolygon(2_000)),
    (e: unknown) => e instanceof PolygonTooComplex && e.limit === MAX_EDGE_PAIRS,
  );
  assert.throws(() => findPolygonProblem(starPolygon(50), 100), PolygonTooComplex);
  assert.equal(findPolygonProblem(starPolygon(50)), undefined); // under the limit: checked, and valid
});

test('polygonProblemSteps yields between its steps and ends with what findPolygonProblem says', () => {
  for (const g of [column(3_000), multi([square(0, 0, 2)], [square(1, 1, 2)]), poly(square(0, 0, 10), square(20, 20, 1))]) {
    const steps = polygonProblemSteps(g);
    let yields = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) yields++;
    assert.equal(step.value, findPolygonProblem(g));
    assert.ok(yields >= 1);
  }
  let yields = 0;
  const steps = polygonProblemSteps(column(3_000));
  while (!steps.next().done) yields++;
  assert.ok(yields >= 12_000 / 5_000, `${yields} yields for 12,000 edges`);
});

test('rings one inside another are compared in pairs within the limit too, and the first nested part is found at once', () => {
  // 2,000 squares, each inside the one before: invalid at the first pair, not after 2,000,000 pairs.
  const russian = multi(...Array.from({ length: 2_000 }, (_, i) => [square(i, i, 10_000 - 2 * i)]));
  assert.match(findPolygonProblem(russian)!, /^polygon 2 lies inside polygon 1 of the MultiPolygon/);
  // 60 levels of an island in the hole of the island before: valid, each part inside every shell before it
  // (1,770 pairs of rings, and the holes of each).
  const islands = multi(...Array.from({ length: 60 }, (_, i) => [square(4 * i, 4 * i, 1_000 - 8 * i), square(4 * i + 1, 4 * i + 1, 1_000 - 8 * i - 2)]));
  assert.equal(findPolygonProblem(islands), undefined);
  assert.throws(() => findPolygonProblem(islands, 2_000), PolygonTooComplex);
});
