import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertCsvSafeIds, parseBoundary } from './boundary.js';
import { MSG } from './messages.js';
import { throwsCode } from './test-support.js';

test('exactly one boundary parameter; empty counts as absent', () => {
  assert.equal(parseBoundary({ bboxes: '8,49,9,50', bcircles: '' }).type, 'bboxes');
  assert.equal(parseBoundary({ bcircles: '8,49,100' }).areas.length, 1);
  throwsCode(() => parseBoundary({}), 'BOUNDARY_INVALID', MSG.NO_BOUNDARY);
  throwsCode(() => parseBoundary({ bboxes: '', bpolys: '' }), 'BOUNDARY_INVALID', MSG.NO_BOUNDARY);
  throwsCode(() => parseBoundary({ bboxes: '8,49,9,50', bcircles: '8,49,100' }), 'BOUNDARY_INVALID', MSG.BOUNDARY_MULTIPLE);
});

test('ids must be unique', () => {
  throwsCode(() => parseBoundary({ bboxes: 'a:8,49,9,50|a:8,49,9,51' }), 'BOUNDARY_INVALID', /'a' is given more than once/);
  const fc = JSON.stringify({
    type: 'FeatureCollection',
    features: [1, 2].map((i) => ({
      id: 'x',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [i, 0],
            [i + 1, 0],
            [i, 1],
            [i, 0],
          ],
        ],
      },
    })),
  });
  throwsCode(() => parseBoundary({ bpolys: fc }), 'BOUNDARY_INVALID', /unique/);
});

test('csv output forbids semicolons in ids', () => {
  const b = parseBoundary({ bboxes: 'a;b:8,49,9,50' });
  throwsCode(() => assertCsvSafeIds(b.areas), 'BOUNDARY_INVALID', MSG.CSV_ID_SEMICOLON);
});

test('an id-style boundary whose later part has no fields is a format error, not a crash (fuzz counterexample ":|,")', () => {
  for (const p of ['bboxes', 'bcircles', 'bpolys'] as const) throwsCode(() => parseBoundary({ [p]: ':|,' }), 'BOUNDARY_INVALID');
});
