import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RunRepresentatives, keepSmallestRowid } from './representative-wkb.js';

test('RunRepresentatives keeps the smallest rowid per (type, id, run), apart for each type, element and run', () => {
  const runs = new RunRepresentatives();
  const byString = new Map<string, number>();
  // Rows in a shuffled order, as a database's threads give them: node 7, way 7 (same id, other type), way 8.
  const rows: [number, number, number, number][] = [
    [1, 7, 2, 40],
    [0, 7, 2, 12],
    [1, 7, 2, 31],
    [1, 7, 1, 50],
    [1, 8, 2, 3],
    [0, 7, 2, 9],
    [1, 7, 2, 35],
    [2, 2 ** 40, 1, 99],
  ];
  for (const [type, id, run, rowid] of rows) {
    runs.keep(type, id, run, rowid);
    keepSmallestRowid(byString, `${type}/${id}/${run}`, rowid);
  }
  assert.equal(runs.get(1, 7, 2), 31);
  assert.equal(runs.get(0, 7, 2), 9);
  assert.equal(runs.get(1, 7, 1), 50);
  assert.equal(runs.get(1, 8, 2), 3);
  assert.equal(runs.get(2, 2 ** 40, 1), 99);
  assert.equal(runs.get(1, 8, 1), undefined);
  assert.equal(runs.get(2, 7, 2), undefined);
  assert.equal(runs.size, byString.size);
  assert.deepEqual(
    [...runs.rowids()].sort((a, b) => a - b),
    [...byString.values()].sort((a, b) => a - b),
  );
});
