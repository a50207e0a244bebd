import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseIsoTimestamp } from './iso-timestamp.js';

test('the OSM form, parsed by hand, equals Date.parse', () => {
  for (const text of ['1970-01-01T00:00:00Z', '2005-05-01T18:56:06Z', '2016-02-29T23:59:59Z', '2038-01-19T03:14:08Z']) {
    assert.equal(parseIsoTimestamp(text), Date.parse(text) / 1000, text);
  }
});

test('other ISO forms go through Date.parse', () => {
  assert.equal(parseIsoTimestamp('2020-01-01T01:00:00+01:00'), Date.UTC(2020, 0, 1) / 1000);
  assert.equal(parseIsoTimestamp('2020-01-01T00:00:00.900Z'), Date.UTC(2020, 0, 1) / 1000);
});

test('invalid text gives NaN', () => {
  for (const text of ['', 'yesterday', '2020-13-01T00:00:00Z', '2020-01-01T24:00:00Z', '2020-01-0xT00:00:00Z']) {
    assert.ok(Number.isNaN(parseIsoTimestamp(text)), text);
  }
});
