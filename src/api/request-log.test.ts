/**
 * The request log over real HTTP: one line per request with method, path, status, duration and
 * bytes, in both formats; a streamed extraction is logged with every byte it sent; a client that
 * goes away mid-stream gives one line marked aborted, one that goes away before the answer starts
 * a line with 499. And `maphist serve` writes the lines.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { importToTemp, type ImportedDb } from '../store/test-support.js';
import { TESTCASES_DIR } from '../testing/test-data.js';
import type { QueryEngine } from '../query/model.js';
import { formatRequestLog, type RequestLogEntry } from './request-log.js';
import { createDuckDbServer as createServer } from '../testing/server.js';

const MAIN = join(process.cwd(), 'dist', 'src', 'cli', 'main.js');

/** Waits until `lines` has `n` entries (the line is written when the response closes). */
async function waitFor(lines: string[], n: number): Promise<void> {
  for (let i = 0; i < 200 && lines.length < n; i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(lines.length >= n, `${lines.length} lines, expected ${n}`);
}

describe('the request log', () => {
  let db: ImportedDb;
  let json: FastifyInstance;
  let text: FastifyInstance;
  let jsonBase: string;
  let textBase: string;
  const jsonLines: string[] = [];
  const textLines: string[] = [];
  before(async () => {
    db = await importToTemp(join(process.cwd(), 'sample', 'andorra.osh.pbf'));
    json = await createServer(db.store, { requestLog: { format: 'json', write: (l) => jsonLines.push(l) } });
    jsonBase = await json.listen({ port: 0, host: '127.0.0.1' });
    text = await createServer(db.store, { requestLog: { format: 'text', write: (l) => textLines.push(l) } });
    textBase = await text.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await json.close();
    await text.close();
    db.dispose();
  });

  it('JSON lines: method, path without the query, status, duration, bytes', async () => {
    jsonLines.length = 0;
    const ok = await fetch(`${jsonBase}/v1/elements/count?bboxes=1.5,42.5,1.55,42.55&time=2016-01-01`, { headers: { 'accept-encoding': 'identity' } });
    const okBody = await ok.text();
    const bad = await fetch(`${jsonBase}/v1/elements/count?bboxes=1,2,3`);
    await bad.text();
    const post = await fetch(`${jsonBase}/v2-rc/filter/validation`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"filter":"a="}',
    });
    await post.text();
    await waitFor(jsonLines, 3);
    const [a, b, c] = jsonLines.map((l) => JSON.parse(l) as RequestLogEntry);
    assert.deepEqual([a.method, a.path, a.status], ['GET', '/v1/elements/count', 200]);
    assert.ok(a.bytes > Buffer.byteLength(okBody), `${a.bytes} bytes, body ${Buffer.byteLength(okBody)} (headers come on top)`);
    assert.ok(a.ms >= 0 && Number.isFinite(a.ms));
    assert.ok(!Number.isNaN(Date.parse(a.time)));
    assert.equal(a.aborted, undefined);
    assert.deepEqual([b.method, b.path, b.status], ['GET', '/v1/elements/count', 400]);
    assert.deepEqual([c.method, c.path, c.status], ['POST', '/v2-rc/filter/validation', 422]);
  });

  it('text lines in the documented layout', async () => {
    textLines.length = 0;
    await (await fetch(`${textBase}/v2-rc/health`)).text();
    await waitFor(textLines, 1);
    assert.match(textLines[0]!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z GET \/v2-rc\/health 200 \d+\.\d ms \d+ B$/);
    // A path Fastify refuses before any hook runs (it cannot be decoded) is logged too.
    for (const path of ['/v1/elements/%ZZ', '/v2-rc/%ZZ']) await (await fetch(`${textBase}${path}`)).text();
    await waitFor(textLines, 3);
    assert.match(textLines[1]!, / GET \/v1\/elements\/%ZZ 400 \d+\.\d ms [1-9]\d* B$/);
    assert.match(textLines[2]!, / GET \/v2-rc\/%ZZ 400 \d+\.\d ms [1-9]\d* B$/);
    assert.equal(
      formatRequestLog({ time: 't', method: 'GET', path: '/x', status: 200, ms: 1.25, bytes: 9, aborted: true }, 'text'),
      't GET /x 200 1.3 ms 9 B aborted',
    );
  });

  it('a streamed extraction is logged with all its bytes; one the client left is marked aborted', async () => {
    jsonLines.length = 0;
    const res = await fetch(`${jsonBase}/v1/elements/centroid?bboxes=1.5,42.5,1.55,42.55&time=2016-01-01&filter=building=*`, {
      headers: { 'accept-encoding': 'identity' },
    });
    const whole = Buffer.byteLength(await res.text());
    await waitFor(jsonLines, 1);
    const full = JSON.parse(jsonLines[0]!) as RequestLogEntry;
    assert.equal(full.status, 200);
    assert.ok(full.bytes > whole, `${full.bytes} logged, ${whole} body bytes`);
    // A client that reads the first bytes of a whole-country full-history extraction, then goes away.
    jsonLines.length = 0;
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${jsonBase}/v1/elementsFullHistory/geometry?bboxes=1.4,42.4,1.8,42.7&time=2008-01-01,2017-01-01`, (r) => {
        r.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? resolve() : reject(e)));
      req.end();
    });
    await waitFor(jsonLines, 1);
    const cut = JSON.parse(jsonLines[0]!) as RequestLogEntry;
    assert.deepEqual([cut.path, cut.status, cut.aborted], ['/v1/elementsFullHistory/geometry', 200, true]);
    assert.ok(cut.bytes > 0);
  });

  it('a client that leaves before the answer starts is logged with 499 (no status was sent), 0 bytes, aborted', async () => {
    let entered!: () => void;
    const inEngine = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // An aggregation engine that holds every query until the test lets it go.
    const held = async (): Promise<never> => {
      entered();
      await gate;
      throw new Error('released after the client left');
    };
    const engine: QueryEngine = { aggregateSnapshots: held, ratio: held, countUsers: held, countContributions: held, countLatestContributions: held };
    const lines: string[] = [];
    const slow = await createServer(db.store, { engine, requestLog: { format: 'json', write: (l) => lines.push(l) } });
    try {
      const slowBase = await slow.listen({ port: 0, host: '127.0.0.1' });
      const req = httpRequest(`${slowBase}/v1/elements/count?bboxes=1.5,42.5,1.55,42.55&time=2016-01-01`);
      req.on('error', () => undefined); // the test itself hangs up
      req.end();
      await inEngine;
      req.destroy();
      await waitFor(lines, 1);
      const entry = JSON.parse(lines[0]!) as RequestLogEntry;
      assert.deepEqual([entry.method, entry.path, entry.status, entry.bytes, entry.aborted], ['GET', '/v1/elements/count', 499, 0, true]);
      release();
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(lines.length, 1, 'one line per request, also when the answer comes after the client left');
    } finally {
      release();
      await slow.close();
    }
  });

  it('maphist serve writes a line per request on standard output: text by default, JSON lines with --log-format json', async () => {
    const dbPath = join(TESTCASES_DIR, 'handmade', 'history-small.osh.pbf');
    const store = await importToTemp(dbPath);
    /** Serves with `args`, requests /v1/metadata, returns standard output once the request's line is there. */
    const serveOnce = async (args: string[], logged: RegExp): Promise<string> => {
      const child = spawn(process.execPath, [MAIN, 'serve', '--db', store.store.path, '--port', '0', '--no-api-keys', ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      try {
        const address = await new Promise<string>((resolve, reject) => {
          child.stdout.on('data', (d) => {
            out += d;
            const m = /at (http:\/\/\S+) /.exec(out);
            if (m) resolve(m[1]!);
          });
          child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
        });
        await (await fetch(`${address}/v1/metadata`)).text();
        for (let i = 0; i < 200 && !logged.test(out); i++) await new Promise((r) => setTimeout(r, 10));
        return out;
      } finally {
        child.kill('SIGTERM');
      }
    };
    try {
      const json = await serveOnce(['--log-format', 'json'], /"\/v1\/metadata"/);
      const line = json.split('\n').find((l) => l.includes('"/v1/metadata"'));
      assert.ok(line, json);
      assert.deepEqual((({ method, path, status }) => ({ method, path, status }))(JSON.parse(line) as RequestLogEntry), {
        method: 'GET',
        path: '/v1/metadata',
        status: 200,
      });
      const text = await serveOnce([], / \/v1\/metadata /);
      assert.match(text, /^\S+Z GET \/v1\/metadata 200 \d+\.\d ms [1-9]\d* B$/m);
    } finally {
      store.dispose();
    }
  });

  it('maphist serve refuses an unknown --log-format before serving (exit 2)', () => {
    const r = spawnSync(process.execPath, [MAIN, 'serve', '--db', '/nonexistent/maphist.duckdb', '--log-format', 'xml'], { encoding: 'utf8' });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /--log-format takes text or json/);
  });
});
