/**
 * Faults of the writing commands, as a user meets them (issue 17, part 5): an import killed outright
 * leaves its temporary files, which the next import removes, and the previous database answers
 * throughout; SIGTERM and SIGINT remove them at once and exit with the documented code.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { FOUR_COUNTRIES, TEST_DATA, TESTCASES_DIR } from '../testing/test-data.js';
import { workDirRoot } from '../store/work-dir.js';
import { EXIT_SIGINT, EXIT_SIGTERM } from './exit-codes.js';

const MAIN = join(process.cwd(), 'dist', 'src', 'cli', 'main.js');
const HANDMADE = join(TESTCASES_DIR, 'handmade', 'history-small.osh.pbf');

function maphist(...args: string[]) {
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every file under `dir`, relative, recursively (hidden ones too). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? (e as unknown as { path: string }).path, e.name).slice(dir.length + 1))
    .sort();
}

/** Starts importing the 4-country file into `db` and resolves once its new database exists in its work directory (the build under way). */
async function importUnderway(db: string): Promise<{ child: ChildProcess; exited: Promise<{ code: number | null; signal: string | null; stderr: string }> }> {
  const child = spawn(process.execPath, [MAIN, 'import', FOUR_COUNTRIES, '--db', db], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  const exited = new Promise<{ code: number | null; signal: string | null; stderr: string }>((done) =>
    child.on('exit', (code, signal) => done({ code, signal, stderr })),
  );
  const building = join(workDirRoot(db), `import-${child.pid}`, basename(db));
  const deadline = Date.now() + 180_000;
  while (!existsSync(building)) {
    if (child.exitCode !== null) assert.fail(`the import ended before its new database existed: ${stderr}`);
    if (Date.now() > deadline) assert.fail('no new database in the work directory after 180 s');
    await sleep(50);
  }
  return { child, exited };
}

/** The previous database (the handmade history) still opens and answers. */
function assertPreviousAnswers(db: string): void {
  const r = maphist('sql', '--db', db, 'SELECT count(*) AS n FROM contributions');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'n\n29\n');
}

describe('temporary files of an import', () => {
  let dir: string;
  let db: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'maphist-faults-'));
    db = join(dir, 'h.duckdb');
    assert.equal(maphist('import', HANDMADE, '--db', db).code, 0);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('are all in one directory beside the database, gone after a successful import', () => {
    assert.deepEqual(filesUnder(dir), ['h.duckdb']);
  });

  it('killed with SIGKILL: the previous database answers, the next import removes what was left', async () => {
    const { child, exited } = await importUnderway(db);
    child.kill('SIGKILL');
    assert.equal((await exited).signal, 'SIGKILL');
    const left = filesUnder(dir);
    assert.ok(left.includes(join('.h.duckdb.maphist-tmp', `import-${child.pid}`, 'h.duckdb')), `the kill left files: ${left}`);
    assert.ok(
      left.every((f) => f === 'h.duckdb' || f.startsWith('.h.duckdb.maphist-tmp/')),
      `every temporary file in one directory: ${left}`,
    );
    assertPreviousAnswers(db);
    assert.equal(maphist('import', HANDMADE, '--db', db).code, 0);
    assert.deepEqual(filesUnder(dir), ['h.duckdb'], "the second import removed the killed one's files");
    assert.ok(!existsSync(workDirRoot(db)));
    assertPreviousAnswers(db);
  });

  for (const [signal, code] of [
    ['SIGTERM', EXIT_SIGTERM],
    ['SIGINT', EXIT_SIGINT],
  ] as const) {
    it(`stopped by ${signal}: exits ${code}, leaves no temporary file, the previous database answers`, async () => {
      const { child, exited } = await importUnderway(db);
      child.kill(signal);
      const end = await exited;
      // Ended by the signal itself (the shell's status: 128 + its number), or with that code.
      assert.ok(end.signal === signal || end.code === code, `ended with code ${end.code}, signal ${end.signal}: ${end.stderr}`);
      assert.match(end.stderr, new RegExp(`^maphist import: stopped by ${signal}; its temporary files are removed\\n$`));
      assert.deepEqual(filesUnder(dir), ['h.duckdb']);
      assertPreviousAnswers(db);
    });
  }
});

/**
 * A real full disk: a 16 MB tmpfs (needs root, as CI runs; skipped with the reason otherwise).
 * The import fails in the node store (Node's ENOSPC), the changeset load in DuckDB's write.
 */
function mountTmpfs(dir: string, size: string): string | undefined {
  if (process.getuid?.() !== 0) return 'mounting a small tmpfs needs root';
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' });
  return r.status === 0 ? undefined : `mount -t tmpfs failed: ${(r.stderr || r.error?.message || '').trim()}`;
}

describe('a full disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'maphist-full-'));
  const mnt = join(dir, 'mnt');
  mkdirSync(mnt);
  const skip = mountTmpfs(mnt, '16m');
  const db = join(mnt, 'h.duckdb');
  after(() => {
    if (!skip) spawnSync('umount', [mnt]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('import: exit 12, one line naming the directory and the space needed, previous database intact', { skip }, () => {
    assert.equal(maphist('import', HANDMADE, '--db', db).code, 0);
    const before = readFileSync(db);
    const r = maphist('import', FOUR_COUNTRIES, '--db', db);
    assert.equal(r.code, 12, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(
        `^maphist import: cannot write to ${mnt}: the disk is full \\(maphist import needs about 1\\.2 GB there, \\d+ [kM]B free now\\); the previous database is unchanged\\. .*No space left on device.*\\)\\n$`,
        'i',
      ),
    );
    assert.deepEqual(filesUnder(mnt), ['h.duckdb'], 'no temporary file left');
    assert.deepEqual(readFileSync(db), before);
    assertPreviousAnswers(db);
  });

  it("changesets import: DuckDB's write fails, exit 12 with one line, the database unchanged", { skip }, () => {
    if (!existsSync(db)) assert.equal(maphist('import', HANDMADE, '--db', db).code, 0);
    const before = readFileSync(db);
    // Fill the file system, then give the load nothing to write into.
    const filler = join(mnt, 'filler');
    const block = Buffer.alloc(1 << 20);
    try {
      for (let i = 0; i < 64; i++) writeFileSync(filler, block, { flag: 'a' });
    } catch (e) {
      assert.equal((e as NodeJS.ErrnoException).code, 'ENOSPC');
    }
    const r = maphist('changesets', 'import', join(TEST_DATA, 'changesets', 'handmade-changesets.osm'), '--db', db);
    rmSync(filler);
    assert.equal(r.code, 12, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(`^maphist changesets: cannot write to ${mnt}: the disk is full \\(\\d+ kB free now\\); the database is unchanged\\. [^\\n]*\\n$`),
    );
    assert.deepEqual(filesUnder(mnt), ['h.duckdb']);
    assert.deepEqual(readFileSync(db), before);
    assertPreviousAnswers(db);
  });
});
