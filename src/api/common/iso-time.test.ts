import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addPeriod, formatTimestamp, parseIsoPeriod, parseIsoTimestamp } from './iso-time.js';

const iso = (t: number | undefined) => (t === undefined ? undefined : formatTimestamp(t));

test('timestamp forms by length', () => {
  assert.equal(iso(parseIsoTimestamp('2014')), '2014-01-01T00:00:00Z');
  assert.equal(iso(parseIsoTimestamp('201402')), '2014-02-01T00:00:00Z');
  assert.equal(iso(parseIsoTimestamp('2014-02')), '2014-02-01T00:00:00Z');
  assert.equal(iso(parseIsoTimestamp('20140203')), '2014-02-03T00:00:00Z');
  assert.equal(iso(parseIsoTimestamp(' 2014-02-03 ')), '2014-02-03T00:00:00Z');
  assert.equal(iso(parseIsoTimestamp('2014-02-03T04')), '2014-02-03T04:00:00Z');
  assert.equal(iso(parseIsoTimestamp('2014-02-03T04:05')), '2014-02-03T04:05:00Z');
  assert.equal(iso(parseIsoTimestamp('2014-02-03T04:05:06Z')), '2014-02-03T04:05:06Z');
  assert.equal(iso(parseIsoTimestamp('2014-02-03T04:05:06.789')), '2014-02-03T04:05:06Z');
  assert.equal(iso(parseIsoTimestamp('2016-02-29')), '2016-02-29T00:00:00Z');
});

test('malformed timestamps', () => {
  for (const t of [
    '',
    '14',
    '2014-1-01',
    '2014-02-30',
    '2015-02-29',
    '2014-13-01',
    '2014-02-03T24',
    '2014-02-03T04:05:06+01:00',
    '-2014',
    '2014-02-03T04:05:06.78',
    'ZZ',
    '2014-02-03 04:05',
  ]) {
    assert.equal(parseIsoTimestamp(t), undefined, t);
  }
});

test('periods', () => {
  assert.deepEqual(parseIsoPeriod('P1Y'), { years: 1, months: 0, days: 0, seconds: 0 });
  assert.deepEqual(parseIsoPeriod('P1Y2M3W4DT5H6M7S'), { years: 1, months: 2, days: 25, seconds: 5 * 3600 + 6 * 60 + 7 });
  assert.deepEqual(parseIsoPeriod('PT1H'), { years: 0, months: 0, days: 0, seconds: 3600 });
  for (const p of ['P', 'PT', 'P0Y', 'PT0S', '1Y', 'P1H', 'P1.5Y', 'P-1D', 'p1y', 'P1M1Y']) assert.equal(parseIsoPeriod(p), undefined, p);
});

test('start + k·period clamps to month ends without drifting', () => {
  const start = parseIsoTimestamp('2010-01-31')!;
  const p = parseIsoPeriod('P1M')!;
  assert.deepEqual(
    [0, 1, 2, 3].map((k) => iso(addPeriod(start, p, k))),
    ['2010-01-31T00:00:00Z', '2010-02-28T00:00:00Z', '2010-03-31T00:00:00Z', '2010-04-30T00:00:00Z'],
  );
  assert.equal(iso(addPeriod(parseIsoTimestamp('2016-02-29')!, parseIsoPeriod('P1Y')!, 1)), '2017-02-28T00:00:00Z');
  assert.equal(iso(addPeriod(parseIsoTimestamp('2016-01-01T12')!, parseIsoPeriod('P1DT12H')!, 2)), '2016-01-04T12:00:00Z');
});
