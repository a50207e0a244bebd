/**
 * The temporary directory of a database (work-dir.ts): runs of processes no longer running are
 * removed at the next import, changesets import or server start; a running one's are kept.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_DATA, TESTCASES_DIR } from '../testing/test-data.js';
import { importChangesets } from './changesets.js';
import { importHistory } from './import-history.js';
import { openStore } from './open-store.js';
import { createWorkDir, processRunning, removeStaleWorkDirs, workDirRoot } from './work-dir.js';

const HISTORY = join(TESTCASES_DIR, 'handmade', 'history-small.osh.pbf');

/** The pid of a process that has ended. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '']);
  assert.ok(r.pid && !processRunning(r.pid));
  return r.pid;
}

/** Leaves what a killed run would: its directory with a file in it. */
function leave(db: string, name: string): string {
  const path = join(workDirRoot(db), name);
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, 'staging.duckdb'), 'left by a killed run');
  return path;
}

describe('work directories', () => {
  let dir: string;
  let db: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'maphist-workdir-'));
    db = join(dir, 'h.duckdb');
    await importHistory({ input: HISTORY, db });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('live beside the database in .<name>.maphist-tmp/<purpose>-<pid>, removed with the directory', () => {
    const work = createWorkDir(db, 'update');
    assert.equal(work.path, join(dir, '.h.duckdb.maphist-tmp', `update-${process.pid}`));
    writeFileSync(join(work.path, 'x'), 'x');
    work.remove();
    assert.deepEqual(readdirSync(dir), ['h.duckdb']);
  });

  it("a dead process's are removed, a running one's kept, and the old importing files of dead imports", () => {
    const dead = leave(db, `import-${deadPid()}`);
    const live = leave(db, `changesets-${process.ppid}`);
    const legacy = join(dir, `.h.duckdb.importing-${deadPid()}`);
    writeFileSync(legacy, 'left by a killed import of an older maphist');
    writeFileSync(`${legacy}.wal`, '');
    const liveLegacy = join(dir, `.h.duckdb.importing-${process.ppid}`);
    writeFileSync(liveLegacy, 'an import running now');
    assert.deepEqual(removeStaleWorkDirs(db).sort(), [dead, legacy, `${legacy}.wal`].sort());
    assert.ok(existsSync(live) && existsSync(liveLegacy));
    rmSync(workDirRoot(db), { recursive: true });
    rmSync(liveLegacy);
  });

  it("the server's start (openStore) and a changesets import remove what killed runs left", async () => {
    leave(db, `import-${deadPid()}`);
    const store = await openStore(db);
    store.close();
    assert.deepEqual(readdirSync(dir), ['h.duckdb']);
    leave(db, `changesets-${deadPid()}`);
    const r = await importChangesets(db, join(TEST_DATA, 'changesets', 'handmade-changesets.osm'));
    assert.ok(r.kept > 0);
    assert.deepEqual(readdirSync(dir), ['h.duckdb'], 'and leaves nothing of its own');
  });

  it('an import with changesets leaves nothing beside the database', async () => {
    await importHistory({ input: HISTORY, db, changesets: join(TEST_DATA, 'changesets', 'handmade-changesets.osm') });
    assert.deepEqual(readdirSync(dir), ['h.duckdb']);
  });
});
