import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatTimestamp } from '../../common/iso-time.js';
import { MSG } from './messages.js';
import { parseV1Request, type V1RequestContext } from './parse-v1-request.js';
import { HEIDELBERG_METADATA, throwsCode } from './test-support.js';

const ctx: V1RequestContext = { metadata: HEIDELBERG_METADATA, defaultTimeoutSeconds: 100 };
const BBOX = '8.67452,49.40961,8.70392,49.41823';
const parse = (path: string, pairs: [string, string][], c: Partial<V1RequestContext> = {}) => parseV1Request(path, pairs, { ...ctx, ...c });

test('elements count (reference case 1)', () => {
  const r = parse('/elements/count', [
    ['bboxes', BBOX],
    ['time', '2015-01-01'],
    ['filter', 'type:way and building=residential'],
  ]);
  assert.equal(r.route.path, '/elements/count');
  assert.equal(r.measure, 'count');
  assert.deepEqual(r.grouping, { by: 'none' });
  assert.deepEqual(r.timestamps.map(formatTimestamp), ['2015-01-01T00:00:00Z']);
  assert.equal(r.areas[0]!.id, 'boundary1');
  assert.deepEqual(r.boundaryOutputIds, ['boundary1']);
  assert.equal(r.format, 'json');
  assert.equal(r.showMetadata, false);
  assert.equal(r.timeoutSeconds, 100);
  assert.equal(r.density, false);
  assert.equal(r.filter.source, 'type:way and building=residential');
  assert.equal(r.timeParameter, '2015-01-01');
});

test('the route may be given as a V1Route; unknown paths are RESOURCE_NOT_FOUND', () => {
  throwsCode(() => parse('/elements/volume', [['bboxes', BBOX]]), 'RESOURCE_NOT_FOUND');
  throwsCode(() => parse('/metadata', []), 'RESOURCE_NOT_FOUND');
});

test('users, contributions and ratio requests', () => {
  const u = parse('/users/count/groupBy/tag', [
    ['bboxes', BBOX],
    ['groupByKey', 'building'],
    ['contributionType', 'tagChange'],
  ]);
  assert.deepEqual(u.timestamps.map(formatTimestamp), ['2007-10-08T00:00:00Z', '2023-03-10T15:00:00Z']);
  assert.deepEqual(u.contributionTypes, ['tagChange']);
  assert.deepEqual(u.grouping, { by: 'tag', key: 'building' });
  const c = parse('/contributions/count/density', [
    ['bboxes', BBOX],
    ['time', '2018-01-01,2019-01-01'],
    ['filter', 'changeset:5'],
  ]);
  assert.equal(c.density, true);
  assert.equal(c.contributionTypes, undefined);
  const r = parse('/elements/length/ratio', [
    ['bboxes', BBOX],
    ['time', '2011-12-13'],
    ['filter', 'highway=*'],
    ['filter2', 'railway=*'],
    ['format', 'CSV'],
  ]);
  assert.equal(r.ratio, true);
  assert.equal(r.filter2!.source, 'railway=*');
  assert.equal(r.format, 'csv');
  throwsCode(
    () =>
      parse('/users/count', [
        ['bboxes', BBOX],
        ['time', '2015-01-01'],
      ]),
    'TIME_INVALID',
    MSG.TIME_AT_LEAST_TWO,
  );
  throwsCode(() => parse('/elements/count/ratio', [['bboxes', BBOX]]), 'PARAM_INVALID', MSG.FILTER2_MISSING);
});

test('extraction requests', () => {
  const e = parse('/elements/geometry', [
    ['bboxes', BBOX],
    ['properties', 'tags,unclipped'],
  ]);
  assert.equal(e.format, 'geojson');
  assert.equal(e.clipGeometry, false);
  assert.equal(e.properties.tags, true);
  const c = parse('/contributions/bbox', [
    ['bboxes', BBOX],
    ['time', '2012-01-01,2019-01-01'],
    ['properties', 'metadata,contributionTypes'],
    ['clipGeometry', 'false'],
  ]);
  assert.equal(c.timestamps.length, 2);
  assert.equal(c.properties.contributionTypes, true);
  assert.equal(c.clipGeometry, false);
  const u = parse('/contributions/latest/geometry', [
    ['bboxes', BBOX],
    ['time', '2010-01-01,2016-06-01'],
    ['properties', 'unclipped'],
    ['clipGeometry', 'true'],
  ]);
  assert.equal(u.clipGeometry, true);
  throwsCode(
    () =>
      parse('/elementsFullHistory/centroid', [
        ['bboxes', BBOX],
        ['time', '2017-01-01/2017-07-01/P1M'],
      ]),
    'TIME_INVALID',
    MSG.TIME_EXACTLY_TWO,
  );
  assert.equal(
    parse('/elementsFullHistory/centroid', [
      ['bboxes', BBOX],
      ['time', '2017-01-01/2017-07-01'],
    ]).timestamps.length,
    2,
  );
  throwsCode(
    () =>
      parse('/elements/bbox', [
        ['bboxes', BBOX],
        ['properties', 'contributionTypes'],
      ]),
    'PARAM_INVALID',
    MSG.PROPERTIES,
  );
  throwsCode(
    () =>
      parse('/elements/geometry', [
        ['bboxes', BBOX],
        ['format', 'json'],
      ]),
    'PARAM_UNKNOWN',
    "Unknown parameter 'format' for this resource.",
  );
  throwsCode(
    () =>
      parse('/elements/geometry', [
        ['bboxes', BBOX],
        ['filter', 'changeset:1'],
      ]),
    'FILTER_NOT_ALLOWED',
  );
  parse('/elementsFullHistory/geometry', [
    ['bboxes', BBOX],
    ['time', '2017-01-01,2017-07-01'],
    ['filter', 'changeset:1'],
  ]);
});

