/**
 * The version 2 routes through real HTTP over the sample store's metadata, with a recording double
 * of the statistics engine and the extraction: what the request layer passes on, how it prints the
 * answers, statuses, time limits, aborts, keys.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import fc from 'fast-check';
import type { BinStatsQuery, CurrentnessQuery, FeatureStatsQuery, StatsEngine } from '../../query/stats.js';
import { importToTemp, type ImportedDb } from '../../store/test-support.js';
import type { ExtractionRecord } from '../../query/v2-requests.js';
import { installCancellation } from '../common/cancellation.js';
import { initZstd } from './format/geoparquet/zstd.js';
import { registerV2Routes } from './plugin.js';
import type { CollectionsExtractionRequest, ExtractionRequest } from './requests.js';
import type { V2Data, V2Services } from './services.js';
import { epochOf } from './params/timestamp.js';

type Call = { method: string; query: FeatureStatsQuery | BinStatsQuery | CurrentnessQuery | ExtractionRequest; signal?: AbortSignal };

const AOI = [1.515, 42.5, 1.54, 42.515];

describe('v2 routes (recording engines)', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let base: string;
  const calls: Call[] = [];
  let behaviour: 'ok' | 'hang' | 'fail' | 'fail-after-start' = 'ok';

  const until = (signal?: AbortSignal) => new Promise<never>((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
  const stats: StatsEngine = {
    async features(q) {
      calls.push({ method: 'features', query: q, signal: q.signal });
      if (behaviour === 'hang') return until(q.signal);
      const groups = q.groupByKey
        ? new Map([
            ['residential', q.timestamps.map(() => 2.4)],
            ['10', q.timestamps.map(() => 1)],
            ['"; x', q.timestamps.map(() => 0)],
          ])
        : undefined;
      return { total: q.timestamps.map((_, i) => i + 0.5), ...(groups ? { groups } : {}) };
    },
    async contributors(q) {
      calls.push({ method: 'contributors', query: q, signal: q.signal });
      return q.edges.slice(1).map(() => 7);
    },
    async contributions(q) {
      calls.push({ method: 'contributions', query: q, signal: q.signal });
      return q.edges.slice(1).map(() => 8.5);
    },
    async currentness(q) {
      calls.push({ method: 'currentness', query: q, signal: q.signal });
      return q.edges.slice(1).map(() => 1234.4);
    },
    async groupedBins(kind: string, q: BinStatsQuery) {
      calls.push({ method: `groupedBins:${kind}`, query: q, signal: q.signal });
      return { total: q.edges.slice(1).map(() => 3), groups: new Map([['way', q.edges.slice(1).map(() => 3)]]) };
    },
  } as StatsEngine;
  const record: ExtractionRecord = {
    osm_type: 'node',
    osm_id: 1n,
    edit_timestamp: 0n,
    valid_to_timestamp: null,
    version: 1,
    minor_version: 0,
    edits: 1,
    user_id: 1,
    user_name: 'u',
    changeset_id: 1n,
    tags: [],
    bbox: { xmin: 1.52, ymin: 42.51, xmax: 1.52, ymax: 42.51 },
    geom_type: 'Point',
    geom: null,
    clipped: false,
    collection_osm_id: 2n,
    member_role: '',
    member_pos: 0,
    changeset_tags: [],
    contribution_type: 'CREATION',
    tags_before: [],
  };
  const extraction = {
    async *records(request: ExtractionRequest, signal?: AbortSignal) {
      calls.push({ method: 'records', query: request, signal });
      if (behaviour === 'fail') throw new Error('boom');
      if (behaviour === 'hang') await until(signal);
      yield [record];
      if (behaviour === 'fail-after-start') {
        await new Promise((r) => setTimeout(r, 20));
        throw new Error('boom after start');
      }
    },
  };

  before(async () => {
    db = await importToTemp(join(process.cwd(), 'sample', 'andorra.osh.pbf'));
    await initZstd();
    app = Fastify();
    installCancellation(app);
    const data: V2Data = {
      metadata: db.store.metadata,
      latest: epochOf(db.store.metadata.lastTimestamp),
      databaseAnswers: async () => true,
      stats,
      extraction,
    };
    const services: V2Services = { dataOf: () => data, statsTimeoutSeconds: 0.3, extractionTimeoutSeconds: 0.3 };
    await app.register(async (v2) => registerV2Routes(v2, services), { prefix: '/v2-rc' });
    await app.register(
      async (v2) =>
        registerV2Routes(v2, {
          ...services,
          apiKeys: async (request, reply) => {
            if (request.headers.authorization !== 'k') await reply.code(401).send({ detail: 'Not authenticated' });
          },
        }),
      { prefix: '/v2' },
    );
    base = `${await app.listen({ port: 0, host: '127.0.0.1' })}/v2-rc`;
  });
  after(async () => {
    await app.close();
    db.dispose();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const last = () => calls[calls.length - 1]!;

  it('features: passes aoi, series, filter, measure, clip and prints columnar JSON with integers', async () => {
    behaviour = 'ok';
    const res = await post('/stats/features/length.json', { aoi: AOI, filter: 'highway=*', time: { start: '2015-01-01', end: '2016-01-01', interval: 'P6M' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    const body = await res.json();
    assert.deepEqual(body.result, { timestamp: ['2015-01-01T00:00:00Z', '2015-07-01T00:00:00Z', '2016-01-01T00:00:00Z'], value: [1, 2, 3] });
    assert.equal(typeof body.apiVersion, 'string');
    assert.deepEqual(Object.keys(body.attribution), ['url', 'text']);
    const q = last().query as FeatureStatsQuery;
    assert.equal(q.measure, 'length');
    assert.equal(q.clip, false);
    assert.equal(q.filter.source, 'highway=*');
    assert.deepEqual(q.aoi.bbox, AOI);
    assert.equal(q.groupByKey, undefined);
    assert.ok(last().signal instanceof AbortSignal);
  });

  it('features grouped: values sorted by tag value, in JSON and CSV', async () => {
    const body = { aoi: AOI, filter: 'building=*', time: '2016-01-01', groupBy: { type: 'byTag', key: 'building' }, clip: true };
    const json = await (await post('/stats/features/count.json', body)).text();
    assert.match(json, /"result":\{"timestamp":\["2016-01-01T00:00:00Z"\],"value":\[1\],"values":\{"\\"; x":\[0\],"10":\[1\],"residential":\[2\]\}\}\}$/);
    assert.equal((last().query as FeatureStatsQuery).groupByKey, 'building');
    assert.equal((last().query as FeatureStatsQuery).clip, true);
    const res = await post('/stats/features/count.csv', body);
    assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
    const lines = (await res.text()).split('\n');
    assert.match(lines[0]!, /^# apiVersion: /);
    assert.match(lines[1]!, /^# attribution\.url: https:\/\//);
    assert.equal(lines[2], '# attribution.text: © OpenStreetMap contributors');
    assert.deepEqual(lines.slice(3), [
      'timestamp;value;tagvalue',
      '2016-01-01T00:00:00Z;0;"""; x"',
      '2016-01-01T00:00:00Z;1;10',
      '2016-01-01T00:00:00Z;2;residential',
      '2016-01-01T00:00:00Z;1;',
      '',
    ]);
  });

  it('bins: contributors, contributions and currentness get the edges and answer start/end/value', async () => {
    const time = { start: 'earliest', end: 'latest', binSize: 'P5Y' };
    const res = await post('/stats/contributors/count.json', { aoi: AOI, filter: '*', time });
    const body = await res.json();
    assert.deepEqual(body.result, {
      start: ['2007-10-08T00:00:00Z', '2012-10-08T00:00:00Z'],
      end: ['2012-10-08T00:00:00Z', '2017-02-19T16:02:05Z'],
      value: [7, 7],
    });
    assert.equal((last().query as BinStatsQuery).edges.length, 3);
    assert.equal((await (await post('/stats/contributions/count.json', { aoi: AOI, filter: '*', time })).json()).result.value[0], 9);
    const csv = await (await post('/stats/currentness/area.csv', { aoi: AOI, filter: 'building=*', time, clip: true })).text();
    assert.match(csv, /\nstart;end;value\n2007-10-08T00:00:00Z;2012-10-08T00:00:00Z;1234\n/);
    const q = last().query as CurrentnessQuery;
    assert.equal(q.measure, 'area');
    assert.equal(q.clip, true);
    const clipped = await post('/stats/contributors/count.json', { aoi: AOI, filter: '*', time, clip: true });
    assert.equal(clipped.status, 422);
    assert.deepEqual((await clipped.json()).detail[0].loc, ['body', 'clip']);
  });

  it('extraction: GET and POST build the request and stream the file with its headers', async () => {
    const get = await fetch(`${base}/extraction/features.parquet?aoi=1.515,42.5,1.54,42.515&filter=building%3D*&time=2015-01-01/latest`);
    assert.equal(get.status, 200);
    assert.equal(get.headers.get('content-type'), 'application/vnd.apache.parquet');
    assert.equal(get.headers.get('content-disposition'), 'attachment; filename="features.parquet"');
    const file = Buffer.from(await get.arrayBuffer());
    assert.equal(file.subarray(0, 4).toString(), 'PAR1');
    assert.equal(file.subarray(-4).toString(), 'PAR1');
    assert.deepEqual(last().query, { ...(last().query as object), kind: 'features', clip: true, time: { start: 1420070400, end: 1487520125 } });
    const members = await fetch(
      `${base}/extraction/collections_members.parquet?aoi=1.515,42.5,1.54,42.515&filter=type:relation&time=latest&member_filter=building%3D*`,
    );
    assert.equal(members.headers.get('content-disposition'), 'attachment; filename="collections_members.parquet"');
    await members.arrayBuffer();
    const m = last().query as CollectionsExtractionRequest;
    assert.equal(m.clip, false);
    assert.equal(m.memberFilter?.source, 'building=*');
    const posted = await post('/extraction/collections.parquet', { aoi: AOI, filter: 'type:relation', time: '2016-01-01', member_filter: null });
    await posted.arrayBuffer();
    const c = last().query as CollectionsExtractionRequest;
    assert.equal(c.clip, true);
    assert.equal(c.memberFilter, null);
    const contrib = await post('/extraction/contributions.parquet', { aoi: AOI, filter: '*', time: { start: '2015-01-01', end: '2016-01-01' } });
    assert.equal(contrib.headers.get('content-disposition'), 'attachment; filename="contributions.parquet"');
    await contrib.arrayBuffer();
    assert.deepEqual((last().query as ExtractionRequest).time, { start: 1420070400, end: 1451606400 });
  });

  it('extraction errors: before the first byte an error answer, after it a cut-off stream', async () => {
    behaviour = 'fail';
    const before = await post('/extraction/features.parquet', { aoi: AOI, filter: '*', time: 'latest' });
    assert.equal(before.status, 500);
    assert.deepEqual(await before.json(), { detail: 'Internal Server Error' });
    behaviour = 'fail-after-start';
    const res = await post('/extraction/features.parquet', { aoi: AOI, filter: '*', time: 'latest' });
    assert.equal(res.status, 200);
    await assert.rejects(res.arrayBuffer());
    behaviour = 'ok';
  });

  it('time limits answer 504 with the reference message and abort the engine', async () => {
    behaviour = 'hang';
    const res = await post('/stats/features/count.json', { aoi: AOI, filter: '*', time: 'latest' });
    assert.equal(res.status, 504);
    const msg =
      'Query timeout limit has been exceeded. For statistics endpoints the timeout limit is 0.3s. For extraction endpoints the timeout limit is 0.3s.';
    assert.deepEqual(await res.json(), { detail: [{ loc: [], msg, type: 'QueryTimeoutError' }] });
    assert.equal(last().signal?.aborted, true);
    const ex = await post('/extraction/features.parquet', { aoi: AOI, filter: '*', time: 'latest' });
    assert.equal(ex.status, 504);
    behaviour = 'ok';
  });

  it('a client that goes away aborts the engine', async () => {
    behaviour = 'hang';
    const controller = new AbortController();
    const pending = fetch(`${base}/stats/features/count.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ aoi: AOI, filter: '*', time: 'latest' }),
      signal: controller.signal,
    }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 50));
    const call = last();
    controller.abort();
    await pending;
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(call.signal?.aborted, true);
    behaviour = 'ok';
  });

  it('answers unknown paths 404, other methods 405 with Allow, non-JSON bodies 422', async () => {
    const nf = await fetch(`${base}/stats/currentness/count`, { method: 'POST' });
    assert.equal(nf.status, 404);
    assert.deepEqual(await nf.json(), { detail: 'Not Found' });
    const wrong = await fetch(`${base}/stats/features/count.json`);
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get('allow'), 'POST');
    assert.deepEqual(await wrong.json(), { detail: 'Method Not Allowed' });
    assert.equal((await fetch(`${base}/metadata`, { method: 'POST' })).status, 405);
    assert.equal((await fetch(`${base}/metadata`, { method: 'HEAD' })).status, 200);
    const head = await fetch(`${base}/extraction/features.parquet?aoi=1,2,3,4&filter=*&time=latest`, { method: 'HEAD' });
    assert.equal(head.status, 405);
    assert.equal(head.headers.get('allow'), 'GET, POST');
    const form = await fetch(`${base}/stats/features/count.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'filter=*',
    });
    assert.equal(form.status, 422);
    assert.equal((await form.json()).detail[0].type, 'content_type');
  });

  it('answers random and mutated bodies with 200 or 422, never anything else', async () => {
    behaviour = 'ok';
    const field = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.constantFrom(
        AOI,
        'latest',
        '*',
        'building=*',
        { start: '2015-01-01', end: 'latest', interval: 'P1Y' },
        { type: 'byTag', key: 'x' },
        [1, 2, 3, 4],
        'POLYGON((0 0, 1 0, 1 1, 0 0))',
      ),
    );
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record({ aoi: field, filter: field, time: field, groupBy: field, clip: field }, { requiredKeys: [] }),
    );
    const paths = fc.constantFrom(
      '/stats/features/count.json',
      '/stats/currentness/area.csv',
      '/stats/contributors/count.json',
      '/extraction/features.parquet',
      '/extraction/collections.parquet',
      '/filter/validation',
    );
    await fc.assert(
      fc.asyncProperty(paths, body, async (path, b) => {
        const res = await app.inject({ method: 'POST', url: `/v2-rc${path}`, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(b) });
        assert.ok(res.statusCode === 200 || res.statusCode === 422, `${res.statusCode} ${path} ${JSON.stringify(b)} → ${res.body}`);
        if (res.statusCode === 422) assert.ok(Array.isArray(JSON.parse(res.body).detail));
      }),
      { numRuns: 300 },
    );
  });

  it('puts the key guard on statistics and extraction only', async () => {
    const root = base.replace(/\/v2-rc$/, '/v2');
    const body = JSON.stringify({ aoi: AOI, filter: '*', time: 'latest' });
    const headers = { 'content-type': 'application/json' };
    assert.equal((await fetch(`${root}/stats/features/count.json`, { method: 'POST', headers, body })).status, 401);
    assert.equal((await fetch(`${root}/stats/features/count.json`, { method: 'POST', headers: { ...headers, authorization: 'k' }, body })).status, 200);
    assert.equal((await fetch(`${root}/extraction/features.parquet?aoi=1,2,3,4&filter=*&time=latest`)).status, 401);
    assert.equal((await fetch(`${root}/metadata`)).status, 200);
    assert.equal((await fetch(`${root}/filter/validation?filter=a%3Db`)).status, 200);
  });
});
