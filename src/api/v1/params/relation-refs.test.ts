import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonPairs } from '../request-pairs.js';
import { parseBoundary } from './boundary.js';
import { parseV1Request } from './parse-v1-request.js';
import { namesRelations, parseRelationRefs } from './relation-refs.js';
import { throwsCode, WORLD_METADATA } from './test-support.js';

test('bpolys naming relations: ids default to relation/<n>, each object has its own', () => {
  assert.equal(namesRelations('relation/1'), true);
  assert.equal(namesRelations('a:relation/1|1,2,3,4,5,6,1,2'), true);
  assert.equal(namesRelations('1,2,3,4,5,6,1,2'), false);
  assert.equal(namesRelations('{"type":"FeatureCollection","features":[],"x":"relation/1"}'), false);
  assert.deepEqual(parseRelationRefs('vella:relation/2804753| relation/2804756 |x:Relation/7'), [
    { id: 'vella', relationId: 2804753 },
    { id: 'relation/2804756', relationId: 2804756 },
    { id: 'x', relationId: 7 },
  ]);
  throwsCode(() => parseRelationRefs('relation/1|1,2,3,4,5,6,1,2'), 'BOUNDARY_INVALID');
  throwsCode(() => parseRelationRefs('relation/-1'), 'BOUNDARY_INVALID');
  throwsCode(() => parseRelationRefs('relation/1.5'), 'BOUNDARY_INVALID');
  throwsCode(() => parseRelationRefs(Array.from({ length: 1001 }, (_, i) => `relation/${i + 1}`).join('|')), 'BOUNDARY_INVALID');
});

test('parseBoundary leaves the areas to the store and checks the ids; parseV1Request carries the relations', () => {
  const b = parseBoundary({ bpolys: 'a:relation/1|relation/2' });
  assert.deepEqual(b.areas, []);
  assert.deepEqual(b.relations, [
    { id: 'a', relationId: 1 },
    { id: 'relation/2', relationId: 2 },
  ]);
  throwsCode(() => parseBoundary({ bpolys: 'relation/1|relation/1' }), 'BOUNDARY_INVALID');
  throwsCode(() => parseBoundary({ bpolys: 'relation/1', bboxes: '1,2,3,4' }), 'BOUNDARY_INVALID');
  const r = parseV1Request(
    '/elements/count/groupBy/boundary',
    [
      ['bpolys', 'relation/1'],
      ['time', '2010-01-01,2012-01-01'],
    ],
    { metadata: WORLD_METADATA, defaultTimeoutSeconds: 100 },
  );
  assert.deepEqual(r.boundaryRelations, [{ id: 'relation/1', relationId: 1 }]);
  assert.deepEqual(r.areas, []);
  throwsCode(
    () =>
      parseV1Request(
        '/elements/count/groupBy/boundary',
        [
          ['bpolys', 'a;b:relation/1'],
          ['format', 'csv'],
        ],
        { metadata: WORLD_METADATA, defaultTimeoutSeconds: 100 },
      ),
    'BOUNDARY_INVALID',
  );
});

test('JSON bodies: the pairs of the equivalent form body', () => {
  assert.deepEqual(jsonPairs(''), []);
  assert.deepEqual(jsonPairs('{}'), []);
  assert.deepEqual(
    jsonPairs(
      JSON.stringify({
        bboxes: [[1, 2, 3, 4], 'b:5,6,7,8'],
        time: ['2010-01-01', '2012-01-01'],
        timeout: 30.5,
        showMetadata: true,
        filter: 'building=* and (a=b or c=d)',
        groupByKeys: ['x', 'y'],
      }),
    ),
    [
      ['bboxes', '1,2,3,4|b:5,6,7,8'],
      ['time', '2010-01-01,2012-01-01'],
      ['timeout', '30.5'],
      ['showMetadata', 'true'],
      ['filter', 'building=* and (a=b or c=d)'],
      ['groupByKeys', 'x,y'],
    ],
  );
  const fc = { type: 'FeatureCollection', features: [] };
  assert.deepEqual(jsonPairs(JSON.stringify({ bpolys: fc })), [['bpolys', JSON.stringify(fc)]]);
  assert.deepEqual(jsonPairs(JSON.stringify({ bpolys: ['relation/1', 'a:relation/2'] })), [['bpolys', 'relation/1|a:relation/2']]);
  for (const bad of [
    '{',
    '[]',
    '1',
    'null',
    '{"time": null}',
    '{"filter": {}}',
    '{"time": [{}]}',
    '{"time": [[1]]}',
    '{"bboxes": [[]]}',
    '{"bboxes": [["1"]]}',
  ]) {
    throwsCode(() => jsonPairs(bad), 'PARAM_INVALID');
  }
});
