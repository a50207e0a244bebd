/**
 * The answer cache (answer-cache.ts): its key, and over HTTP on Andorra that a repeated v1
 * aggregation is answered without the engine with the same bytes, that `showMetadata` answers,
 * errors and another store generation are not served from it, and that `timeout` is not part of a
 * request's identity.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { createDuckDbEngines } from '../engines/duckdb/engines.js';
import type { QueryEngine, SnapshotQuery } from '../query/model.js';
import { createStoreHandle, type StoreHandle } from '../query/generations.js';
import { importToTemp, TEST_DATA, type ImportedDb } from '../store/test-support.js';
import { answerKey, canonicalJson, createAnswerCache } from './answer-cache.js';
import { buildApp } from './server.js';

describe('answerKey and the budget', () => {
  it('is the same for the same parameters in another order or with another timeout, and differs with the generation, route or a value', () => {
    const a = answerKey(1, '/elements/count', [
      ['bboxes', '1,2,3,4'],
      ['time', '2016-01-01'],
      ['timeout', '5'],
    ]);
    assert.equal(
      a,
      answerKey(1, '/elements/count', [
        ['time', '2016-01-01'],
        ['bboxes', '1,2,3,4'],
      ]),
    );
    assert.notEqual(
      a,
      answerKey(2, '/elements/count', [
        ['bboxes', '1,2,3,4'],
        ['time', '2016-01-01'],
      ]),
    );
    assert.notEqual(
      a,
      answerKey(1, '/elements/area', [
        ['bboxes', '1,2,3,4'],
        ['time', '2016-01-01'],
      ]),
    );
    assert.notEqual(
      a,
      answerKey(1, '/elements/count', [
        ['bboxes', '1,2,3,5'],
        ['time', '2016-01-01'],
      ]),
    );
    // Two values of one name keep their order (groupByValues, repeated parameters).
    assert.notEqual(
      answerKey(1, '/x', [
        ['v', 'a'],
        ['v', 'b'],
      ]),
      answerKey(1, '/x', [
        ['v', 'b'],
        ['v', 'a'],
      ]),
    );
  });

  it('canonicalJson sorts the keys of every object, keeps the order of arrays, and gives up on a body nested too deep to write', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [2, 1], c: null } }), '{"a":{"c":null,"d":[2,1]},"b":1}');
    assert.equal(canonicalJson({ a: { c: null, d: [2, 1] }, b: 1 }), canonicalJson({ b: 1, a: { d: [2, 1], c: null } }));
    assert.notEqual(canonicalJson({ a: [1, 2] }), canonicalJson({ a: [2, 1] }));
    assert.equal(canonicalJson(JSON.parse(`{"aoi":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)), undefined);
  });

  it('the cache keeps no more than its bytes, the least recently used leaving first', () => {
    const cache = createAnswerCache(10_000);
    const answer = (n: number) => ({ contentType: 'application/json', cacheControl: 'no-cache', headers: {}, body: 'x'.repeat(n) });
    cache.set('a', answer(2000));
    cache.set('b', answer(2000));
    assert.ok(cache.get('a'));
    cache.set('c', answer(2000)); // 3 × (256 + 4000) > 10,000: b, the least recently used, leaves
    assert.equal(cache.get('b'), undefined);
    assert.ok(cache.get('a') && cache.get('c'));
    assert.ok(cache.totalBytes <= 10_000);
  });
});

/** One import of Andorra for the suites over HTTP below. */
let db: ImportedDb;
before(async () => {
  db = await importToTemp(join(TEST_DATA, 'history', 'andorra.osh.pbf'));
});
after(() => db.dispose());

