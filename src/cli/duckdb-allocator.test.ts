import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DUCKDB_ALLOCATOR_DEFAULT, DUCKDB_ALLOCATOR_ENV, DUCKDB_ALLOCATOR_SERVER_DEFAULT, duckDbAllocatorConf } from './duckdb-allocator.js';
import { TESTCASES_DIR } from '../testing/test-data.js';

const MAIN = join(process.cwd(), 'dist', 'src', 'cli', 'main.js');
const HANDMADE = join(TESTCASES_DIR, 'handmade', 'history-small.osh.pbf');

test('maphist adds its allocator default only when the user set none', () => {
  assert.equal(duckDbAllocatorConf({ PATH: '/bin' }, 'import'), DUCKDB_ALLOCATOR_DEFAULT);
  assert.equal(duckDbAllocatorConf({ PATH: '/bin' }, undefined), DUCKDB_ALLOCATOR_DEFAULT);
  assert.equal(duckDbAllocatorConf({ [DUCKDB_ALLOCATOR_ENV]: 'narenas:4' }, 'serve'), 'narenas:4');
  assert.equal(duckDbAllocatorConf({ [DUCKDB_ALLOCATOR_ENV]: '' }, 'import'), '');
});

test('a server keeps freed pages longer than the other commands', () => {
  for (const command of ['serve', 'start']) assert.equal(duckDbAllocatorConf({}, command), DUCKDB_ALLOCATOR_SERVER_DEFAULT);
  assert.match(DUCKDB_ALLOCATOR_SERVER_DEFAULT, /^narenas:1,dirty_decay_ms:10000,muzzy_decay_ms:10000$/);
});

test('the configuration main.ts puts in the environment reaches DuckDB (it is set before DuckDB loads)', () => {
  // stats_print makes jemalloc print its options at exit (stats_print_opts leaves out all but the general section).
  // The server's configuration (the default's options and the decays): jemalloc takes every one of them.
  const env = { ...process.env, [DUCKDB_ALLOCATOR_ENV]: `${DUCKDB_ALLOCATOR_SERVER_DEFAULT},stats_print:true,stats_print_opts:mdablxe` };
  const dir = mkdtempSync(join(tmpdir(), 'maphist-allocator-'));
  try {
    const r = spawnSync(process.execPath, [MAIN, 'import', HANDMADE, '--db', join(dir, 'h.duckdb')], { encoding: 'utf8', env });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout + r.stderr, /opt\.narenas: 1\b/);
    assert.match(r.stdout + r.stderr, /opt\.dirty_decay_ms: 10000\b/);
    assert.match(r.stdout + r.stderr, /opt\.muzzy_decay_ms: 10000\b/);
    assert.doesNotMatch(r.stdout + r.stderr, /Invalid conf/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
