/** Unit tests of the version 2 parameter parsers (docs/reference/v2-reference-and-contributions-format.md §1.3). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MaphistError } from '../../../core/errors.js';
import { issuesOf } from '../error-status.js';
import { parseAoi, parseAoiText } from './aoi.js';
import { clipDefault } from './clip.js';
import { parseV2Filter } from './filter.js';
import { parseGroupBy } from './group-by.js';
import { parseMemberFilter } from './member-filter.js';
import { parseBinsTime, parseExtractionTime, parseExtractionTimeText, parseFeatureStatsTime } from './time.js';
import { formatTimestamp, parseTimestamp } from './timestamp.js';

const ctx = { latest: Date.UTC(2017, 1, 19, 16, 2, 5) / 1000 };
const iso = (s: number[]) => s.map(formatTimestamp);

function rejects(f: () => unknown, msg: RegExp, loc?: (string | number)[]): void {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof MaphistError, String(e));
    const issue = issuesOf(e)[0]!;
    assert.match(issue.msg, msg);
    if (loc) assert.deepEqual(issue.loc, loc);
    return;
  }
  assert.fail('expected an error');
}

describe('v2 time', () => {
  it('reads naive, Z and zero-offset timestamps as UTC and rejects other offsets', () => {
    const t = Date.UTC(2020, 0, 1) / 1000;
    for (const s of [
      '2020-01-01',
      '2020-01-01T00:00',
      '2020-01-01T00:00:00',
      '2020-01-01T00:00:00Z',
      '2020-01-01T00:00:00+00:00',
      '2020-01-01T00:00:00.000Z',
    ]) {
      assert.equal(parseTimestamp(s, ['time'], ctx), t, s);
    }
    rejects(() => parseTimestamp('2020-01-01T00:00:00+02:00', ['time'], ctx), /^Only UTC timestamps are supported\.$/);
    rejects(() => parseTimestamp('2007-10-07T23:59:59Z', ['time'], ctx), /2007-10-08/);
    rejects(() => parseTimestamp('2020-02-30', ['time'], ctx), /not a valid date/);
  });

  it('builds calendar-aware series with the end appended when uneven', () => {
    assert.deepEqual(iso(parseFeatureStatsTime({ start: '2020-01-31', end: '2020-04-15', interval: 'P1M' }, ctx)), [
      '2020-01-31T00:00:00Z',
      '2020-02-29T00:00:00Z',
      '2020-03-31T00:00:00Z',
      '2020-04-15T00:00:00Z',
    ]);
    assert.deepEqual(iso(parseFeatureStatsTime({ start: '2020-01-01', end: '2022-01-01', interval: 'P1Y' }, ctx)), [
      '2020-01-01T00:00:00Z',
      '2021-01-01T00:00:00Z',
      '2022-01-01T00:00:00Z',
    ]);
    assert.deepEqual(iso(parseFeatureStatsTime({ start: '2020-01-01', end: '2022-01-01' }, ctx)), ['2020-01-01T00:00:00Z', '2022-01-01T00:00:00Z']);
    assert.deepEqual(parseFeatureStatsTime('latest', ctx), [ctx.latest]);
  });

  it('resolves earliest and latest in ranges; end must be after start', () => {
    assert.deepEqual(iso(parseBinsTime({ start: 'earliest', end: 'latest' }, ctx)), ['2007-10-08T00:00:00Z', '2017-02-19T16:02:05Z']);
    rejects(() => parseBinsTime({ start: '2020-01-01', end: '2020-01-01' }, ctx), /after its start/, ['time']);
    rejects(() => parseBinsTime({ start: 'latest', end: '2020-01-01' }, ctx), /ISO-8601/, ['time', 'start']);
  });

  it('takes the step as interval (the spec) or binSize (its alias), on features and bins alike', () => {
    const range = { start: '2020-01-01', end: '2022-01-01' };
    const yearly = ['2020-01-01T00:00:00Z', '2021-01-01T00:00:00Z', '2022-01-01T00:00:00Z'];
    for (const parse of [parseFeatureStatsTime, parseBinsTime]) {
      assert.deepEqual(iso(parse({ ...range, interval: 'P1Y' }, ctx)), yearly);
      assert.deepEqual(iso(parse({ ...range, binSize: 'P1Y' }, ctx)), yearly);
      assert.deepEqual(iso(parse({ ...range, interval: 'P1Y', binSize: 'P1Y' }, ctx)), yearly);
      // the same series, written differently: accepted
      assert.deepEqual(iso(parse({ ...range, interval: 'P1Y', binSize: 'P12M' }, ctx)), yearly);
      rejects(() => parse({ ...range, interval: 'P1Y', binSize: 'P1M' }, ctx), /`binSize` is an alias of `interval`/, ['time', 'binSize']);
      rejects(() => parse({ ...range, interval: 'P1Y', binSize: 'P1X' }, ctx), /duration/, ['time', 'binSize']);
      rejects(() => parse({ ...range, interval: 'yearly' }, ctx), /duration/, ['time', 'interval']);
    }
  });

  it('allows 1000 points and rejects 1001', () => {
    assert.equal(parseBinsTime({ start: '2010-01-01', end: '2010-01-01T16:39:00', binSize: 'PT1M' }, ctx).length, 1000);
    rejects(() => parseBinsTime({ start: '2010-01-01', end: '2010-01-01T16:40:00', binSize: 'PT1M' }, ctx), /larger than 1000 points\/bins\./, ['time']);
    rejects(() => parseBinsTime({ start: '2010-01-01', end: '2011-01-01', binSize: 'P0D' }, ctx), /duration/, ['time', 'binSize']);
  });

  it('reads extraction times per endpoint', () => {
    assert.deepEqual(parseExtractionTime('latest', 'features', ctx), { at: ctx.latest });
    assert.ok('start' in parseExtractionTime({ start: '2015-01-01', end: 'latest' }, 'features', ctx));
    rejects(() => parseExtractionTime({ start: '2015-01-01', end: 'latest' }, 'collections', ctx), /timestamp or 'latest'/);
    rejects(() => parseExtractionTime('latest', 'contributions', ctx), /time range/);
    assert.deepEqual(parseExtractionTimeText('2015-01-01/2016-01-01', 'contributions', ctx), { start: 1420070400, end: 1451606400 });
    rejects(() => parseExtractionTimeText('2015-01-01', 'contributions', ctx), /start\/end/);
  });
});

describe('v2 aoi', () => {
  it('reads bbox arrays, GeoJSON, WKT and JSON text', () => {
    const bbox = parseAoi([1, 2, 3, 4]);
    assert.deepEqual(bbox.bbox, [1, 2, 3, 4]);
    const geojson = {
      type: 'Polygon',
      coordinates: [
        [
          [1, 2, 5],
          [3, 2, 5],
          [3, 4, 5],
          [1, 2, 5],
        ],
      ],
    };
    assert.deepEqual(parseAoi(geojson).geometry, {
      type: 'Polygon',
      coordinates: [
        [
          [1, 2],
          [3, 2],
          [3, 4],
          [1, 2],
        ],
      ],
    });
    assert.deepEqual(parseAoi(JSON.stringify(geojson)).geometry, parseAoi(geojson).geometry);
    assert.deepEqual(parseAoi('[1,2,3,4]').bbox, [1, 2, 3, 4]);
    assert.equal(parseAoi('MULTIPOLYGON(((1 2, 3 2, 3 4, 1 2)))').geometry.type, 'MultiPolygon');
    assert.deepEqual(parseAoiText('1,2,3,4').bbox, [1, 2, 3, 4]);
  });

  it('splits antimeridian bboxes, clamps wide ones, rejects bad ones', () => {
    const west = parseAoi([-190, 0, -170, 10]);
    assert.deepEqual(west.geometry.coordinates.length, 2);
    assert.deepEqual(west.geometry, {
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [170, 0],
            [180, 0],
            [180, 10],
            [170, 10],
            [170, 0],
          ],
        ],
        [
          [
            [-180, 0],
            [-170, 0],
            [-170, 10],
            [-180, 10],
            [-180, 0],
          ],
        ],
      ],
    });
    assert.equal(parseAoi([170, 0, 190, 10]).geometry.type, 'MultiPolygon');
    assert.deepEqual(parseAoi([-200, 0, 200, 10]).bbox, [-180, 0, 180, 10]);
    rejects(() => parseAoi([3, 2, 1, 4]), /xmin must be smaller/, ['aoi']);
    rejects(() => parseAoi([1, -95, 3, 4]), /\[-90, 90\]/);
    rejects(() => parseAoi([-400, 0, -370, 1]), /\(-360, 360\)/);
    rejects(() => parseAoiText('1,2,3'), /four comma-separated numbers/);
  });

  it('names what is wrong with a polygon (422, not 500)', () => {
    rejects(
      () =>
        parseAoi({
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 1],
              [1, 0],
              [0, 1],
              [0, 0],
            ],
          ],
        }),
      /not a valid polygon: the outer ring crosses itself/,
    );
    rejects(
      () =>
        parseAoi({
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 1],
              [0, 0],
            ],
          ],
        }),
      /at least 4 positions/,
      ['aoi', 'coordinates', 0],
    );
    rejects(() => parseAoi({ type: 'Point', coordinates: [0, 0] }), /Polygon' or 'MultiPolygon/);
    rejects(() => parseAoi('POINT(1 2)'), /POLYGON or MULTIPOLYGON/);
    rejects(() => parseAoi('POLYGON((1 2, 3'), /not valid WKT/);
    rejects(() => parseAoi('{"type":'), /not valid JSON/);
  });
});

describe('v2 filter, clip, groupBy, member_filter', () => {
  it('keeps the located parser message; * is everything; empty is invalid', () => {
    rejects(() => parseV2Filter('building='), /^line 1, column 10: expected/, ['filter']);
    rejects(() => parseV2Filter(''), /must not be empty/);
    assert.equal(parseV2Filter('*').ast.kind, 'const');
    assert.equal(parseV2Filter('highway ~ motor*').version, 2);
    rejects(() => parseV2Filter('perimeter:(1..2)'), /./);
  });

  it('has the reference defaults for clip', () => {
    assert.equal(clipDefault('stats/features', 'POST'), false);
    assert.equal(clipDefault('stats/currentness', 'POST'), false);
    assert.equal(clipDefault('extraction/features', 'GET'), true);
    assert.equal(clipDefault('extraction/collections', 'POST'), true);
    assert.equal(clipDefault('extraction/collections', 'GET'), false);
  });

  it('reads groupBy and member_filter', () => {
    assert.deepEqual(parseGroupBy({ type: 'byTag', key: 'building' }), { by: 'tag', key: 'building' });
    assert.equal(parseGroupBy(null), undefined);
    rejects(() => parseGroupBy({ type: 'byKey', key: 'x' }), /^Input should be 'byTag' or 'byType'$/, ['groupBy', 'type']);
    // maphist's extensions (issue 22): values, byType
    assert.deepEqual(parseGroupBy({ type: 'byTag', key: 'highway', values: ['primary', 'service', 'primary'] }), {
      by: 'tag',
      key: 'highway',
      values: ['primary', 'service'],
    });
    assert.deepEqual(parseGroupBy({ type: 'byTag', key: 'highway', values: null }), { by: 'tag', key: 'highway' });
    assert.deepEqual(parseGroupBy({ type: 'byType' }), { by: 'type' });
    rejects(() => parseGroupBy({ type: 'byType', key: 'x' }), /Extra inputs/, ['groupBy', 'key']);
    rejects(() => parseGroupBy({ type: 'byTag', key: 'x', values: [] }), /at least 1 item/, ['groupBy', 'values']);
    rejects(() => parseGroupBy({ type: 'byTag', key: 'x', values: ['a', 2] }), /valid string/, ['groupBy', 'values', 1]);
    rejects(
      () => parseGroupBy({ type: 'byTag', key: 'x', values: Array.from({ length: 1001 }, (_, i) => `v${i}`) }),
      /^At most 1,000 values in groupBy.values are accepted; the request has 1,001\. Split them over several requests\.$/,
      ['groupBy', 'values'],
    );
    assert.equal(parseMemberFilter(null), null);
    rejects(() => parseMemberFilter('a='), /line 1/, ['member_filter']);
  });
});
