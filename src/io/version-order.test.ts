import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isMaphistError } from '../core/errors.js';
import { VersionOrderChecker } from './version-order.js';

/** Feeds [type, id, version] triples; returns the index of the rejected one, or -1. */
function firstRejected(sequence: [number, number, number][]): number {
  const checker = new VersionOrderChecker();
  for (let i = 0; i < sequence.length; i++) {
    try {
      checker.check(...sequence[i]!);
    } catch (e) {
      assert.ok(isMaphistError(e) && e.code === 'INPUT_UNSORTED');
      return i;
    }
  }
  return -1;
}

test('accepts type, then id, then version order', () => {
  assert.equal(
    firstRejected([
      [0, 1, 1],
      [0, 1, 2],
      [0, 2, 1],
      [0, 10, 3],
      [1, 1, 1],
      [1, 5, 1],
      [2, 1, 1],
      [2, 1, 7],
    ]),
    -1,
  );
});

test('accepts version gaps and types that are absent', () => {
  assert.equal(
    firstRejected([
      [0, 1, 1],
      [0, 1, 5],
      [2, 3, 1],
    ]),
    -1,
  );
});

test('orders ids <= 0 before positive ids, by absolute value, as osmium does', () => {
  assert.equal(
    firstRejected([
      [0, 0, 1],
      [0, -1, 1],
      [0, -1, 2],
      [0, -5, 1],
      [0, 1, 1],
      [0, 2, 1],
    ]),
    -1,
  );
  assert.equal(
    firstRejected([
      [0, -5, 1],
      [0, -1, 1],
    ]),
    1,
  );
  assert.equal(
    firstRejected([
      [0, 1, 1],
      [0, -1, 1],
    ]),
    1,
  );
});

test('rejects a lower id, an older version, an earlier type and a repeated version', () => {
  assert.equal(
    firstRejected([
      [0, 2, 1],
      [0, 1, 1],
    ]),
    1,
  );
  assert.equal(
    firstRejected([
      [0, 1, 2],
      [0, 1, 1],
    ]),
    1,
  );
  assert.equal(
    firstRejected([
      [1, 1, 1],
      [0, 2, 1],
    ]),
    1,
  );
  assert.equal(
    firstRejected([
      [0, 1, 1],
      [0, 1, 1],
    ]),
    1,
  );
});
