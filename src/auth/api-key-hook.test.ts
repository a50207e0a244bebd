/**
 * The guard over real HTTP: a tiny Fastify app with one route behind the hook, keys made with the
 * CLI function, the limits' clock injected.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { LOGGER_OPTIONS } from '../api/server.js';
import { keysCommand } from '../cli/commands/keys.js';
import { hashApiKey } from './api-key.js';
import { createApiKeyHook, MESSAGES, type ApiKeyGuard } from './api-key-hook.js';
import { readKeys } from './key-store.js';

const T0 = Date.UTC(2026, 0, 1, 12);

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'maphist-keys-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** Creates a key with `maphist keys create` (the function) and returns its id and secret. */
async function createKey(keysDb: string, ...flags: string[]): Promise<{ id: string; key: string }> {
  const lines: string[] = [];
  await keysCommand(['create', '--keys-db', keysDb, ...flags], (l) => lines.push(l));
  const id = /created key (k_[0-9a-f]+)/.exec(lines[0]!)![1]!;
  const key = /^key: (mh_\S+)$/.exec(lines[1]!)![1]!;
  return { id, key };
}

interface Served {
  app: FastifyInstance;
  guard: ApiKeyGuard;
  /**
   * GET /stats; `invalid`: a request the route refuses before any work (422); `busy`: one the
   * server's admission refuses before any work (503, SERVER_BUSY: src/api/common/admission.ts).
   */
  get(key?: string, refused?: 'invalid' | 'busy'): Promise<Response>;
  close(): Promise<void>;
}

async function serveGuarded(keysDbPath: string, clock?: { t: number }, logStream?: Writable): Promise<Served> {
  const guard = await createApiKeyHook({ keysDbPath, now: clock ? () => clock.t : undefined, flushIntervalMs: 60_000 });
  const app = Fastify({ logger: logStream ? { ...LOGGER_OPTIONS, stream: logStream } : false });
  app.get('/stats', { onRequest: guard.hook }, async (request, reply) => {
    request.log.info({ headers: request.headers }, 'a careless log line with all headers');
    const query = request.query as { invalid?: string; busy?: string };
    if (query.invalid) return reply.code(422).send({ detail: [{ loc: ['query'], msg: 'invalid', type: 'value_error' }] });
    if (query.busy) return reply.code(503).header('retry-after', '1').send({ detail: 'busy' });
    return { ok: true };
  });
  app.get('/metadata', async () => ({ open: true }));
  app.options('/stats', { onRequest: guard.hook }, async (_request, reply) => reply.code(204).send());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    app,
    guard,
    get: (key, refused) => fetch(`${base}/stats${refused ? `?${refused}=1` : ''}`, { headers: key === undefined ? {} : { authorization: key } }),
    close: async () => {
      await app.close();
      await guard.close();
    },
  };
}

