/**
 * Daily key usage reaches the keys file every few seconds and at shutdown (issue 17, part 5): a
 * fresh read of the keys file, as a restarted server does, finds it.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { keysCommand } from '../cli/commands/keys.js';
import { EXIT_OK } from '../cli/exit-codes.js';
import { importHistory } from '../store/import-history.js';
import { TESTCASES_DIR } from '../testing/test-data.js';
import { createApiKeyHook, FLUSH_INTERVAL_MS } from './api-key-hook.js';
import { keysDbPathFor, readKeys } from './key-store.js';

const MAIN = join(process.cwd(), 'dist', 'src', 'cli', 'main.js');

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'maphist-usage-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function createKey(keysDb: string): Promise<{ id: string; key: string }> {
  const lines: string[] = [];
  await keysCommand(['create', '--keys-db', keysDb], (l) => lines.push(l));
  return { id: /created key (k_[0-9a-f]+)/.exec(lines[0]!)![1]!, key: /^key: (mh_\S+)$/.exec(lines[1]!)![1]! };
}

describe('key usage persistence', () => {
  it(`is written within the flush interval (${FLUSH_INTERVAL_MS} ms) while the server runs, without a close`, async () => {
    assert.ok(FLUSH_INTERVAL_MS <= 5000, 'every few seconds');
    const keysDb = join(dir, 'interval.keys.duckdb');
    const { id, key } = await createKey(keysDb);
    const guard = await createApiKeyHook({ keysDbPath: keysDb });
    const app = Fastify();
    app.get('/stats', { onRequest: guard.hook }, async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/stats`;
      for (let i = 0; i < 3; i++) assert.equal((await fetch(url, { headers: { authorization: key } })).status, 200);
      const sent = performance.now();
      let used: number | undefined;
      while (used !== 3 && performance.now() - sent < FLUSH_INTERVAL_MS + 3000) {
        await sleep(100);
        used = (await readKeys(keysDb)).usage.get(id)?.used;
      }
      assert.equal(used, 3, 'a fresh read finds the usage before any close');
    } finally {
      await app.close();
      await guard.close();
    }
  });

  // Written at shutdown, or by the 2 s timer if the machine is slow: either way nothing counted is lost.
  it('maphist serve: what was counted up to SIGTERM is in the keys file after it exits', async () => {
    const db = join(dir, 'h.duckdb');
    await importHistory({ input: join(TESTCASES_DIR, 'handmade', 'history-small.osh.pbf'), db });
    const keysDb = keysDbPathFor(db);
    const { id, key } = await createKey(keysDb);
    const child = spawn(process.execPath, [MAIN, 'serve', '--db', db, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const base = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        const m = /maphist serving \S+ at (http:\/\/\S+) /.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`maphist serve exited with ${code}: ${out}`)));
    });
    // Requests that do their work count (a 4xx refusal would be given back: docs/api-keys.md).
    try {
      for (let i = 0; i < 4; i++) {
        const r = await fetch(`${base}/v2-rc/extraction/features.parquet?aoi=-180,-90,180,90&filter=*&time=latest`, { headers: { authorization: key } });
        await r.arrayBuffer();
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('x-ratelimit-remaining'), String(1000 - i - 1));
      }
    } catch (e) {
      child.kill('SIGKILL');
      throw e;
    }
    child.kill('SIGTERM');
    assert.equal(await exited, EXIT_OK, out);
    assert.equal((await readKeys(keysDb)).usage.get(id)?.used, 4, out);
  });
});
