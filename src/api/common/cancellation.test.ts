/**
 * The one cancellation mechanism (cancellation.ts) through real HTTP over the sample store: the
 * engine receives the request's signal and sees it abort, with a distinct reason, when the client
 * disconnects, when the time limit passes and when the server closes; each API answers a timeout
 * with its own status.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createDuckDbExtractionEngine } from '../../engines/duckdb/extraction.js';
import type { ExtractedFeature, ExtractionEngine } from '../../query/extraction.js';
import type { QueryEngine } from '../../query/model.js';
import type { RecordExtraction } from '../../query/v2-requests.js';
import { importToTemp, type ImportedDb } from '../../store/test-support.js';
import { createDuckDbServer } from '../../testing/server.js';
import { abortCauseOf, abortReason } from './cancellation.js';

const SAMPLE = join(process.cwd(), 'sample', 'andorra.osh.pbf');

/** Resolves with the signal's reason once it aborts. */
const aborted = (signal: AbortSignal) =>
  new Promise<unknown>((resolve) => (signal.aborted ? resolve(signal.reason) : signal.addEventListener('abort', () => resolve(signal.reason), { once: true })));

/** `p`, or a rejection after `ms` (a missing abort fails the test instead of hanging it). */
const within = <T>(p: Promise<T>, ms = 5000) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms).unref())]);

/** An aggregation engine that holds every query until its signal aborts, and reports the reason. */
function holdingEngine(): { engine: QueryEngine; entered: Promise<void>; reason: Promise<unknown> } {
  let entered!: () => void;
  let seen!: (reason: unknown) => void;
  const held = async (q: { signal?: AbortSignal }): Promise<never> => {
    entered();
    const reason = await aborted(q.signal!);
    seen(reason);
    throw reason;
  };
  return {
    engine: { aggregateSnapshots: held, ratio: held, countUsers: held, countContributions: held, countLatestContributions: held },
    entered: new Promise<void>((resolve) => (entered = resolve)),
    reason: new Promise<unknown>((resolve) => (seen = resolve)),
  };
}

