/**
 * Writing a database where the file system refuses it: STORE_WRITE_FAILED with a message that says
 * what to fix, exit code 12, and nothing left behind. Provoked for real (a --db path under a
 * regular file; a directory without write permission when the tests do not run as root, for whom
 * permissions do not apply) and, for the failures a test cannot cause on this machine (a full
 * disk), from the texts Node and DuckDB report them with.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { isMaphistError, MaphistError } from '../core/errors.js';
import { EXIT_CODES } from '../cli/exit-codes.js';
import { REPO_ROOT, TESTCASES_DIR } from '../testing/test-data.js';
import { importHistory } from './import-history.js';
import { asWriteFailure } from './write-failure.js';

const MAIN = join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js');
const HANDMADE = join(TESTCASES_DIR, 'handmade', 'history-small.osh.pbf');

function assertWriteFailure(e: unknown, fix: RegExp): true {
  assert.ok(isMaphistError(e), String(e));
  assert.equal(e.code, 'STORE_WRITE_FAILED');
  assert.match(e.message, fix);
  assert.ok(e.cause !== undefined, 'the original failure is kept as the cause');
  return true;
}

describe('importing where the database cannot be written', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'maphist-write-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a --db path under a regular file: STORE_WRITE_FAILED naming the path', async () => {
    const file = join(dir, 'plain-file');
    writeFileSync(file, 'not a directory');
    const db = join(file, 'x.duckdb');
    await assert.rejects(importHistory({ input: HANDMADE, db }), (e) => assertWriteFailure(e, /plain-file.*not a directory: choose another --db path/));
  });

  it('a --db path in a missing directory: STORE_WRITE_FAILED, create it', async () => {
    await assert.rejects(importHistory({ input: HANDMADE, db: join(dir, 'missing', 'x.duckdb') }), (e) => assertWriteFailure(e, /does not exist: create it/));
  });

  it('the command line: exit code 12, the message on standard error, nothing left behind', () => {
    const file = join(dir, 'plain-file-2');
    writeFileSync(file, '');
    const r = spawnSync(process.execPath, [MAIN, 'import', HANDMADE, '--db', join(file, 'x.duckdb')], { encoding: 'utf8' });
    assert.equal(r.status, 12, r.stderr);
    assert.equal(r.status, EXIT_CODES.STORE_WRITE_FAILED);
    assert.match(r.stderr, /^maphist import: Cannot write the database .*plain-file-2/);
    assert.doesNotMatch(r.stderr, /internal error/);
  });

  it('a directory without write permission: STORE_WRITE_FAILED, no permission (not as root)', {
    skip: process.getuid?.() === 0 ? 'root may write anywhere' : false,
  }, async () => {
    const locked = join(dir, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o555);
    try {
      await assert.rejects(importHistory({ input: HANDMADE, db: join(locked, 'x.duckdb') }), (e) => assertWriteFailure(e, /no permission/));
      assert.deepEqual(readdirSync(locked), []);
    } finally {
      chmodSync(locked, 0o755);
    }
  });
});

describe('asWriteFailure: the failures of writing, by Node code and by DuckDB text', () => {
  const errno = (code: string) => Object.assign(new Error(`${code}: failed, write '/data/x.duckdb'`), { code });

  for (const [code, fix] of [
    ['ENOSPC', /the disk is full: free space/],
    ['EDQUOT', /quota/],
    ['EACCES', /no permission/],
    ['EPERM', /no permission/],
    ['EROFS', /read-only: choose/],
    ['ENOENT', /does not exist/],
    ['ENOTDIR', /not a directory/],
  ] as const) {
    it(`Node's ${code}`, () => {
      const e = asWriteFailure(errno(code), '/data/x.duckdb');
      assertWriteFailure(e, fix);
      assert.match((e as MaphistError).message, /^Cannot write the database \/data\/x\.duckdb \(in \/data\)/);
    });
  }

  it("DuckDB's I/O errors, also as the writer thread reports them", () => {
    assertWriteFailure(
      asWriteFailure(new Error('IO Error: Could not write file "/data/.x.duckdb.importing-1": No space left on device'), '/data/x.duckdb'),
      /disk is full/,
    );
    assertWriteFailure(asWriteFailure(new Error('store writer: IO Error: Cannot open file "/data/x": Read-only file system'), '/data/x.duckdb'), /read-only/);
  });

  it('a real DuckDB failure to create a database under a regular file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'maphist-write-'));
    try {
      writeFileSync(join(dir, 'f'), '');
      const failure = await DuckDBInstance.create(join(dir, 'f', 'x.duckdb')).then(
        (i) => (i.closeSync(), undefined),
        (e: unknown) => e,
      );
      assert.ok(failure instanceof Error, 'DuckDB refuses the path');
      assertWriteFailure(asWriteFailure(failure, join(dir, 'f', 'x.duckdb')), /not a directory/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('anything else passes unchanged: coded errors, other failures', () => {
    const coded = new MaphistError('INPUT_CORRUPT', 'bad block');
    assert.equal(asWriteFailure(coded, '/x'), coded);
    const other = new Error('Binder Error: column x not found');
    assert.equal(asWriteFailure(other, '/x'), other);
    const missingInput = Object.assign(new Error('nope'), { code: 'EISDIR' });
    assert.equal(asWriteFailure(missingInput, '/x'), missingInput);
  });
});
