/**
 * Version 1's admission limits (src/api/common/limits.ts) and the hostile inputs of issue 17: each
 * refusal is a coded error whose message names the limit and the value the request gave, raised
 * before the oversized list is built (checked by timing inputs far over the limit), and the limit
 * itself is accepted.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addPeriod, parseIsoPeriod, seriesLength } from '../../common/iso-time.js';
import { LIMITS } from '../../common/limits.js';
import { parseBoundary } from './boundary.js';
import { parseGroupByKeys, parseGroupByValues } from './group-by.js';
import { javaSplit, javaSplitCount } from './java-text.js';
import { WORLD_METADATA, throwsCode } from './test-support.js';
import { parseTime } from './time.js';
import { parseV1Request } from './parse-v1-request.js';

const BOX = '8.6,49.3,8.7,49.4';
const snapshot = (value: string) => parseTime(value, { metadata: WORLD_METADATA, use: 'snapshot' });

/** Runs `fn`, which must throw quickly: parsing stops at the limit instead of building the list. */
function fast(fn: () => unknown): () => unknown {
  return () => {
    const started = performance.now();
    try {
      return fn();
    } finally {
      assert.ok(performance.now() - started < 1000, `took ${Math.round(performance.now() - started)} ms`);
    }
  };
}

test('javaSplitCount counts what javaSplit gives, without splitting', () => {
  for (const text of ['', ',', ',,,', 'a', 'a,', 'a,,b', ',a', 'a,b,,', '1,2,3,4|5,6,7,8', '1,2,3,4||5,6,7,8|', 'a|b,c|']) {
    const expected = javaSplit(text, '|').flatMap((part) => javaSplit(part, ','));
    assert.equal(javaSplitCount(text, ',|'), expected.length, JSON.stringify(text));
  }
  assert.equal(javaSplitCount('a,b,c', ','), javaSplit('a,b,c', ',').length);
});

test('seriesLength is the length of the series, computed without building it', () => {
  for (const [from, to, p] of [
    ['2010-01-01', '2012-02-01', 'P1Y'],
    ['2010-01-31', '2011-03-01', 'P1M'],
    ['2010-01-01', '2010-01-02', 'PT1H'],
    ['2008-02-29', '2020-03-01', 'P1Y'],
    ['2010-01-01', '2010-01-01', 'P1D'],
  ] as const) {
    const start = Date.parse(from) / 1000;
    const end = Date.parse(to) / 1000;
    const period = parseIsoPeriod(p)!;
    let n = 0;
    while (addPeriod(start, period, n) <= end) n++;
    assert.equal(seriesLength(start, end, period), n, `${from}/${to}/${p}`);
  }
});

test('boundaries: at most 1,000, in bboxes, bcircles and bpolys; the limit itself is accepted', () => {
  assert.equal(LIMITS.boundaries.v1, 1000);
  const boxes = (n: number) => Array.from({ length: n }, (_, i) => `b${i}:${BOX}`).join('|');
  assert.equal(parseBoundary({ bboxes: boxes(1000) }).areas.length, 1000);
  throwsCode(() => parseBoundary({ bboxes: boxes(1001) }), 'BOUNDARY_INVALID', /^At most 1,000 boundaries in bboxes are accepted; the request has 1,001\. /);
  throwsCode(
    fast(() => parseBoundary({ bboxes: Array(100_000).fill(BOX).join('|') })),
    'BOUNDARY_INVALID',
    'At most 1,000 boundaries in bboxes are accepted; the request has 100,000. Split them over several requests.',
  );
  throwsCode(
    fast(() => parseBoundary({ bboxes: Array(1_000_000).fill(BOX).join(',') })),
    'BOUNDARY_INVALID',
    /the request has 1,000,000\./,
  );
  throwsCode(
    fast(() => parseBoundary({ bcircles: Array(10_000).fill('8.6,49.3,100').join('|') })),
    'BOUNDARY_INVALID',
    'At most 1,000 boundaries in bcircles are accepted; the request has 10,000. Split them over several requests.',
  );
  const square = (i: number) => {
    const x = 8 + (i % 100) * 0.001;
    const y = 49 + Math.floor(i / 100) * 0.001;
    return `${x},${y},${x + 0.0005},${y},${x + 0.0005},${y + 0.0005},${x},${y}`;
  };
  throwsCode(
    () => parseBoundary({ bpolys: Array.from({ length: 1001 }, (_, i) => square(i)).join('|') }),
    'BOUNDARY_INVALID',
    /^At most 1,000 boundaries in bpolys are accepted; the request has 1,001\./,
  );
  const feature = (i: number) => ({
    type: 'Feature',
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [8, 49 + i],
          [8.1, 49 + i],
          [8.1, 49.1 + i],
          [8, 49 + i],
        ],
      ],
    },
  });
  throwsCode(
    () => parseBoundary({ bpolys: JSON.stringify({ type: 'FeatureCollection', features: Array.from({ length: 1001 }, (_, i) => feature(i / 1000)) }) }),
    'BOUNDARY_INVALID',
    /^At most 1,000 boundaries in bpolys are accepted; the request has 1,001\./,
  );
});

