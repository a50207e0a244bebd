/**
 * The `maphist` command as a user runs it: a child process, its exit code and its output.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TESTCASES_DIR } from '../testing/test-data.js';

const MAIN = join(process.cwd(), 'dist', 'src', 'cli', 'main.js');
const HANDMADE = join(TESTCASES_DIR, 'handmade', 'history-small.osh.pbf');

function maphist(...args: string[]) {
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('maphist import', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'maphist-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('imports a history and prints the summary line', () => {
    const db = join(dir, 'ok.duckdb');
    const r = maphist('import', HANDMADE, '--db', db);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /28 versions read, 29 rows written, [\d.]+ s .*peak RSS \d+ MB/);
    assert.ok(existsSync(db));
  });

  it('a missing input file: exit 3, says which file', () => {
    const r = maphist('import', join(dir, 'nope.osh.pbf'), '--db', join(dir, 'x.duckdb'));
    assert.equal(r.code, 3);
    assert.match(r.stderr, /nope\.osh\.pbf/);
    assert.ok(!existsSync(join(dir, 'x.duckdb')));
  });

  it('a truncated PBF: exit 5, and the previous database is left untouched', () => {
    const db = join(dir, 'keep.duckdb');
    assert.equal(maphist('import', HANDMADE, '--db', db).code, 0);
    const before = readFileSync(db);
    const whole = readFileSync(HANDMADE);
    const truncated = join(dir, 'truncated.osh.pbf');
    writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length * 0.7)));
    const r = maphist('import', truncated, '--db', db);
    assert.equal(r.code, 5, r.stderr);
    assert.match(r.stderr, /truncated|ends/i);
    assert.deepEqual(readFileSync(db), before);
  });

  it('a file that is not OSM data: exit 4', () => {
    const notOsm = join(dir, 'notes.osh.pbf');
    writeFileSync(notOsm, '{"this": "is json, not OSM"}\n');
    const r = maphist('import', notOsm, '--db', join(dir, 'y.duckdb'));
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /not an OSM/i);
  });

  it('a bad command line: exit 2 with the usage', () => {
    assert.equal(maphist('import').code, 2);
    assert.equal(maphist('frobnicate').code, 2);
    assert.equal(maphist('import', HANDMADE, '--workers', 'zero').code, 2);
  });
});

describe('maphist sql', () => {
  let dir: string;
  let db: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'maphist-sql-'));
    db = join(dir, 'h.duckdb');
    assert.equal(maphist('import', HANDMADE, '--db', db).code, 0);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prints CSV by default', () => {
    const r = maphist('sql', '--db', db, 'SELECT type, count(*) AS n FROM contributions WHERE minor_version = 0 GROUP BY type ORDER BY type');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'type,n\nnode,20\nrelation,2\nway,6\n');
  });

  it('prints a JSON array of row objects with --json', () => {
    const r = maphist('sql', '--db', db, '--json', "SELECT id, tags FROM contributions WHERE type = 'node' AND id = 5 AND version = 2");
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), [{ id: 5, tags: { amenity: 'bench', backrest: 'yes' } }]);
  });

  it('a failing query or a missing database: clear message, non-zero exit', () => {
    const bad = maphist('sql', '--db', db, 'SELEKT 1');
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /query failed/);
    const missing = maphist('sql', '--db', join(dir, 'none.duckdb'), 'SELECT 1');
    assert.equal(missing.code, 7);
    assert.match(missing.stderr, /maphist import/);
  });

  describe('the sandbox (SECURITY.md)', () => {
    let local: string;
    before(() => {
      local = join(dir, 'local.csv');
      writeFileSync(local, 'a,b\n1,2\n');
    });
    const refused = (query: string, ...flags: string[]) => {
      const r = maphist('sql', '--db', db, ...flags, query);
      assert.equal(r.code, 13, `${query}: exit ${r.code}, ${r.stderr}`);
      assert.match(r.stderr, /^maphist sql: the query was refused \(.*\): .+\n$/, query);
      assert.equal(r.stdout, '', query);
      return r;
    };
    const sq = (p: string) => `'${p.replace(/'/g, "''")}'`;

    it('refuses COPY … TO, file reads, ATTACH, extensions and setting the sandbox back', () => {
      const out = join(dir, 'out.csv');
      refused(`COPY (SELECT 1) TO ${sq(out)}`);
      assert.ok(!existsSync(out), 'COPY wrote no file');
      assert.match(refused("SELECT * FROM read_text('/etc/passwd')").stderr, /\/etc\/passwd.*disabled|disabled.*\/etc\/passwd/);
      refused(`SELECT * FROM read_csv(${sq(local)})`);
      refused(`SELECT * FROM ${sq(local)}`);
      refused("SELECT * FROM glob('/etc/*')");
      refused(`EXPORT DATABASE ${sq(join(dir, 'export'))}`);
      refused(`ATTACH ${sq(join(dir, 'other.duckdb'))} AS other`);
      assert.ok(!existsSync(join(dir, 'other.duckdb')), 'ATTACH created no database');
      refused('INSTALL spatial');
      refused('LOAD spatial');
      refused('SET enable_external_access = true');
      refused('SET lock_configuration = false');
      refused("SET allowed_directories = ['/']");
      refused('CREATE TABLE t AS SELECT 1 AS x');
      refused('DELETE FROM states');
    });

    it('a query on the contributions view works inside it', () => {
      const r = maphist('sql', '--db', db, "SELECT count(*) AS n, current_setting('enable_external_access') AS external FROM contributions");
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'n,external\n29,false\n');
    });

    it('--allow-files reads and writes local files, still loads and installs no extension', () => {
      const r = maphist('sql', '--db', db, '--allow-files', `SELECT a + b AS s FROM read_csv(${sq(local)})`);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 's\n3\n');
      const out = join(dir, 'allowed.csv');
      assert.equal(maphist('sql', '--db', db, '--allow-files', `COPY (SELECT 7 AS x) TO ${sq(out)}`).code, 0);
      assert.equal(readFileSync(out, 'utf8'), 'x\n7\n');
      refused('LOAD spatial', '--allow-files');
      refused('SET enable_external_access = true', '--allow-files');
      refused('CREATE TABLE t AS SELECT 1 AS x', '--allow-files');
      const install = maphist('sql', '--db', db, '--allow-files', 'INSTALL spatial');
      assert.notEqual(install.code, 0);
      assert.doesNotMatch(install.stderr, /download/i, 'INSTALL fails before it downloads');
    });
  });
});

describe('package.json entry points', () => {
  it('bin and the start script name the compiled CLI (npm install && npm start)', () => {
    const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { bin: Record<string, string>; scripts: Record<string, string> };
    assert.ok(existsSync(join(process.cwd(), pkg.bin.maphist)), pkg.bin.maphist);
    const start = /node (\S+) start/.exec(pkg.scripts.start);
    assert.ok(start && existsSync(join(process.cwd(), start[1])), pkg.scripts.start);
  });
});
