/**
 * Both readers against osmium, on every full-history file of the shared data: per type the
 * number of versions and of deleted versions, and the first and last timestamp. The expected
 * figures are osmium's, stored in testdata/osmium-fileinfo.json (made by
 * testdata/make-osmium-golden.sh) so the test runs without osmium; where osmium is installed the
 * script is re-run and the stored file must still match it.
 */

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { HAVE_OSMIUM, HISTORY_DIR, summarize, TESTDATA_DIR, type HistorySummary } from './test-helpers.js';

interface Golden {
  osmium: string;
  files: Record<string, HistorySummary>;
}

const GOLDEN_PATH = join(TESTDATA_DIR, 'osmium-fileinfo.json');
const golden = JSON.parse(readFileSync(GOLDEN_PATH, 'utf8')) as Golden;

test('the golden file covers every history file in the data directory', () => {
  const files = readdirSync(HISTORY_DIR)
    .filter((f) => f.endsWith('.osh.pbf') || f.endsWith('.osh.gz'))
    .sort();
  assert.deepEqual(Object.keys(golden.files).sort(), files);
});

for (const [name, expected] of Object.entries(golden.files)) {
  test(`${name}: versions, deleted versions and first/last timestamp equal osmium's`, async () => {
    assert.deepEqual(await summarize(join(HISTORY_DIR, name)), expected);
  });
}

test('the golden file is what osmium says today', { skip: HAVE_OSMIUM ? false : 'osmium is not installed' }, () => {
  const output = execFileSync('sh', [join(TESTDATA_DIR, 'make-osmium-golden.sh'), HISTORY_DIR], { encoding: 'utf8', maxBuffer: 1 << 24 });
  assert.deepEqual(JSON.parse(output), golden, 'regenerate with: sh src/io/testdata/make-osmium-golden.sh > src/io/testdata/osmium-fileinfo.json');
});