test('checks run in the reference order', () => {
  // Generic checks before everything.
  throwsCode(() => parse('/elements/count', [['bboxes', BBOX]], { contentType: 'text/csv' }), 'CONTENT_TYPE_UNSUPPORTED');
  throwsCode(() => parse('/elements/count', []), 'PARAM_NONE');
  throwsCode(
    () =>
      parse('/elements/count', [
        ['time', 'x'],
        ['bboxes', BBOX],
        ['time', 'y'],
      ]),
    'PARAM_DUPLICATE',
    MSG.duplicate('time'),
  );
  // groupBy before timeout before boundary.
  throwsCode(
    () =>
      parse('/elements/count/groupBy/tag', [
        ['timeout', 'x'],
        ['bboxes', 'bad'],
      ]),
    'PARAM_INVALID',
    MSG.GROUP_BY_KEY,
  );
  throwsCode(
    () =>
      parse('/elements/count', [
        ['timeout', 'x'],
        ['bboxes', 'bad'],
      ]),
    'PARAM_INVALID',
    MSG.TIMEOUT_FORMAT,
  );
  // boundary (incl. extent) before showMetadata before format before types before time before filter.
  const bad = [
    ['showMetadata', 'x'],
    ['format', 'x'],
    ['types', 'x'],
    ['time', 'x'],
    ['filter', '('],
  ] as [string, string][];
  throwsCode(() => parse('/elements/count', bad), 'BOUNDARY_INVALID', MSG.NO_BOUNDARY);
  throwsCode(() => parse('/users/count', [['bcircles', '8.457261,49.488483,100'], ...bad]), 'BOUNDARY_OUTSIDE_DATA', MSG.BOUNDARY_OUTSIDE);
  throwsCode(() => parse('/elements/count', [['bboxes', BBOX], ...bad]), 'PARAM_INVALID', MSG.SHOW_METADATA);
  throwsCode(() => parse('/elements/count', [['bboxes', BBOX], ...bad.slice(1)]), 'PARAM_INVALID', MSG.FORMAT);
  throwsCode(() => parse('/elements/count', [['bboxes', BBOX], ...bad.slice(2)]), 'PARAM_INVALID', MSG.TYPES_INVALID);
  throwsCode(() => parse('/elements/count', [['bboxes', BBOX], ...bad.slice(3)]), 'TIME_INVALID', MSG.TIME_FORMAT);
  throwsCode(() => parse('/elements/count', [['bboxes', BBOX], ...bad.slice(4)]), 'FILTER_SYNTAX');
  throwsCode(
    () =>
      parse(
        '/elements/count',
        [
          ['bboxes', BBOX],
          ['timeout', '700'],
        ],
        { maxTimeoutSeconds: 600 },
      ),
    'PARAM_INVALID',
    /shorter than 600.0 seconds/,
  );
});

test('format=csv refuses ids with semicolons; geojson keeps numeric GeoJSON ids', () => {
  throwsCode(
    () =>
      parse('/elements/count/groupBy/boundary', [
        ['bboxes', 'a;b:8.6,49.4,8.7,49.45'],
        ['format', 'csv'],
      ]),
    'BOUNDARY_INVALID',
    MSG.CSV_ID_SEMICOLON,
  );
  const fc = JSON.stringify({
    type: 'FeatureCollection',
    features: [
      {
        id: 3,
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [8.6, 49.4],
              [8.7, 49.4],
              [8.6, 49.45],
              [8.6, 49.4],
            ],
          ],
        },
      },
    ],
  });
  const r = parse('/elements/count/groupBy/boundary', [
    ['bpolys', fc],
    ['format', 'geojson'],
  ]);
  assert.equal(r.format, 'geojson');
  assert.deepEqual(r.boundaryOutputIds, [3]);
  assert.equal(r.areas[0]!.id, '3');
});

test('deprecated types narrow groupBy/type; they are unknown on contributions routes', () => {
  const r = parse('/elements/count/groupBy/type', [
    ['bboxes', BBOX],
    ['types', 'way,relation'],
    ['keys', 'building'],
  ]);
  assert.deepEqual(r.deprecatedOsmTypes, ['way', 'relation']);
  throwsCode(
    () =>
      parse('/contributions/count', [
        ['bboxes', BBOX],
        ['types', 'way'],
      ]),
    'PARAM_UNKNOWN',
  );
});