describe('one cancellation per request: time limit, disconnect, shutdown', () => {
  let db: ImportedDb;
  let realExtraction: ExtractionEngine;
  before(async () => {
    db = await importToTemp(SAMPLE);
    realExtraction = await createDuckDbExtractionEngine(db.store);
  });
  after(() => db.dispose());

  it('reasons are catalog errors that say which of the three it was', () => {
    assert.deepEqual(
      (['timeout', 'disconnect', 'shutdown'] as const).map((c) => [abortReason(c).code, abortCauseOf(abortReason(c))]),
      [
        ['QUERY_TIMEOUT', 'timeout'],
        ['CLIENT_DISCONNECTED', 'disconnect'],
        ['SERVER_SHUTTING_DOWN', 'shutdown'],
      ],
    );
    assert.equal(abortCauseOf(new Error('x')), undefined);
  });

  it('an aggregation whose client disconnects stops the engine work (the engine sees the abort)', async () => {
    const h = holdingEngine();
    const app = await createDuckDbServer(db.store, { engine: h.engine });
    try {
      const base = await app.listen({ port: 0, host: '127.0.0.1' });
      const req = httpRequest(`${base}/v1/elements/count?bboxes=1.5,42.5,1.55,42.55&time=2016-01-01`);
      req.on('error', () => undefined); // the test itself hangs up
      req.end();
      await h.entered;
      req.destroy();
      assert.equal(abortCauseOf(await within(h.reason)), 'disconnect');
    } finally {
      await app.close();
    }
  });

  it('the time limit aborts the engine: v1 answers 413 with the reference message', async () => {
    const h = holdingEngine();
    const app = await createDuckDbServer(db.store, { engine: h.engine, timeoutSeconds: 0.2 });
    try {
      const res = await app.inject({ url: '/v1/elements/count?bboxes=1.5,42.5,1.55,42.55&time=2016-01-01' });
      assert.equal(res.statusCode, 413);
      assert.match(JSON.parse(res.body).message, /too large in respect to the given timeout/);
      assert.equal(abortCauseOf(await within(h.reason)), 'timeout');
    } finally {
      await app.close();
    }
  });

  it('server.close() aborts an in-flight v1 extraction: the engine stops and the transfer is cut', async () => {
    let seen!: (reason: unknown) => void;
    const reason = new Promise<unknown>((resolve) => (seen = resolve));
    let streaming!: () => void;
    const started = new Promise<void>((resolve) => (streaming = resolve));
    // The real engine's first feature, then hold until the request's signal aborts.
    const holding: ExtractionEngine = {
      async *extract(q) {
        for await (const f of realExtraction.extract(q)) {
          yield f as ExtractedFeature;
          streaming();
          const r = await aborted(q.signal!);
          seen(r);
          throw r;
        }
      },
    };
    const app = await createDuckDbServer(db.store, { replace: { extraction: async () => holding } });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${base}/v1/elements/geometry?bboxes=1.5,42.5,1.55,42.55&time=2016-01-01&filter=building=*`);
    assert.equal(res.status, 200);
    const body = res.text();
    await started;
    const t0 = Date.now();
    await within(app.close());
    assert.ok(Date.now() - t0 < 5000, 'close does not wait for the extraction');
    assert.equal(abortCauseOf(await within(reason)), 'shutdown');
    await assert.rejects(body, 'the client sees a broken transfer, not a complete document');
  });

  it('server.close() aborts an in-flight v2 extraction and v2 statistics before their first byte', async () => {
    const reasons: unknown[] = [];
    let entered = 0;
    const hold = async (signal: AbortSignal): Promise<never> => {
      entered++;
      const r = await aborted(signal);
      reasons.push(r);
      throw r;
    };
    const extraction: RecordExtraction = {
      async *records(_request, signal) {
        await hold(signal!);
      },
    };
    const stats = { features: (q: { signal?: AbortSignal }) => hold(q.signal!) } as never;
    const app = await createDuckDbServer(db.store, { replace: { parquet: extraction, stats } });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const post = (path: string, body: object) =>
      fetch(`${base}/v2${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const aoi = [1.5, 42.5, 1.55, 42.55];
    const answers = [
      post('/extraction/features.parquet', { aoi, filter: 'building=*', time: '2016-01-01' }),
      post('/stats/features/count.json', { aoi, filter: '*', time: '2016-01-01' }),
    ];
    while (entered < 2) await new Promise((r) => setTimeout(r, 10));
    await within(app.close());
    assert.deepEqual(reasons.map(abortCauseOf), ['shutdown', 'shutdown']);
    for (const a of await Promise.all(answers)) {
      assert.equal(a.status, 503);
      assert.deepEqual(await a.json(), { detail: 'The server is shutting down; the query was cancelled.' });
    }
  });

  it('a v2 extraction over its time limit aborts the engine and answers 504', async () => {
    const reasons: unknown[] = [];
    const extraction: RecordExtraction = {
      async *records(_request, signal) {
        const r = await aborted(signal!);
        reasons.push(r);
        throw r;
      },
    };
    const app = await createDuckDbServer(db.store, { replace: { parquet: extraction }, extractionTimeoutSeconds: 0.2 });
    try {
      const res = await app.inject({
        method: 'POST',
        url: '/v2/extraction/features.parquet',
        payload: { aoi: [1.5, 42.5, 1.55, 42.55], filter: '*', time: '2016-01-01' },
      });
      assert.equal(res.statusCode, 504);
      assert.equal(JSON.parse(res.body).detail[0].type, 'QueryTimeoutError');
      assert.deepEqual(reasons.map(abortCauseOf), ['timeout']);
    } finally {
      await app.close();
    }
  });
});
