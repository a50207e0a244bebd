/**
 * Property tests of the version 2 parsers: arbitrary and mutated inputs never escape as anything
 * but a catalog-coded MaphistError with a located issue; valid generated inputs parse and round-trip.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { MaphistError } from '../../../core/errors.js';
import { toWkt } from '../../../geometry/wkt.js';
import { issuesOf } from '../error-status.js';
import { parseAoi, parseAoiText } from './aoi.js';
import { parseV2Filter } from './filter.js';
import { parseGroupBy } from './group-by.js';
import { parseMemberFilter } from './member-filter.js';
import { parseBinsTime, parseExtractionTime, parseExtractionTimeText, parseFeatureStatsTime } from './time.js';
import { EARLIEST, formatTimestamp, parseTimestamp } from './timestamp.js';

const RUNS = { numRuns: 300 };
const ctx = { latest: Date.UTC(2017, 1, 19, 16, 2, 5) / 1000 };
const ALPHABET = '0123456789.,:/-+{}[]"eEPTYMDWSHZ abcl\n;=*()~POLYGN';

function onlyValidationErrors(f: () => unknown): void {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof MaphistError, `escaped: ${String(e)}`);
    const [issue] = issuesOf(e);
    assert.ok(issue && issue.loc.length > 0 && issue.msg.length > 0 && issue.type.length > 0);
  }
}

const anyText = fc.oneof(fc.string({ maxLength: 60 }), fc.string({ unit: fc.constantFrom(...ALPHABET), maxLength: 60 }));
const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 4 }), anyText, fc.array(fc.double(), { maxLength: 6 }));
const timestamp = fc.integer({ min: EARLIEST, max: Date.UTC(2030, 0, 1) / 1000 });

test('the aoi parser never throws anything but a validation error', () => {
  fc.assert(
    fc.property(anyJson, (v) => onlyValidationErrors(() => parseAoi(v))),
    RUNS,
  );
  fc.assert(
    fc.property(anyText, (v) => onlyValidationErrors(() => parseAoiText(v))),
    RUNS,
  );
  const ring = fc.array(fc.tuple(fc.double({ min: -200, max: 200 }), fc.double({ min: -100, max: 100 })), { minLength: 0, maxLength: 7 });
  fc.assert(
    fc.property(ring, (r) => onlyValidationErrors(() => parseAoi({ type: 'Polygon', coordinates: [[...r, ...(r.length > 0 ? [r[0]!] : [])]] }))),
    RUNS,
  );
});

test('valid bboxes and their WKT round-trip', () => {
  const bbox = fc.tuple(
    fc.double({ min: -179, max: 170, noNaN: true }),
    fc.double({ min: -89, max: 80, noNaN: true }),
    fc.double({ min: 1e-6, max: 9, noNaN: true }),
    fc.double({ min: 1e-6, max: 9, noNaN: true }),
  );
  fc.assert(
    fc.property(bbox, ([x, y, w, h]) => {
      const b: [number, number, number, number] = [x + 0, y + 0, x + w, y + h]; // + 0: no -0
      const a = parseAoi(b);
      assert.deepEqual(a.bbox, b);
      assert.deepEqual(parseAoi(toWkt(a.geometry)).geometry, a.geometry);
      assert.deepEqual(parseAoi(JSON.stringify(a.geometry)).geometry, a.geometry);
      assert.deepEqual(parseAoiText(b.join(',')).bbox, b);
    }),
    RUNS,
  );
});

test('the time parsers never throw anything but a validation error', () => {
  const timeObject = fc.record(
    {
      start: fc.oneof(anyText, fc.constantFrom('earliest', 'latest', '2010-01-01')),
      end: fc.oneof(anyText, fc.constantFrom('latest', '2016-01-01')),
      interval: anyText,
      binSize: anyText,
    },
    { requiredKeys: [] },
  );
  const input = fc.oneof(anyJson, timeObject);
  fc.assert(
    fc.property(input, (v) => {
      onlyValidationErrors(() => parseFeatureStatsTime(v, ctx));
      onlyValidationErrors(() => parseBinsTime(v, ctx));
      for (const kind of ['features', 'collections', 'collections_members', 'contributions'] as const) {
        onlyValidationErrors(() => parseExtractionTime(v, kind, ctx));
        if (typeof v === 'string') onlyValidationErrors(() => parseExtractionTimeText(v, kind, ctx));
      }
    }),
    RUNS,
  );
});

test('timestamps round-trip and series are ascending, within range, at most 1000 points', () => {
  fc.assert(
    fc.property(timestamp, (t) => assert.equal(parseTimestamp(formatTimestamp(t), ['time'], ctx), t)),
    RUNS,
  );
  const period = fc.constantFrom('P1D', 'P1M', 'P1Y', 'PT1H', 'P1W', 'P3M', 'P1MT1S', 'P2Y');
  fc.assert(
    fc.property(timestamp, timestamp, period, (a, b, p) => {
      const [start, end] = [Math.min(a, b), Math.max(a, b)];
      if (start === end) return;
      try {
        const s = parseFeatureStatsTime({ start: formatTimestamp(start), end: formatTimestamp(end), interval: p }, ctx);
        assert.ok(s.length <= 1000 && s[0] === start && s[s.length - 1] === end);
        for (let i = 1; i < s.length; i++) assert.ok(s[i]! > s[i - 1]!);
      } catch (e) {
        assert.ok(e instanceof MaphistError && /1000 points/.test(e.message));
      }
    }),
    RUNS,
  );
});

test('filter, groupBy and member_filter never throw anything but a validation error', () => {
  fc.assert(
    fc.property(anyJson, (v) => {
      onlyValidationErrors(() => parseV2Filter(v));
      onlyValidationErrors(() => parseGroupBy(v));
      onlyValidationErrors(() => parseMemberFilter(v));
    }),
    RUNS,
  );
  const key = fc.string({ unit: fc.constantFrom(...'abz_:-09'), minLength: 1, maxLength: 8 });
  fc.assert(
    fc.property(key, key, (k, v) => assert.equal(parseV2Filter(`${k}=${v}`).source, `${k}=${v}`)),
    RUNS,
  );
  fc.assert(
    fc.property(key, (k) => assert.deepEqual(parseGroupBy({ type: 'byTag', key: k }), { by: 'tag', key: k })),
    RUNS,
  );
});
