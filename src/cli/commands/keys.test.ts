/** `maphist keys …` as a user runs it: child processes in a temporary directory. */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { hashApiKey } from '../../auth/api-key.js';
import { withKeysDb } from '../../auth/key-store.js';

const MAIN = join(process.cwd(), 'dist', 'src', 'cli', 'main.js');

function maphist(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', cwd });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('maphist keys', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'maphist-keys-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('create prints the key once; list, set-quota and revoke never show it or its hash', () => {
    const created = maphist(dir, 'keys', 'create', '--name', 'dashboard', '--per-minute', '30');
    assert.equal(created.code, 0, created.stderr);
    assert.ok(existsSync(join(dir, 'data', 'maphist.keys.duckdb')), 'the default keys file, beside the default --db');
    const key = /^key: (mh_[A-Za-z0-9_-]{43})$/m.exec(created.stdout)![1]!;
    const id = /created key (k_[0-9a-f]{12}) \(dashboard\)/.exec(created.stdout)![1]!;

    const quota = maphist(dir, 'keys', 'set-quota', id, '--daily-quota', '50');
    assert.equal(quota.code, 0, quota.stderr);
    const listed = maphist(dir, 'keys', 'list');
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`^${id}\\tdashboard\\t\\S+Z\\t-\\t30\\t50\\t0$`, 'm'));
    assert.equal(maphist(dir, 'keys', 'revoke', id).code, 0);
    const after = maphist(dir, 'keys', 'list');
    assert.match(after.stdout, new RegExp(`^${id}\\tdashboard\\t\\S+Z\\t\\S+Z\\t30\\t50\\t0$`, 'm'));
    for (const out of [quota.stdout, listed.stdout, after.stdout, listed.stderr]) {
      assert.ok(!out.includes(key.slice(3, 20)) && !out.includes(hashApiKey(key)));
    }
  });

  it('--db chooses the file beside another database; --keys-db names it', () => {
    assert.equal(maphist(dir, 'keys', 'create', '--db', join(dir, 'other', 'x.duckdb')).code, 0);
    assert.ok(existsSync(join(dir, 'other', 'x.keys.duckdb')));
    assert.equal(maphist(dir, 'keys', 'create', '--keys-db', join(dir, 'k.duckdb')).code, 0);
    assert.equal(maphist(dir, 'keys', 'list', '--keys-db', join(dir, 'k.duckdb')).stdout.trim().split('\n').length, 2);
  });

  it('usage errors exit 2; an unknown id exits 8', () => {
    for (const args of [
      ['keys'],
      ['keys', 'frobnicate'],
      ['keys', 'revoke'],
      ['keys', 'create', '--daily-quota', '0'],
      ['keys', 'set-quota', 'k_1'],
      ['keys', 'list', '--frob'],
    ]) {
      assert.equal(maphist(dir, ...args).code, 2, args.join(' '));
    }
    const r = maphist(dir, 'keys', 'revoke', 'k_000000000000');
    assert.equal(r.code, 8);
    assert.match(r.stderr, /no key with id k_000000000000/);
  });

  it('waits while another process holds the keys file (a running server writing usage)', async () => {
    const keysDb = join(dir, 'busy.keys.duckdb');
    assert.equal(maphist(dir, 'keys', 'create', '--keys-db', keysDb).code, 0);
    let released = 0;
    const holding = withKeysDb(keysDb, 'write', async () => {
      await sleep(2500);
      released = Date.now();
    });
    const child = spawn(process.execPath, [MAIN, 'keys', 'create', '--keys-db', keysDb], { stdio: 'pipe' });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const finished = Date.now();
    await holding;
    assert.equal(code, 0);
    assert.match(stdout, /^key: mh_/m);
    assert.ok(finished >= released, 'the CLI finished after the lock was released');
  });
});
