/** `maphist serve`'s memory budget: sizes as written on the command line, and how the budget is shared. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MaphistError } from '../../core/errors.js';
import { memoryPlan } from './serve.js';
import { parseSize } from '../parse-size.js';

describe('serve --memory-limit', () => {
  it('reads sizes in decimal and binary units, and bytes', () => {
    assert.equal(parseSize('4GB'), 4e9);
    assert.equal(parseSize('512MiB'), 512 * 2 ** 20);
    assert.equal(parseSize('1.5 gb'), 1.5e9);
    assert.equal(parseSize('2GiB'), 2 * 2 ** 30);
    assert.equal(parseSize('1000000'), 1e6);
    assert.equal(parseSize('64kb'), 64e3);
  });

  it('refuses what is not a positive size', () => {
    for (const bad of ['', 'GB', '-1GB', '0', '4 XB', '4GB5', '1e9', 'half']) {
      assert.throws(
        () => parseSize(bad),
        (e) => e instanceof MaphistError && e.code === 'CLI_USAGE' && /--memory-limit/.test(e.message),
        bad,
      );
    }
  });

  it('--answer-cache takes a size or 0 (off), and names itself when refused', () => {
    assert.equal(parseSize('0', '--answer-cache', true), 0);
    assert.equal(parseSize('64MiB', '--answer-cache', true), 64 * 2 ** 20);
    assert.throws(
      () => parseSize('-1', '--answer-cache', true),
      (e) => e instanceof MaphistError && e.code === 'CLI_USAGE' && /--answer-cache takes a size .* \(or 0\)/.test(e.message),
    );
  });

  it('gives DuckDB half of the budget in whole MiB, at least 128 MiB', () => {
    assert.deepEqual(memoryPlan(8 * 2 ** 30), { duckDbBytes: 4 * 2 ** 30, duckDbLimit: '4096MiB' });
    assert.deepEqual(memoryPlan(4e9), { duckDbBytes: 1907 * 2 ** 20, duckDbLimit: '1907MiB' });
    assert.deepEqual(memoryPlan(100 * 2 ** 20), { duckDbBytes: 128 * 2 ** 20, duckDbLimit: '128MiB' });
  });
});
