/** `maphist import --memory-limit`: a size of at least the import's floor, refused below it with the floor named. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MaphistError } from '../../core/errors.js';
import { importMemoryBudget } from './import.js';

describe('import --memory-limit', () => {
  it('takes a size of at least 1.5 GB', () => {
    assert.equal(importMemoryBudget('1.5GB'), 1.5e9);
    assert.equal(importMemoryBudget('8GiB'), 8 * 2 ** 30);
  });

  it('refuses a smaller budget, naming the floor and the default', () => {
    assert.throws(
      () => importMemoryBudget('1GB'),
      (e) => e instanceof MaphistError && e.code === 'CLI_USAGE' && /at least 1\.5 GB .*default is 4 GB/.test(e.message),
    );
    assert.throws(
      () => importMemoryBudget('lots'),
      (e) => e instanceof MaphistError && e.code === 'CLI_USAGE' && /--memory-limit takes a size/.test(e.message),
    );
  });
});
