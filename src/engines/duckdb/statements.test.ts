import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import type { Store } from '../../store/open-store.js';
import { setImmediate as immediate } from 'node:timers/promises';
import type { Pause } from '../../core/yielding.js';
import { readColumns, readRecords, streamRows } from './statements.js';
import { statement } from '../sql/statement.js';

/** A store whose connections all go to one small in-memory instance (only what streamRows uses). */
async function smallStore(): Promise<{ store: Store; usedBytes: () => Promise<number>; close: () => void }> {
  const instance = await DuckDBInstance.create(':memory:', { memory_limit: '64MB', threads: '1' });
  const store = { connect: () => instance.connect(), connectStreaming: () => instance.connect() } as unknown as Store;
  const usedBytes = async () => {
    const con = await instance.connect();
    const rows = (await con.runAndReadAll('SELECT sum(memory_usage_bytes)::DOUBLE FROM duckdb_memory()')).getRowsJS();
    con.closeSync();
    return rows[0][0] as number;
  };
  return { store, usedBytes, close: () => instance.closeSync() };
}

const BIG_SORT = "SELECT i, repeat('x', 60) || i AS payload FROM range(400000) t(i) ORDER BY i DESC";

test('a streamed query ended early releases its memory at once, not when its result is garbage collected', async () => {
  const { store, usedBytes, close } = await smallStore();
  try {
    const idle = await usedBytes();
    const rows = streamRows(store, BIG_SORT, { spilling: true });
    const first = await rows.next();
    assert.equal(first.done, false);
    assert.ok((await usedBytes()) > idle + 8 * 2 ** 20, 'the sort holds memory while streaming');
    await rows.return(undefined);
    const after = await usedBytes();
    assert.ok(after < idle + 4 * 2 ** 20, `after the early end DuckDB still holds ${((after - idle) / 2 ** 20).toFixed(1)} MB`);
    // And the same statement runs again to its end in the same small memory.
    let n = 0;
    for await (const chunk of streamRows(store, BIG_SORT, { spilling: true })) n += chunk.length;
    assert.equal(n, 400000);
  } finally {
    close();
  }
});

test('an aborted signal ends the stream with its reason and releases the memory', async () => {
  const { store, usedBytes, close } = await smallStore();
  try {
    const idle = await usedBytes();
    const controller = new AbortController();
    const reason = new Error('client gone');
    const rows = streamRows(store, BIG_SORT, { spilling: true, signal: controller.signal });
    await rows.next();
    controller.abort(reason);
    await assert.rejects(rows.next(), (e) => e === reason);
    assert.ok((await usedBytes()) < idle + 4 * 2 ** 20);
  } finally {
    close();
  }
});

test('readRecords reads rows by the declared column names, and refuses a statement whose columns drifted', async () => {
  const { store, close } = await smallStore();
  try {
    const rows = await readRecords<{ k: number; name: string }>(
      store,
      statement("SELECT i::INTEGER AS k, 'n' || i AS name FROM range(3) t(i) ORDER BY i", ['k', 'name']),
      undefined,
    );
    assert.deepEqual(rows, [
      { k: 0, name: 'n0' },
      { k: 1, name: 'n1' },
      { k: 2, name: 'n2' },
    ]);
    // Declared in another order, or a column renamed: an error naming both lists, not swapped values.
    await assert.rejects(
      readRecords(store, statement<{ k: number; name: string }>('SELECT 1 AS k, 2 AS name', ['name', 'k']), undefined),
      /\(k, name\) are not the declared ones \(name, k\)/,
    );
    await assert.rejects(readRecords(store, statement<{ k: number }>('SELECT 1 AS key', ['k']), undefined), /not the declared ones/);
    const columns = await readColumns<{ k: number; name: string }>(
      store,
      statement("SELECT i::INTEGER AS k, 'n' || i AS name FROM range(3000) t(i) ORDER BY i", ['k', 'name']),
      undefined,
    );
    assert.equal(columns.rowCount, 3000);
    assert.equal(columns.k.length, 3000);
    assert.deepEqual([columns.k[2999], columns.name[2999]], [2999, 'n2999']);
    await assert.rejects(readColumns(store, statement<{ k: number }>('SELECT 1 AS key', ['k']), undefined), /not the declared ones/);
  } finally {
    close();
  }
});

test('readRecords and readColumns convert a big result chunk by chunk, asking for a turn after each, and keep its order', async () => {
  const { store, close } = await smallStore();
  try {
    // About 100 chunks of 2,048 rows with blobs: converted in one stretch before, the event loop
    // waited for all of them (the fuzzer's slow probes).
    const sql = statement<{ k: number; b: Uint8Array }>("SELECT i::INTEGER AS k, repeat('ab', 200)::BLOB AS b FROM range(200000) t(i) ORDER BY i", ['k', 'b']);
    for (const read of [(p: Pause) => readRecords(store, sql, undefined, false, p), (p: Pause) => readColumns(store, sql, undefined, false, p)]) {
      let asked = 0;
      const out = await read(() => {
        asked++;
        return immediate();
      });
      const converted = Array.isArray(out) ? out.length : out.rowCount;
      const ks = Array.isArray(out) ? out.map((r) => r.k) : out.k;
      assert.equal(converted, 200000);
      assert.ok(
        ks.every((k, i) => k === i),
        'rows in order',
      );
      assert.ok(asked >= Math.floor(200000 / 2048), `a turn was asked ${asked} times`);
      assert.equal((Array.isArray(out) ? out[7].b : out.b[7]).length, 400);
    }
  } finally {
    close();
  }
});

test('readColumns gives the values readRecords gives, plain numbers and booleans (read as they are) and converted types, NULLs included', async () => {
  const { store, close } = await smallStore();
  try {
    const columns = ['b', 'ti', 'si', 'i', 'ut', 'us', 'ui', 'f', 'd', 'big', 'blob', 'list'] as const;
    // 3,000 rows: more than one chunk; every fifth row all NULL.
    const st = statement<Record<(typeof columns)[number], unknown>>(
      `SELECT CASE WHEN n % 5 = 0 THEN NULL ELSE n % 2 = 0 END AS b, (n % 100 - 50)::TINYINT AS ti, (n - 1500)::SMALLINT AS si,
              CASE WHEN n % 5 = 0 THEN NULL ELSE (n * 7919 - 10000000)::INTEGER END AS i, (n % 256)::UTINYINT AS ut, n::USMALLINT AS us,
              (n * 1000003)::UINTEGER AS ui, CASE WHEN n % 5 = 0 THEN NULL ELSE (n / 3)::FLOAT END AS f,
              CASE WHEN n % 5 = 0 THEN NULL ELSE n / 7 - 1e300 * (n % 2) END AS d, n::BIGINT AS big,
              CASE WHEN n % 5 = 0 THEN NULL ELSE ('x' || n)::BLOB END AS blob, CASE WHEN n % 5 = 0 THEN NULL ELSE [n, n + 1] END AS list
       FROM range(3000) t(n) ORDER BY n`,
      columns,
    );
    const records = await readRecords(store, st, undefined);
    const byColumn = await readColumns(store, st, undefined);
    assert.equal(byColumn.rowCount, 3000);
    for (const c of columns)
      assert.deepEqual(
        byColumn[c],
        records.map((r) => r[c]),
        c,
      );
    assert.equal(records[5].b, null);
    assert.equal(records[6].b, true);
    assert.equal(typeof records[6].d, 'number');
  } finally {
    close();
  }
});
