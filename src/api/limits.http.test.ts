/**
 * The admission limits and hostile inputs of issue 17 over HTTP, on a real listening server: every
 * case answers within a second with a 4xx in its version's error shape (v1: the reference's body
 * with `status`, `message`, `requestUrl`, `timestamp`; v2: `{"detail": …}`), and the message names
 * the limit and the value the request gave, or says what to fix.
 */
import assert from 'node:assert/strict';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { importToTemp, type ImportedDb } from '../store/test-support.js';
import { createDuckDbServer as createServer } from '../testing/server.js';
import { LIMITS, MAX_HEADER_BYTES } from './common/limits.js';

const BOX = '1.515,42.5,1.54,42.515';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };

interface Case {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  status: number;
  message: RegExp;
}

/** A ring of n positions (closed) around Andorra la Vella. */
function ring(n: number): number[][] {
  const pts = Array.from({ length: n - 1 }, (_, i) => [
    1.52 + 0.01 * Math.cos((2 * Math.PI * i) / (n - 1)),
    42.507 + 0.005 * Math.sin((2 * Math.PI * i) / (n - 1)),
  ]);
  return [...pts, pts[0]!];
}

/**
 * A star of n positions (closed) around Andorra la Vella: long spikes whose extents all meet, about
 * n²/2 pairs of edges to compare, over the `edgePairs` limit from about 1,500 vertices.
 */
function star(n: number): number[][] {
  const pts = Array.from({ length: n - 1 }, (_, i) => {
    const r = i % 2 === 0 ? 0.01 : 0.0001;
    const a = (2 * Math.PI * i) / (n - 1);
    return [1.52 + r * Math.cos(a), 42.507 + r * Math.sin(a)];
  });
  return [...pts, pts[0]!];
}

function multipart(boundary: string, parts: string): Buffer {
  return Buffer.from(parts.replaceAll('\n', '\r\n').replaceAll('BOUNDARY', boundary), 'latin1');
}