describe('API-key guard over HTTP', () => {
  it('no key: 401; unknown key: 403; a good key (raw or Bearer): 200 with the x-ratelimit headers; unguarded routes need none', async () => {
    const keysDb = join(dir, 'basic.keys.duckdb');
    const { key } = await createKey(keysDb);
    const clock = { t: T0 };
    const s = await serveGuarded(keysDb, clock);
    try {
      const none = await s.get();
      assert.equal(none.status, 401);
      assert.match(((await none.json()) as { detail: string }).detail, /^Missing API key/);
      const unknown = await s.get('mh_not-a-key');
      assert.equal(unknown.status, 403);
      assert.deepEqual(await unknown.json(), { detail: MESSAGES.invalid });
      const ok = await s.get(key);
      assert.equal(ok.status, 200);
      assert.deepEqual(await ok.json(), { ok: true });
      assert.equal(ok.headers.get('x-ratelimit-limit'), '1000');
      assert.equal(ok.headers.get('x-ratelimit-remaining'), '999');
      assert.equal(ok.headers.get('x-ratelimit-reset'), '86400');
      assert.equal(ok.headers.get('x-ratelimit-limit-minute'), '15');
      assert.equal(ok.headers.get('x-ratelimit-remaining-minute'), '14');
      clock.t += 1000;
      const bearer = await s.get(`Bearer ${key}`);
      assert.equal(bearer.status, 200);
      assert.equal(bearer.headers.get('x-ratelimit-remaining'), '998');
      assert.equal(bearer.headers.get('x-ratelimit-reset'), '86399');
      const open = await fetch(`http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}/metadata`);
      assert.equal(open.status, 200);
      const preflight = await fetch(`http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}/stats`, { method: 'OPTIONS' });
      assert.equal(preflight.status, 204, 'a CORS preflight needs no key');
    } finally {
      await s.close();
    }
  });

  it('the 16th request within a minute: 429 Rate Limit Exceeded with Retry-After', async () => {
    const keysDb = join(dir, 'minute.keys.duckdb');
    const { key } = await createKey(keysDb);
    const clock = { t: T0 };
    const s = await serveGuarded(keysDb, clock);
    try {
      for (let i = 0; i < 15; i++) {
        assert.equal((await s.get(key)).status, 200, `request ${i + 1}`);
        clock.t += 2000;
      }
      const r16 = await s.get(key);
      assert.equal(r16.status, 429);
      assert.deepEqual(await r16.json(), { detail: MESSAGES.rate });
      assert.equal(r16.headers.get('retry-after'), '30');
      assert.equal(r16.headers.get('x-ratelimit-remaining'), '985');
      clock.t = T0 + 60_000;
      assert.equal((await s.get(key)).status, 200, 'the first request left the window');
    } finally {
      await s.close();
    }
  });

  it('an exhausted daily quota: 429 Quota Exceeded with Retry-After, until 24 h after the first request', async () => {
    const keysDb = join(dir, 'daily.keys.duckdb');
    const { key } = await createKey(keysDb, '--daily-quota', '3');
    const clock = { t: T0 };
    const s = await serveGuarded(keysDb, clock);
    try {
      for (let i = 0; i < 3; i++) {
        assert.equal((await s.get(key)).status, 200);
        clock.t += 3_600_000;
      }
      const r4 = await s.get(key);
      assert.equal(r4.status, 429);
      assert.deepEqual(await r4.json(), { detail: MESSAGES.quota });
      assert.equal(r4.headers.get('x-ratelimit-remaining'), '0');
      assert.equal(r4.headers.get('x-ratelimit-reset'), String(86_400 - 3 * 3600));
      assert.equal(r4.headers.get('retry-after'), String(86_400 - 3 * 3600), 'when the daily window ends');
      clock.t = T0 + 24 * 3_600_000;
      assert.equal((await s.get(key)).status, 200);
    } finally {
      await s.close();
    }
  });

  it('requests refused before any work (4xx, 503 busy) use neither the daily quota nor the minute window', async () => {
    const keysDb = join(dir, 'refund.keys.duckdb');
    const { key, id } = await createKey(keysDb, '--daily-quota', '2', '--per-minute', '2');
    const clock = { t: T0 };
    const s = await serveGuarded(keysDb, clock);
    try {
      for (let i = 0; i < 5; i++) assert.equal((await s.get(key, 'invalid')).status, 422);
      for (let i = 0; i < 5; i++) assert.equal((await s.get(key, 'busy')).status, 503);
      assert.equal((await s.get(key)).status, 200, 'the 422s and 503s used no minute slot');
      const second = await s.get(key);
      assert.equal(second.status, 200, 'nor any of the daily quota');
      clock.t += 60_000;
      const third = await s.get(key);
      assert.equal(third.status, 429, 'two requests did their work: the quota of 2 is used up');
      assert.deepEqual(await third.json(), { detail: MESSAGES.quota });
      await s.guard.flush();
      assert.equal((await readKeys(keysDb)).usage.get(id)?.used, 2, 'the persisted usage counts the two');
    } finally {
      await s.close();
    }
  });

  it('revoke and set-quota with the CLI while the app runs: picked up by the reload', async () => {
    const keysDb = join(dir, 'revoke.keys.duckdb');
    const a = await createKey(keysDb, '--name', 'a');
    const b = await createKey(keysDb, '--name', 'b');
    const s = await serveGuarded(keysDb, { t: T0 });
    try {
      assert.equal((await s.get(a.key)).status, 200);
      assert.equal((await s.get(b.key)).status, 200);
      await keysCommand(['revoke', a.id, '--keys-db', keysDb], () => undefined);
      await keysCommand(['set-quota', b.id, '--daily-quota', '7', '--keys-db', keysDb], () => undefined);
      const c = await createKey(keysDb, '--name', 'c');
      let status = 200;
      for (let i = 0; i < 40 && status === 200; i++) {
        await sleep(100);
        status = (await s.get(a.key)).status;
      }
      assert.equal(status, 403, 'the revoked key is refused within a few seconds');
      const rb = await s.get(b.key);
      assert.equal(rb.headers.get('x-ratelimit-limit'), '7');
      assert.equal(rb.headers.get('x-ratelimit-remaining'), '5', 'usage counted before the change is kept');
      assert.equal((await s.get(c.key)).status, 200, 'a key created while running works');
    } finally {
      await s.close();
    }
  });

  it('daily usage survives a restart, and `keys list` shows it', async () => {
    const keysDb = join(dir, 'restart.keys.duckdb');
    const { id, key } = await createKey(keysDb, '--daily-quota', '5');
    const clock = { t: Date.now() };
    const first = await serveGuarded(keysDb, clock);
    for (let i = 0; i < 4; i++) assert.equal((await first.get(key)).status, 200);
    await first.close();
    const lines: string[] = [];
    await keysCommand(['list', '--keys-db', keysDb], (l) => lines.push(l));
    assert.match(lines.find((l) => l.startsWith(id))!, /\t5\t4$/);
    const second = await serveGuarded(keysDb, clock);
    try {
      const r5 = await second.get(key);
      assert.equal(r5.status, 200);
      assert.equal(r5.headers.get('x-ratelimit-remaining'), '0');
      assert.equal((await second.get(key)).status, 429, 'the quota used before the restart still counts');
    } finally {
      await second.close();
    }
  });

  it('keys are never in the keys file or the log in clear', async () => {
    const keysDb = join(dir, 'secret.keys.duckdb');
    const { key } = await createKey(keysDb, '--name', 'secret');
    let log = '';
    const stream = new Writable({
      write(chunk, _encoding, done) {
        log += String(chunk);
        done();
      },
    });
    const s = await serveGuarded(keysDb, undefined, stream);
    try {
      assert.equal((await s.get(key)).status, 200);
      assert.equal((await s.get(`${key}x`)).status, 403);
    } finally {
      await s.close();
    }
    assert.match(log, /"url":"\/stats"/, 'the requests were logged');
    assert.match(log, /\[redacted\]/, 'the header-dumping log line was redacted');
    const secret = key.slice(3);
    for (const needle of [key, secret, secret.slice(0, 16)]) assert.ok(!log.includes(needle), 'key in the log');
    assert.ok(readFileSync(keysDb).includes(Buffer.from(hashApiKey(key))), 'the search finds stored strings: the hash is there');
    for (const file of [keysDb, `${keysDb}.wal`]) {
      if (!existsSync(file)) continue;
      const bytes = readFileSync(file);
      const needles = [Buffer.from(key), Buffer.from(secret), Buffer.from(secret.slice(0, 16)), Buffer.from(secret, 'base64url')];
      for (const needle of needles) assert.equal(bytes.indexOf(needle), -1, `key bytes in ${file}`);
    }
  });
});
