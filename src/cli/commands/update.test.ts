/**
 * `maphist update` on the command line: usage, the exit codes of its errors (docs/errors.md), a
 * change applied and applied again (nothing to do), and an update refused while another one runs.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importHistory } from '../../store/import-history.js';
import { workDirRoot } from '../../store/work-dir.js';
import { splitHistory } from '../../testing/split-history.js';
import { REPO_ROOT, TEST_DATA } from '../../testing/test-data.js';
import { EXIT_CODES } from '../exit-codes.js';

const MAIN = join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js');
const maphist = (...args: string[]) => spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8' });

describe('maphist update', { timeout: 300_000 }, () => {
  let dir: string;
  let db: string;
  let change: string;
  let history: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'maphist-update-cli-'));
    history = join(dir, 'part.osh.pbf');
    change = join(dir, 'rest.osc.gz');
    await splitHistory({
      input: join(TEST_DATA, 'conformance', 'andorra-small.osh.pbf'),
      history,
      changes: [change],
      cuts: [Date.UTC(2016, 5, 1) / 1000],
    });
    db = join(dir, 'store.duckdb');
    await importHistory({ input: history, db });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('without a change file prints its usage (exit 2)', () => {
    const r = maphist('update', '--db', db);
    assert.equal(r.status, EXIT_CODES.CLI_USAGE);
    assert.match(r.stderr, /usage: maphist update/);
  });

  it('refuses a missing database (exit 7), a missing file (3) and a history file (4), and leaves the store alone', () => {
    const before = statSync(db).mtimeMs;
    assert.equal(maphist('update', '--db', join(dir, 'none.duckdb'), change).status, EXIT_CODES.DB_NOT_FOUND);
    assert.equal(maphist('update', '--db', db, join(dir, 'none.osc')).status, EXIT_CODES.INPUT_NOT_FOUND);
    const r = maphist('update', '--db', db, history);
    assert.equal(r.status, EXIT_CODES.INPUT_NOT_OSM);
    assert.match(r.stderr, /OsmChange/);
    assert.equal(statSync(db).mtimeMs, before);
  });

  it('refuses to run beside another update of the same database (exit 14)', () => {
    // A work directory of a running process (this test's) named as an update's.
    const other = join(workDirRoot(db), `update-${process.pid}`);
    mkdirSync(other, { recursive: true });
    try {
      const r = maphist('update', '--db', db, change);
      assert.equal(r.status, EXIT_CODES.DB_BUSY, r.stderr);
      assert.match(r.stderr, /Another maphist update/);
    } finally {
      rmSync(workDirRoot(db), { recursive: true, force: true });
    }
  });

  it('applies a change, and applying it again does nothing', () => {
    const r = maphist('update', '--db', db, change);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^updated .* from 1 change file\(s\): \d+ new versions of \d+ \(0 already there\), rebuilt \d+ nodes, \d+ ways, \d+ relations/);
    const again = maphist('update', '--db', db, change);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /already has all \d+ versions of the change file\(s\): nothing to do/);
  });
});
