import assert from 'node:assert/strict';
import { test } from 'node:test';
import { V1_ROUTES, acceptedParameters, findV1Route } from './route-parameters.js';

test('the route table has the 80 routes of docs/reference/v1-reference-behaviour.md §1.1, and the 13 extensions of issue 22', () => {
  assert.equal(V1_ROUTES.length, 93);
  const extensions = V1_ROUTES.filter((r) => r.extension === true);
  assert.deepEqual(
    extensions.map((r) => r.path).sort(),
    [
      ...['/contributions/count', '/contributions/latest/count'].flatMap((base) =>
        ['', '/density'].flatMap((d) => ['contributionType', 'tag', 'type'].map((g) => `${base}${d}/groupBy/${g}`)),
      ),
      '/users/count/groupBy/element',
    ].sort(),
  );
  const reference = V1_ROUTES.filter((r) => r.extension !== true);
  assert.equal(reference.length, 80);
  const count = (f: string) => reference.filter((r) => r.family === f).length;
  assert.equal(count('elements'), 52);
  assert.equal(count('users'), 9);
  assert.equal(count('contributions') + count('contributionsLatest'), 6);
  assert.equal(
    count('elementsExtraction') + count('elementsFullHistoryExtraction') + count('contributionsExtraction') + count('contributionsLatestExtraction'),
    12,
  );
  assert.equal(new Set(V1_ROUTES.map((r) => r.path)).size, 93);
  assert.deepEqual(findV1Route('/metadata')?.methods, ['GET']);
});

test('routes carry measure, density, ratio and groupBy chain', () => {
  const r = findV1Route('/elements/area/density/groupBy/boundary/groupBy/tag/')!;
  assert.equal(r.measure, 'area');
  assert.equal(r.density, true);
  assert.equal(r.ratio, false);
  assert.deepEqual(r.groupBy, ['boundary', 'tag']);
  assert.equal(findV1Route('/elements/count/density/groupBy/key'), undefined);
  assert.equal(findV1Route('/users/count/groupBy/boundary/groupBy/tag'), undefined);
  assert.equal(findV1Route('/contributions/latest/count/groupBy/boundary'), undefined);
  assert.deepEqual(findV1Route('/contributions/count/density/groupBy/contributionType')!.groupBy, ['contributionType']);
  assert.equal(findV1Route('/contributions/latest/count/groupBy/tag')!.family, 'contributionsLatest');
  assert.equal(findV1Route('/contributions/count/groupBy/key'), undefined);
  assert.equal(findV1Route('/elements/length/ratio/groupBy/boundary')!.ratio, true);
  assert.equal(findV1Route('/contributions/latest/centroid')!.family, 'contributionsLatestExtraction');
  assert.equal(findV1Route('/contributions/latest/count/density')!.family, 'contributionsLatest');
  assert.equal(findV1Route('/elementsFullHistory/bbox')!.geometryType, 'bbox');
});

const BASE = ['bboxes', 'bcircles', 'bpolys', 'types', 'keys', 'values', 'timeout', 'time', 'showMetadata', 'filter'];

test('accepted parameters follow docs/reference/v1-reference-behaviour.md §1.2', () => {
  assert.deepEqual(acceptedParameters('/elements/count'), [...BASE, 'format']);
  assert.deepEqual(acceptedParameters('/elements/count/groupBy/boundary/groupBy/tag'), [...BASE, 'format', 'groupByKey', 'groupByValues']);
  assert.deepEqual(acceptedParameters('/elements/perimeter/groupBy/key'), [...BASE, 'format', 'groupByKeys']);
  assert.deepEqual(acceptedParameters('/elements/area/ratio/groupBy/boundary'), [...BASE, 'format', 'filter2', 'keys2', 'types2', 'values2']);
  assert.deepEqual(acceptedParameters('/elements/geometry'), [...BASE, 'properties', 'clipGeometry']);
  assert.deepEqual(acceptedParameters('/elementsFullHistory/centroid'), [...BASE, 'properties', 'clipGeometry']);
  const noDeprecated = BASE.filter((n) => !['types', 'keys', 'values'].includes(n));
  assert.deepEqual(acceptedParameters('/contributions/bbox'), [...noDeprecated, 'properties', 'clipGeometry']);
  assert.deepEqual(acceptedParameters('/contributions/latest/count/density'), [...noDeprecated, 'format', 'contributionType']);
  assert.deepEqual(acceptedParameters('/contributions/count/groupBy/boundary'), [...noDeprecated, 'format', 'contributionType']);
  assert.deepEqual(acceptedParameters('/users/count/groupBy/tag'), [...BASE, 'format', 'groupByKey', 'groupByValues', 'contributionType']);
  assert.deepEqual(acceptedParameters('/metadata'), []);
});

test('every data route accepts a boundary, and only aggregation routes accept format', () => {
  for (const r of V1_ROUTES) {
    if (r.family === 'metadata') continue;
    const p = acceptedParameters(r.path);
    assert.ok(p.includes('bboxes'));
    assert.equal(p.includes('format'), r.geometryType === undefined, r.path);
    assert.equal(p.includes('properties'), r.geometryType !== undefined, r.path);
    assert.equal(p.includes('filter2'), r.ratio, r.path);
    assert.equal(p.includes('contributionType'), r.family === 'users' || r.family === 'contributions' || r.family === 'contributionsLatest', r.path);
    assert.equal(p.includes('types'), !r.path.startsWith('/contributions'), r.path);
  }
});