const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}`).join(',');

const V1_CASES: Case[] = [
  { name: 'bboxes=,,,', path: `/v1/elements/count?bboxes=,,,&time=2010-01-01`, status: 400, message: /^The bboxes parameter holds no boundary object/ },
  { name: 'bcircles=,,', path: `/v1/elements/count?bcircles=,,`, status: 400, message: /^The bcircles parameter holds no boundary object/ },
  { name: 'bboxes=1e308,1,2,3', path: `/v1/elements/count?bboxes=1e308,1,2,3`, status: 400, message: /has a longitude of 1e\+308, outside \[-180, 180\]/ },
  { name: 'NaN coordinate', path: `/v1/elements/count?bboxes=NaN,42.5,1.54,42.515`, status: 400, message: /double-parseable/ },
  { name: 'latitude 91', path: `/v1/elements/count?bboxes=1.5,91,1.6,42.6`, status: 400, message: /has a latitude of 91, outside \[-90, 90\]/ },
  { name: 'time=,,,', path: `/v1/elements/count?bboxes=${BOX}&time=,,,`, status: 400, message: /The time parameter holds only commas/ },
  {
    name: '70 groupByKeys',
    path: `/v1/elements/count/groupBy/key?bboxes=${BOX}&groupByKeys=${keys(70)}`,
    status: 400,
    message: /^At most 50 keys in groupByKeys are accepted; the request has 70\./,
  },
  {
    name: '1,001 groupByValues',
    path: `/v1/elements/count/groupBy/tag?bboxes=${BOX}&groupByKey=k&groupByValues=${keys(1001)}`,
    status: 400,
    message: /^At most 1,000 values in groupByValues are accepted; the request has 1,001\./,
  },
  {
    name: 'an hourly series over nine years',
    path: `/v1/elements/count?bboxes=${BOX}&time=2008-01-01/2017-01-01/PT1H`,
    status: 400,
    message: /^At most 10,000 timestamps in the time parameter are accepted; the request has 78,913\./,
  },
  {
    name: 'invalid UTF-8 percent-encoded in the query',
    path: `/v1/elements/count?bboxes=${BOX}&filter=name%3D%FF%FE`,
    status: 400,
    message: /^The parameter 'filter' holds percent-encoded bytes that are not UTF-8/,
  },
  {
    name: 'a 40 KB query string',
    path: `/v1/elements/count?bboxes=${BOX}&filter=${'x'.repeat(40_000)}`,
    status: 414,
    message: /^A query string of at most 32 KB \(32,768 bytes\) is accepted; the request has 40,\d{3} bytes\./,
  },
  {
    name: '100,000 identical bboxes',
    path: '/v1/elements/count',
    method: 'POST',
    headers: FORM,
    body: `bboxes=${Array(100_000).fill(BOX).join('|')}&time=2015-01-01`,
    status: 400,
    message: /^At most 1,000 boundaries in bboxes are accepted; the request has 100,000\./,
  },
  {
    name: '10,000 bcircles',
    path: '/v1/elements/count/groupBy/boundary',
    method: 'POST',
    headers: FORM,
    body: `bcircles=${Array(10_000).fill('1.52,42.5,100').join('|')}`,
    status: 400,
    message: /^At most 1,000 boundaries in bcircles are accepted; the request has 10,000\./,
  },
  {
    name: '200,001 timestamps',
    path: '/v1/elements/count',
    method: 'POST',
    headers: FORM,
    body: `bboxes=${BOX}&time=${Array(200_001).fill('2015-01-01').join(',')}`,
    status: 400,
    message: /^At most 10,000 timestamps in the time parameter are accepted; the request has 200,001\./,
  },
  {
    name: 'a bpolys of 150,000 vertices',
    path: '/v1/elements/count',
    method: 'POST',
    headers: FORM,
    body: `bpolys=${ring(150_000).flat().join(',')}`,
    status: 400,
    message: /^At most 100,000 vertices over all bpolys are accepted; the request has 150,000\./,
  },
  {
    name: 'a bpolys star of 4,000 vertices',
    path: '/v1/elements/count',
    method: 'POST',
    headers: FORM,
    body: `bpolys=${star(4_000).flat().join(',')}`,
    status: 400,
    message:
      /boundary 'boundary1': At most 1,000,000 pairs of edges or rings with meeting extents in one polygon are accepted; the request has more than 1,000,000\. Simplify/,
  },
  { name: 'bad JSON in bpolys', path: '/v1/elements/count', method: 'POST', headers: FORM, body: 'bpolys={"features":', status: 400, message: /GeoJSON/ },
  {
    name: 'a form body that is not UTF-8',
    path: '/v1/elements/count',
    method: 'POST',
    headers: FORM,
    body: Buffer.concat([Buffer.from(`bboxes=${BOX}&filter=name=`), Buffer.from([0xff, 0xfe])]),
    status: 400,
    message: /^The form body is not valid UTF-8/,
  },
  {
    name: 'a truncated multipart body',
    path: '/v1/elements/count',
    method: 'POST',
    headers: { 'content-type': 'multipart/form-data; boundary=XX' },
    body: multipart('XX', `--BOUNDARY\nContent-Disposition: form-data; name="bboxes"\n\n${BOX}\n--BOUNDARY\nContent-Disp`),
    status: 400,
    message: /^The multipart body could not be read/,
  },
  {
    name: 'a multipart body without boundary',
    path: '/v1/elements/count',
    method: 'POST',
    headers: { 'content-type': 'multipart/form-data' },
    body: multipart('XX', `--BOUNDARY\nContent-Disposition: form-data; name="bboxes"\n\n${BOX}\n--BOUNDARY--\n`),
    status: 400,
    message: /^The multipart body could not be read/,
  },
  {
    name: 'a multipart file that is not UTF-8',
    path: '/v1/elements/count',
    method: 'POST',
    headers: { 'content-type': 'multipart/form-data; boundary=XX' },
    body: multipart('XX', `--BOUNDARY\nContent-Disposition: form-data; name="bpolys"; filename="a.txt"\n\n1.5,42.5,\xff\n--BOUNDARY--\n`),
    status: 400,
    message: /^The file part 'bpolys' is not valid UTF-8/,
  },
  {
    name: 'a 21 MB body',
    path: '/v1/elements/count',
    method: 'POST',
    headers: FORM,
    body: `bboxes=${BOX}&filter=${'x'.repeat(21 * 1024 * 1024)}`,
    status: 413,
    message: /^A request body of at most 20 MB \(20,971,520 bytes\) is accepted; the request has 22,020,\d{3} bytes\./,
  },
  {
    name: 'a filter nested 60 deep',
    path: '/v1/elements/count',
    method: 'POST',
    headers: FORM,
    body: `bboxes=${BOX}&filter=${encodeURIComponent(`${'('.repeat(60)}a=b${')'.repeat(60)}`)}`,
    status: 400,
    message: /more than 50 levels deep/,
  },
  {
    name: 'a filter of 70,000 characters',
    path: '/v1/elements/count',
    method: 'POST',
    headers: FORM,
    body: `bboxes=${BOX}&filter=name=${'x'.repeat(70_000)}`,
    status: 400,
    message: /the filter is 70005 characters long; the longest accepted is 65536/,
  },
];

const series = (interval: string) => ({ aoi: [1.515, 42.5, 1.54, 42.515], filter: '*', time: { start: '2008-01-01', end: '2016-01-01', interval } });

const V2_CASES: Case[] = [
  {
    name: 'a daily series over eight years',
    path: '/v2/stats/features/count.json',
    method: 'POST',
    headers: JSON_TYPE,
    body: JSON.stringify(series('P1D')),
    status: 422,
    message: /^The given time range and interval lead to a time series larger than 1000 points\/bins\./,
  },
  {
    name: 'an aoi of 150,000 vertices',
    path: '/v2/stats/features/count.json',
    method: 'POST',
    headers: JSON_TYPE,
    body: JSON.stringify({ aoi: { type: 'Polygon', coordinates: [ring(150_000)] }, filter: '*', time: '2015-01-01' }),
    status: 422,
    message: /^At most 100,000 vertices in the aoi are accepted; the request has 150,000\./,
  },
  {
    name: 'an aoi star of 4,000 vertices',
    path: '/v2/stats/features/count.json',
    method: 'POST',
    headers: JSON_TYPE,
    body: JSON.stringify({ aoi: { type: 'Polygon', coordinates: [star(4_000)] }, filter: '*', time: '2015-01-01' }),
    status: 422,
    message: /^The aoi is too complex to check: At most 1,000,000 pairs of edges or rings with meeting extents in one polygon are accepted/,
  },
  {
    name: 'a WKT aoi of 150,000 vertices',
    path: '/v2/stats/features/count.json',
    method: 'POST',
    headers: JSON_TYPE,
    body: JSON.stringify({
      aoi: `POLYGON((${ring(150_000)
        .map((p) => p.join(' '))
        .join(', ')}))`,
      filter: '*',
      time: '2015-01-01',
    }),
    status: 422,
    message: /^At most 100,000 vertices in the aoi are accepted; the request has 150,000\./,
  },
  {
    name: 'a body that is not UTF-8',
    path: '/v2/stats/features/count.json',
    method: 'POST',
    headers: JSON_TYPE,
    body: Buffer.concat([Buffer.from('{"aoi":[1.515,42.5,1.54,42.515],"time":"2015-01-01","filter":"name='), Buffer.from([0xff]), Buffer.from('"}')]),
    status: 422,
    message: /^The request body is not valid UTF-8/,
  },
  {
    name: 'bad JSON',
    path: '/v2/stats/features/count.json',
    method: 'POST',
    headers: JSON_TYPE,
    body: '{"aoi":[1,2,',
    status: 422,
    message: /^JSON decode error/,
  },
  {
    name: 'invalid UTF-8 percent-encoded in the query',
    path: `/v2/extraction/features.parquet?aoi=${BOX}&time=2015-01-01&filter=name%3D%FF`,
    status: 422,
    message: /^The parameter 'filter' holds percent-encoded bytes that are not UTF-8/,
  },
  {
    name: 'a 40 KB query string',
    path: `/v2/extraction/features.parquet?aoi=${BOX}&time=2015-01-01&filter=${'x'.repeat(40_000)}`,
    status: 414,
    message: /^A query string of at most 32 KB \(32,768 bytes\) is accepted/,
  },
  {
    name: 'a 21 MB body',
    path: '/v2/stats/features/count.json',
    method: 'POST',
    headers: JSON_TYPE,
    body: JSON.stringify({ filter: 'x'.repeat(21 * 1024 * 1024) }),
    status: 413,
    message: /^A request body of at most 20 MB \(20,971,520 bytes\) is accepted; the request has 22,020,\d{3} bytes\./,
  },
  {
    name: 'a filter nested 60 deep',
    path: '/v2/stats/features/count.json',
    method: 'POST',
    headers: JSON_TYPE,
    body: JSON.stringify({ aoi: [1.515, 42.5, 1.54, 42.515], time: '2015-01-01', filter: `${'('.repeat(60)}a=b${')'.repeat(60)}` }),
    status: 422,
    message: /more than 50 levels deep/,
  },
  {
    name: 'a filter of 70,000 characters',
    path: '/v2/stats/features/count.json',
    method: 'POST',
    headers: JSON_TYPE,
    body: JSON.stringify({ aoi: [1.515, 42.5, 1.54, 42.515], time: '2015-01-01', filter: `name=${'x'.repeat(70_000)}` }),
    status: 422,
    message: /the filter is 70005 characters long; the longest accepted is 65536/,
  },
];

describe('admission limits and hostile inputs over HTTP', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let base: string;
  before(async () => {
    db = await importToTemp(join(process.cwd(), 'sample', 'andorra.osh.pbf'));
    app = await createServer(db.store, { timeoutSeconds: 30 });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await app.close();
    db.dispose();
  });

  async function send(c: Case): Promise<{ status: number; body: string; ms: number }> {
    const started = performance.now();
    const body = c.body === undefined || typeof c.body === 'string' ? c.body : new Uint8Array(c.body);
    const res = await fetch(`${base}${c.path}`, { method: c.method ?? 'GET', headers: c.headers, body, signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    return { status: res.status, body: text, ms: performance.now() - started };
  }

  for (const c of V1_CASES) {
    it(`v1: ${c.name} → ${c.status}, in the reference's error body, within a second`, async () => {
      const { status, body, ms } = await send(c);
      assert.equal(status, c.status, body.slice(0, 500));
      const json = JSON.parse(body) as Record<string, unknown>;
      assert.deepEqual(Object.keys(json), ['attribution', 'timestamp', 'status', 'message', 'requestUrl']);
      assert.equal(json.status, c.status);
      assert.match(String(json.message), c.message);
      assert.ok(ms < 1000, `answered after ${Math.round(ms)} ms`);
    });
  }

  for (const c of V2_CASES) {
    it(`v2: ${c.name} → ${c.status}, in version 2's error body, within a second`, async () => {
      const { status, body, ms } = await send(c);
      assert.equal(status, c.status, body.slice(0, 500));
      const json = JSON.parse(body) as { detail: string | { loc: string[]; msg: string; type: string }[] };
      assert.deepEqual(Object.keys(json), ['detail']);
      const message = typeof json.detail === 'string' ? json.detail : json.detail[0]!.msg;
      assert.match(message, c.message);
      assert.ok(ms < 1000, `answered after ${Math.round(ms)} ms`);
    });
  }

  it('request line and headers over 64 KB: 431 naming the limit, Connection: close; a keep-alive client’s next request gets its answer', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const { hostname, port } = new URL(base);
    const ask = (method: string, path: string, body?: string) =>
      new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
        const headers = body === undefined ? {} : { ...FORM, 'content-length': Buffer.byteLength(body) };
        const req = httpRequest({ host: hostname, port, method, path, headers, agent }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (d: string) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    try {
      const long = await ask('GET', `/v1/elements/count?bboxes=${BOX}&time=2015-01-01&x=${'a'.repeat(MAX_HEADER_BYTES)}`);
      assert.equal(long.status, 431);
      assert.equal(long.headers.connection, 'close');
      assert.match(JSON.parse(long.body).message, /64 KB.*HEADERS_TOO_LARGE/);
      // The agent must not reuse the closed connection: the next request is answered.
      const next = await ask('POST', '/v1/elements/count', `bboxes=${BOX}&time=2015-01-01`);
      assert.equal(next.status, 200, next.body.slice(0, 300));
    } finally {
      agent.destroy();
    }
  });

  it('the limits themselves are accepted: 1,000 bboxes, 10,000 timestamps, 50 groupByKeys', async () => {
    const boxes = Array.from({ length: LIMITS.boundaries.v1 }, (_, i) => `b${i}:${BOX}`).join('|');
    const many = await fetch(`${base}/v1/elements/count`, { method: 'POST', headers: FORM, body: `bboxes=${boxes}&time=2015-01-01` });
    assert.equal(many.status, 200, (await many.text()).slice(0, 300));
    // 2010-01-01 + 9,999 hours: 10,000 timestamps.
    const hourly = await fetch(`${base}/v1/elements/count?bboxes=${BOX}&time=2010-01-01T00:00:00Z/2011-02-21T15:00:00Z/PT1H&filter=building=*`);
    const answer = (await hourly.json()) as { result: unknown[] };
    assert.equal(hourly.status, 200);
    assert.equal(answer.result.length, LIMITS.timestamps.v1);
    const grouped = await fetch(`${base}/v1/elements/count/groupBy/key?bboxes=${BOX}&time=2015-01-01&groupByKeys=${keys(LIMITS.groupByKeys.v1)}`);
    assert.equal(grouped.status, 200, (await grouped.text()).slice(0, 300));
  });
});
