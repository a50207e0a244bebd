import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatTimestamp } from '../../common/iso-time.js';
import { MSG } from './messages.js';
import { WORLD_METADATA, throwsCode } from './test-support.js';
import { parseTime, type TimeUse } from './time.js';

const t = (value: string | undefined, use: TimeUse = 'snapshot') => parseTime(value, { metadata: WORLD_METADATA, use }).map(formatTimestamp);
const FIRST = '2007-10-08T00:00:00Z';
const LAST = '2023-03-10T15:00:00Z';

test('single, list (sorted, trimmed, distinct), start/end', () => {
  assert.deepEqual(t('2014-01-01'), ['2014-01-01T00:00:00Z']);
  assert.deepEqual(t('2018-10-10, 2014-01-01 ,2015-07-01,2014-01-01'), ['2014-01-01T00:00:00Z', '2015-07-01T00:00:00Z', '2018-10-10T00:00:00Z']);
  assert.deepEqual(t('2014-01-01/2018-01-01'), ['2014-01-01T00:00:00Z', '2018-01-01T00:00:00Z']);
  assert.deepEqual(t('2018-01-01/2014-01-01'), ['2014-01-01T00:00:00Z', '2018-01-01T00:00:00Z']);
});

test('series include the end only on the grid', () => {
  assert.deepEqual(t('2010-01-01/2012-02-01/P1Y'), ['2010-01-01T00:00:00Z', '2011-01-01T00:00:00Z', '2012-01-01T00:00:00Z']);
  assert.deepEqual(t('2013-01-01/2016-01-01/P1Y').length, 4);
  assert.deepEqual(t('2016-01-01/2013-01-01/P1Y').length, 4);
});

test('open ends are the data range', () => {
  assert.deepEqual(t('/'), [FIRST, LAST]);
  assert.deepEqual(t('/2018-01-01'), [FIRST, '2018-01-01T00:00:00Z']);
  assert.deepEqual(t('2020-01-01/'), ['2020-01-01T00:00:00Z', LAST]);
  assert.deepEqual(t('2021-01-01//P1Y'), ['2021-01-01T00:00:00Z', '2022-01-01T00:00:00Z', '2023-01-01T00:00:00Z']);
  assert.deepEqual(t('/2008-01-01/P1M'), [FIRST, '2007-11-08T00:00:00Z', '2007-12-08T00:00:00Z']);
  assert.equal(t('//P1Y').length, 16);
});

test('defaults', () => {
  assert.deepEqual(t(undefined), [LAST]);
  assert.deepEqual(t(' '), [LAST]);
  assert.deepEqual(t(undefined, 'intervals'), [FIRST, LAST]);
});

test('errors', () => {
  const snap = (v: string) => () => parseTime(v, { metadata: WORLD_METADATA, use: 'snapshot' });
  throwsCode(snap('2014-01-01/2015-01-01/P1Y/x'), 'TIME_INVALID', MSG.TIME_FORMAT);
  throwsCode(snap('yesterday'), 'TIME_INVALID', MSG.TIME_FORMAT);
  throwsCode(snap(',2014-01-01'), 'TIME_INVALID', MSG.TIME_FORMAT);
  assert.deepEqual(t('2014-01-01,'), ['2014-01-01T00:00:00Z']); // Java's split drops trailing empty items
  throwsCode(snap('2014-01-01/2015-01-01,2016-01-01'), 'TIME_INVALID', MSG.TIME_FORMAT);
  throwsCode(snap('2014-01-01/2015-01-01/1Y'), 'TIME_INVALID', MSG.TIME_PERIOD);
  throwsCode(snap('2014-01-01/2015-01-01/'), 'TIME_INVALID', MSG.TIME_PERIOD);
  throwsCode(
    snap('2000-01-01'),
    'TIME_OUTSIDE_DATA',
    `The given time parameter is not completely within the timeframe (${FIRST} to ${LAST}) of the underlying osh-data.`,
  );
  throwsCode(snap('2014-01-01/2024-01-01'), 'TIME_OUTSIDE_DATA');
  throwsCode(
    snap('2010-01-01/2020-01-01/PT1S'),
    'TIME_INVALID',
    'At most 10,000 timestamps in the time parameter are accepted; the request has 315,532,801. Use a longer period or a shorter time range, or split the range over several requests.',
  );
  throwsCode(() => parseTime('2014-01-01', { metadata: WORLD_METADATA, use: 'intervals' }), 'TIME_INVALID', MSG.TIME_AT_LEAST_TWO);
});

test('exactly two timestamps for full-history and contributions extraction: t1,t2 or the slash form t1/t2', () => {
  assert.deepEqual(t('2017-07-01,2017-01-01', 'exactlyTwo'), ['2017-01-01T00:00:00Z', '2017-07-01T00:00:00Z']);
  assert.deepEqual(t('2017-01-01/2017-07-01', 'exactlyTwo'), ['2017-01-01T00:00:00Z', '2017-07-01T00:00:00Z']);
  assert.deepEqual(t('2017-07-01/2017-01-01', 'exactlyTwo'), ['2017-01-01T00:00:00Z', '2017-07-01T00:00:00Z']);
  assert.deepEqual(
    t('/', 'exactlyTwo'),
    [WORLD_METADATA.firstTimestamp, WORLD_METADATA.lastTimestamp].map((x) => t(x)[0]),
  );
  assert.equal(t('2017-01-01/', 'exactlyTwo').length, 2);
  const two = (v: string | undefined) => () => parseTime(v, { metadata: WORLD_METADATA, use: 'exactlyTwo' });
  throwsCode(two('2017-01-01'), 'TIME_INVALID', MSG.TIME_AT_LEAST_TWO);
  throwsCode(two('2017-01-01/2017-07-01/P1M'), 'TIME_INVALID', MSG.TIME_EXACTLY_TWO);
  throwsCode(two('2017-01-01/2017-01-01'), 'TIME_INVALID', MSG.TIME_AT_LEAST_TWO);
  throwsCode(two('2017-01-01,2017-03-01,2017-07-01'), 'TIME_INVALID', MSG.TIME_EXACTLY_TWO);
  throwsCode(two(undefined), 'TIME_INVALID', MSG.TIME_EXACTLY_TWO);
});