describe('answer cache over HTTP (Andorra)', () => {
  let handle: StoreHandle;
  let base: string;
  let close: () => Promise<void>;
  let calls = 0;
  let statsCalls = 0;
  let swapIn: () => void;

  before(async () => {
    const engines = await createDuckDbEngines(db.store);
    const real = engines.aggregation;
    const counting: QueryEngine = {
      ...real,
      aggregateSnapshots: (q: SnapshotQuery) => {
        calls++;
        return real.aggregateSnapshots(q);
      },
    };
    const stats = engines.stats;
    const countingStats: typeof stats = {
      ...stats,
      features: (q) => {
        statsCalls++;
        return stats.features(q);
      },
    };
    const generation = () => ({
      engines: { ...engines, aggregation: counting, stats: countingStats },
      metadata: db.store.metadata,
      dictionary: engines.dictionary,
      close: () => undefined,
    });
    handle = createStoreHandle(generation());
    swapIn = () => void handle.swap(generation());
    const app = await buildApp({ store: handle, config: { answerCacheBytes: 16 * 2 ** 20 } });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    close = () => app.close();
  });
  after(async () => {
    await close();
  });

  const count = (extra = '') => fetch(`${base}/v1/elements/count?bboxes=1.5,42.5,1.55,42.55&time=2016-01-01&filter=building=*${extra}`);

  it('a repeated request is answered with the same bytes without the engine; timeout is not part of its identity', async () => {
    const before = calls;
    const first = await count();
    const text = await first.text();
    assert.equal(first.status, 200);
    assert.equal(calls, before + 1);
    const again = await count('&timeout=30');
    assert.equal(again.status, 200);
    assert.equal(await again.text(), text);
    assert.equal(again.headers.get('content-type'), first.headers.get('content-type'));
    assert.equal(again.headers.get('cache-control'), first.headers.get('cache-control'));
    assert.equal(calls, before + 1, 'the engine was not asked again');
  });

  it('answers with showMetadata and errors are computed every time', async () => {
    const before = calls;
    await (await count('&showMetadata=true')).text();
    await (await count('&showMetadata=true')).text();
    assert.equal(calls, before + 2);
    const bad = await fetch(`${base}/v1/elements/count?bboxes=1.5,42.5,1.55&time=2016-01-01`);
    assert.equal(bad.status, 400);
    assert.equal((await fetch(`${base}/v1/elements/count?bboxes=1.5,42.5,1.55&time=2016-01-01`)).status, 400);
  });

  it('v2 statistics: the same body (its keys in another order) is answered without the engine, under both prefixes; another body is computed', async () => {
    const post = (prefix: string, body: object) =>
      fetch(`${base}${prefix}/stats/features/count.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const before = statsCalls;
    const first = await post('/v2-rc', {
      aoi: [1.5, 42.5, 1.55, 42.55],
      filter: 'building=*',
      time: { start: '2014-01-01', end: '2016-01-01', interval: 'P1Y' },
    });
    const text = await first.text();
    assert.equal(first.status, 200);
    assert.equal(statsCalls, before + 1);
    const again = await post('/v2', { time: { interval: 'P1Y', end: '2016-01-01', start: '2014-01-01' }, filter: 'building=*', aoi: [1.5, 42.5, 1.55, 42.55] });
    assert.equal(again.status, 200);
    assert.equal(await again.text(), text);
    assert.equal(again.headers.get('content-type'), first.headers.get('content-type'));
    assert.equal(statsCalls, before + 1, 'the engine was not asked again');
    const other = await post('/v2', { time: { start: '2014-01-01', end: '2016-01-01', interval: 'P1Y' }, filter: 'highway=*', aoi: [1.5, 42.5, 1.55, 42.55] });
    assert.equal(other.status, 200);
    assert.notEqual(await other.text(), text);
    assert.equal(statsCalls, before + 2);
    const invalid = await post('/v2', { aoi: [1.5, 42.5, 1.55], filter: 'building=*' });
    assert.equal(invalid.status, 422);
    assert.equal((await post('/v2', { aoi: [1.5, 42.5, 1.55], filter: 'building=*' })).status, 422);
  });

  it('another store generation computes its own answer', async () => {
    await (await count('&format=csv')).text();
    const before = calls;
    await (await count('&format=csv')).text();
    assert.equal(calls, before, 'same generation: from the cache');
    swapIn();
    await (await count('&format=csv')).text();
    assert.equal(calls, before + 1, 'a new generation: computed again');
  });
});

describe('answers in flight and admission (Andorra, one slot, no queue)', () => {
  let base: string;
  let close: () => Promise<void>;
  let calls = 0;
  /** The engine holds every call until the gate opens; each test opens it when it ends, whatever happened. */
  let gate: Promise<void> = Promise.resolve();
  let open: () => void = () => undefined;
  const closeGate = () => {
    gate = new Promise((resolve) => (open = resolve));
  };
  afterEach(() => open());

  before(async () => {
    const engines = await createDuckDbEngines(db.store);
    const real = engines.aggregation;
    const gated: QueryEngine = {
      ...real,
      aggregateSnapshots: async (q: SnapshotQuery) => {
        calls++;
        await gate;
        return real.aggregateSnapshots(q);
      },
    };
    const handle = createStoreHandle({
      engines: { ...engines, aggregation: gated },
      metadata: db.store.metadata,
      dictionary: engines.dictionary,
      close: () => undefined,
    });
    const app = await buildApp({
      store: handle,
      config: { answerCacheBytes: 16 * 2 ** 20, admission: { concurrency: 1, queue: 0 } },
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    close = () => app.close();
  });
  after(async () => {
    open();
    await close();
  });

  const url = (time: string) => `${base}/v1/elements/count?bboxes=1.5,42.5,1.55,42.55&filter=building=*&time=${time}`;
  /** Until the engine has been called `n` times in all. */
  const engineCalled = async (n: number) => {
    const deadline = Date.now() + 10_000;
    while (calls < n) {
      if (Date.now() > deadline) assert.fail(`the engine was called ${calls} times, not ${n}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  const settledWithin = async (p: Promise<unknown>, ms: number) =>
    Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

  it('identical requests while one computes wait for its answer: the engine is asked once, all get the same bytes', async () => {
    closeGate();
    const before = calls;
    const first = fetch(url('2014-01-01'));
    await engineCalled(before + 1);
    // The slot is taken and there is no queue: without sharing, these would be refused 503 at once.
    const others = Array.from({ length: 5 }, () => fetch(url('2014-01-01')));
    assert.equal(await settledWithin(Promise.race(others), 300), false, 'the identical requests wait for the answer being computed');
    open();
    const answers = await Promise.all([first, ...others]);
    const bodies = await Promise.all(answers.map((r) => r.text()));
    assert.deepEqual(
      answers.map((r) => r.status),
      [200, 200, 200, 200, 200, 200],
    );
    assert.equal(new Set(bodies).size, 1);
    assert.equal(calls, before + 1, 'the engine was asked once');
  });

  it('an answer in the cache is given while every slot is taken; a new request is refused', async () => {
    const cached = await (await fetch(url('2014-01-01'))).text();
    const before = calls;
    assert.equal(await (await fetch(url('2014-01-01'))).text(), cached);
    assert.equal(calls, before, 'from the cache');
    closeGate();
    const holding = fetch(url('2015-01-01'));
    await engineCalled(before + 1);
    const again = await fetch(url('2014-01-01'));
    assert.equal(again.status, 200, 'a cached answer takes no slot');
    assert.equal(await again.text(), cached);
    const refused = await fetch(url('2013-01-01'));
    assert.equal(refused.status, 503);
    await refused.text();
    open();
    assert.equal((await holding).status, 200);
  });

  it('when the request computing the answer leaves, one of those waiting computes it and the others get its answer', async () => {
    closeGate();
    const before = calls;
    // The first client hangs up (a socket closed, as a client that leaves does).
    const leaving = httpRequest(url('2012-01-01'));
    leaving.on('error', () => undefined);
    leaving.end();
    let others: Promise<Response>[];
    try {
      await engineCalled(before + 1);
      others = Array.from({ length: 3 }, () => fetch(url('2012-01-01')));
      assert.equal(await settledWithin(Promise.race(others), 200), false);
    } finally {
      leaving.destroy();
    }
    // One waiting request takes over: the engine is asked a second time (and held by the gate).
    await engineCalled(before + 2);
    open();
    const answers = await Promise.all(others);
    assert.deepEqual(
      answers.map((r) => r.status),
      [200, 200, 200],
    );
    assert.equal(new Set(await Promise.all(answers.map((r) => r.text()))).size, 1);
    assert.equal(calls, before + 2, 'the leaver and one that took over; the others waited');
  });
});
