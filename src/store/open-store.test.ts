import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from './open-store.js';
import { importToTemp, SHARED_DATA } from './test-support.js';

const spillDirs = () => readdirSync(tmpdir()).filter((n) => n.startsWith(`maphist-duckdb-${process.pid}-`));

test('close() removes both spill directories at once, the streaming instance\'s too', async () => {
  const db = await importToTemp(join(SHARED_DATA, 'testcases', 'handmade', 'history-small.osh.pbf'));
  try {
    const store = await openStore(db.store.path);
    const con = await store.connectStreaming();
    // A sort bigger than the instance's 64 MB: DuckDB spills into the streaming spill directory.
    const result = await con.stream("SELECT repeat('x', 100) || i AS p FROM range(2000000) t(i) ORDER BY p DESC");
    while (((await result.fetchChunk())?.rowCount ?? 0) > 0);
    con.closeSync();
    assert.ok(spillDirs().some((n) => n.endsWith('-streaming')), 'the streaming instance spilled (else the test shows nothing)');
    store.close();
    // Checked right away: `maphist serve` exits straight after close() on SIGTERM.
    assert.deepEqual(spillDirs().filter((n) => !n.startsWith(`maphist-duckdb-${process.pid}-1`)), []);
  } finally {
    db.dispose();
  }
});
