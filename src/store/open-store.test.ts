import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, removeStaleSpillDirectories } from './open-store.js';
import { importToTemp, TEST_DATA } from './test-support.js';

const spillDirs = () => readdirSync(tmpdir()).filter((n) => n.startsWith(`maphist-duckdb-${process.pid}-`));

test("close() removes both spill directories at once, the streaming instance's too", async () => {
  const db = await importToTemp(join(TEST_DATA, 'testcases', 'handmade', 'history-small.osh.pbf'));
  try {
    const store = await openStore(db.store.path);
    const con = await store.connectStreaming();
    // A sort bigger than the instance's 64 MB: DuckDB spills into the streaming spill directory.
    const result = await con.stream("SELECT repeat('x', 100) || i AS p FROM range(2000000) t(i) ORDER BY p DESC");
    while (((await result.fetchChunk())?.rowCount ?? 0) > 0);
    con.closeSync();
    assert.ok(
      spillDirs().some((n) => n.endsWith('-streaming')),
      'the streaming instance spilled (else the test shows nothing)',
    );
    store.close();
    // Checked right away: `maphist serve` exits straight after close() on SIGTERM.
    assert.deepEqual(
      spillDirs().filter((n) => !n.startsWith(`maphist-duckdb-${process.pid}-1`)),
      [],
    );
  } finally {
    db.dispose();
  }
});

test('spill directories of processes that are gone are removed; those of running ones are kept', () => {
  const dir = mkdtempSync(join(tmpdir(), 'maphist-spill-test-'));
  try {
    // A pid above the kernel's pid_max (4194304 at most) belongs to no process.
    const gone = ['maphist-duckdb-99999999-1', 'maphist-duckdb-99999999-1-streaming'];
    const alive = [`maphist-duckdb-${process.pid}-3`, `maphist-duckdb-${process.ppid}-1-streaming`];
    const other = ['maphist-duckdb-x-1', 'duckdb-99999999-1', 'maphist-test-99999999'];
    for (const name of [...gone, ...alive, ...other]) {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'block'), 'x');
    }
    assert.deepEqual(removeStaleSpillDirectories(dir).sort(), [...gone].sort());
    assert.deepEqual(readdirSync(dir).sort(), [...alive, ...other].sort());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
