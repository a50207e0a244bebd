import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseBboxes } from './bboxes.js';
import { MSG } from './messages.js';
import { throwsCode } from './test-support.js';

test('boxes without ids get boundary1, boundary2, …', () => {
  const a = parseBboxes('8.5992,49.3567,8.7499,49.4371|9.1638,49.113,9.2672,49.1766');
  assert.deepEqual(
    a.map((x) => x.id),
    ['boundary1', 'boundary2'],
  );
  assert.deepEqual(a[0]!.bbox, [8.5992, 49.3567, 8.7499, 49.4371]);
  assert.deepEqual(a[0]!.geometry.coordinates[0]![0], [8.5992, 49.3567]);
  assert.equal(a[0]!.geometry.coordinates[0]!.length, 5);
});

test('ids, spaces around numbers, trailing comma, exponents, swapped corners', () => {
  const a = parseBboxes('Heidelberg:8.5992,49.3567,8.7499,49.4371|Heil bronn:9.1638, 49.113 ,9.2672,49.1766,');
  assert.deepEqual(
    a.map((x) => x.id),
    ['Heidelberg', 'Heil bronn'],
  );
  assert.deepEqual(a[1]!.bbox, [9.1638, 49.113, 9.2672, 49.1766]);
  assert.deepEqual(parseBboxes('8.690455,49.410615,8.691002,49.410416')[0]!.bbox, [8.690455, 49.410416, 8.691002, 49.410615]);
  assert.deepEqual(parseBboxes('8.6e0,4.9e1,8.7,49.1')[0]!.bbox, [8.6, 49, 8.7, 49.1]);
});

test('coordinates are snapped to 1e-7', () => {
  assert.deepEqual(parseBboxes('8.123456789,49.1,8.2,49.2')[0]!.bbox[0], 8.1234568);
});

test('format errors', () => {
  throwsCode(() => parseBboxes('8.5,49.3,8.7'), 'BOUNDARY_INVALID', MSG.BOUNDARY_PARAM_FORMAT);
  throwsCode(() => parseBboxes('8.5,49.3,8.7,49.4,8.8,49.5'), 'BOUNDARY_INVALID', MSG.BOUNDARY_PARAM_FORMAT);
  throwsCode(() => parseBboxes('a:8.5,49.3,8.7'), 'BOUNDARY_INVALID', MSG.BOUNDARY_PARAM_FORMAT);
  throwsCode(() => parseBboxes('a:8.5,49.3,8.7,49.4|8.5,49.3,8.7,49.4'), 'BOUNDARY_INVALID', MSG.BOUNDARY_IDS_FORMAT);
  throwsCode(() => parseBboxes('8.5,49.3,8.7,49.4|a:8.5,49.3,8.7,49.4'), 'BOUNDARY_INVALID', MSG.BBOXES_NUMBERS);
  throwsCode(() => parseBboxes('8.5,x,8.7,49.4'), 'BOUNDARY_INVALID', MSG.BBOXES_NUMBERS);
  throwsCode(() => parseBboxes('8.5,NaN,8.7,49.4'), 'BOUNDARY_INVALID', MSG.BBOXES_NUMBERS);
  throwsCode(() => parseBboxes('8.5,49.3,8.5,49.4'), 'BOUNDARY_INVALID', /has no area/);
});