test('vertices: at most 100,000 over all bpolys, counted in the text before it is parsed', () => {
  assert.equal(LIMITS.vertices.v1, 100_000);
  const ring = (n: number) => {
    const pts = Array.from({ length: n - 1 }, (_, i) => [
      8.6 + 0.01 * Math.cos((2 * Math.PI * i) / (n - 1)),
      49.4 + 0.01 * Math.sin((2 * Math.PI * i) / (n - 1)),
    ]);
    return [...pts, pts[0]!];
  };
  assert.equal(parseBoundary({ bpolys: ring(100_000).flat().join(',') }).areas.length, 1);
  throwsCode(
    fast(() => parseBoundary({ bpolys: ring(100_001).flat().join(',') })),
    'BOUNDARY_INVALID',
    'At most 100,000 vertices over all bpolys are accepted; the request has 100,001. Simplify the polygons, or split the area over several requests.',
  );
  const geojson = JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring(1_000_000)] } }] });
  throwsCode(
    fast(() => parseBoundary({ bpolys: geojson })),
    'BOUNDARY_INVALID',
    /over all bpolys are accepted; the request has 1,000,000\./,
  );
});

test('empty list items and coordinates off the globe are 400s that say what to fix', () => {
  throwsCode(
    () => parseBoundary({ bboxes: ',,,' }),
    'BOUNDARY_INVALID',
    /^The bboxes parameter holds no boundary object, only separators; give at least one box/,
  );
  throwsCode(() => parseBoundary({ bcircles: ',,' }), 'BOUNDARY_INVALID', /^The bcircles parameter holds no boundary object/);
  throwsCode(() => parseBoundary({ bboxes: '1e308,1,2,3' }), 'BOUNDARY_INVALID', /^The bbox 'boundary1' has a longitude of 1e\+308, outside \[-180, 180\]\./);
  throwsCode(() => parseBoundary({ bboxes: '1.5,91,1.6,42.6' }), 'BOUNDARY_INVALID', /^The bbox 'boundary1' has a latitude of 91, outside \[-90, 90\]\./);
  throwsCode(() => parseBoundary({ bboxes: 'NaN,1,2,3' }), 'BOUNDARY_INVALID');
  throwsCode(() => parseBoundary({ bcircles: '181,10,100' }), 'BOUNDARY_INVALID', /has longitude 181; give lon,lat with a longitude between -180 and 180/);
  throwsCode(
    () => parseBoundary({ bpolys: '8,95,9,95,9,96,8,95' }),
    'BOUNDARY_INVALID',
    /^The bpolys boundary 'boundary1' has a latitude of 95, outside \[-90, 90\]/,
  );
  assert.equal(parseBoundary({ bboxes: '-180,-90,180,90' }).areas.length, 1, 'the whole world stays a valid bbox');
  throwsCode(() => snapshot(',,,'), 'TIME_INVALID', /The time parameter holds only commas/);
});

test('timestamps: at most 10,000, lists and series alike, refused (never cut) before they are built', () => {
  assert.equal(LIMITS.timestamps.v1, 10_000);
  // 2010-01-01 + 9,999 hours lies inside the data; 10,000 timestamps are accepted.
  assert.equal(snapshot('2010-01-01T00:00:00Z/2011-02-21T15:00:00Z/PT1H').length, 10_000);
  throwsCode(
    snapshot.bind(null, '2010-01-01T00:00:00Z/2011-02-21T16:00:00Z/PT1H'),
    'TIME_INVALID',
    'At most 10,000 timestamps in the time parameter are accepted; the request has 10,001. Use a longer period or a shorter time range, or split the range over several requests.',
  );
  throwsCode(
    fast(() => snapshot(Array(200_001).fill('2010-01-01').join(','))),
    'TIME_INVALID',
    /the request has 200,001\./,
  );
  throwsCode(
    fast(() => snapshot('2008-01-01/2023-01-01/PT1S')),
    'TIME_INVALID',
    /the request has 473,385,601\./,
  );
});

test('groupBy: at most 50 keys and 1,000 values', () => {
  const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}`).join(',');
  assert.equal(parseGroupByKeys(keys(50)).length, 50);
  throwsCode(
    () => parseGroupByKeys(keys(51)),
    'PARAM_INVALID',
    'At most 50 keys in groupByKeys are accepted; the request has 51. Split them over several requests.',
  );
  throwsCode(
    fast(() => parseGroupByKeys(keys(1_000_000))),
    'PARAM_INVALID',
    /the request has 1,000,000\./,
  );
  assert.equal(parseGroupByValues(keys(1000))?.length, 1000);
  throwsCode(
    () => parseGroupByValues(keys(1001)),
    'PARAM_INVALID',
    'At most 1,000 values in groupByValues are accepted; the request has 1,001. Split them over several requests.',
  );
});

test('filters: the filter language limits, with the reference prefix', () => {
  const parse = (filter: string) => () =>
    parseV1Request(
      '/elements/count',
      [
        ['bboxes', BOX],
        ['filter', filter],
      ],
      { metadata: WORLD_METADATA, defaultTimeoutSeconds: 100 },
    );
  throwsCode(parse(`name=${'x'.repeat(70_000)}`), 'FILTER_TOO_LONG', /the filter is 70,?005 characters long; the longest accepted is 65,?536/);
  throwsCode(parse(`${'('.repeat(60)}a=b${')'.repeat(60)}`), 'FILTER_TOO_DEEP', /more than 50 levels deep/);
});
