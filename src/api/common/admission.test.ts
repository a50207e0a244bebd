/**
 * Admission (admission.ts): the bounded semaphore on its own, then through real HTTP over a small
 * store with one slot and a queue of one: a heavy request held in its slot (a real engine behind a
 * gate the test opens), one waiting, the next answered 503 with Retry-After in each version's error
 * shape; trivial requests bypass it; the waiting request gets its real answer once the slot frees.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createDuckDbEngines } from '../../engines/duckdb/engines.js';
import type { QueryEngine } from '../../query/model.js';
import { importToTemp, TEST_DATA, type ImportedDb } from '../../store/test-support.js';
import { createDuckDbServer } from '../../testing/server.js';
import { Slots } from './admission.js';

describe('Slots', () => {
  it('grants up to its concurrency, queues up to its bound, refuses beyond, first in first out', async () => {
    const slots = new Slots(2, 2);
    const a = await slots.acquire();
    const b = await slots.acquire();
    assert.ok(a && b);
    const order: string[] = [];
    const c = slots.acquire().then((r) => (order.push('c'), r));
    const d = slots.acquire().then((r) => (order.push('d'), r));
    assert.equal(await slots.acquire(), undefined, 'the queue is full');
    assert.deepEqual(slots.load, { running: 2, waiting: 2 });
    a();
    a(); // a second release of the same slot changes nothing
    const rc = await c;
    assert.deepEqual(order, ['c']);
    assert.deepEqual(slots.load, { running: 2, waiting: 1 });
    b();
    const rd = await d;
    assert.deepEqual(order, ['c', 'd']);
    rc!();
    rd!();
    assert.deepEqual(slots.load, { running: 0, waiting: 0 });
  });

  it('a waiter whose signal aborts leaves the queue with the reason', async () => {
    const slots = new Slots(1, 1);
    const a = await slots.acquire();
    const controller = new AbortController();
    const waiting = slots.acquire(controller.signal);
    const reason = new Error('gone');
    controller.abort(reason);
    await assert.rejects(waiting, (e) => e === reason);
    assert.deepEqual(slots.load, { running: 1, waiting: 0 });
    a!();
    assert.deepEqual(slots.load, { running: 0, waiting: 0 });
  });
});

describe('admission over HTTP (one slot, a queue of one)', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let base: string;
  let open!: () => void;
  let gate: Promise<void>;
  let entered: Promise<void>;
  let enter!: () => void;
  before(async () => {
    db = await importToTemp(join(TEST_DATA, 'testcases', 'handmade', 'history-small.osh.pbf'));
    const engines = await createDuckDbEngines(db.store);
    const real = engines.aggregation;
    gate = new Promise((resolve) => (open = resolve));
    entered = new Promise((resolve) => (enter = resolve));
    // The real engine, behind a gate: the first query holds the only slot until the test opens it.
    const gated: QueryEngine = {
      ...real,
      aggregateSnapshots: async (q) => {
        enter();
        await gate;
        return real.aggregateSnapshots(q);
      },
    };
    app = await createDuckDbServer(db.store, { engines, engine: gated, admission: { concurrency: 1, queue: 1, retryAfterSeconds: 3 } });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    open();
    await app.close();
    db.dispose();
  });

  it('holds, queues, then answers 503 with Retry-After in each version’s shape; trivial requests pass', async () => {
    const count = () => fetch(`${base}/v1/elements/count?bboxes=8,49,9,50&time=2020-05-01`);
    const first = count();
    await entered;
    const second = count();
    // The second is queued once its request reached admission; give it a moment, then the queue is full.
    let v1: Response | undefined;
    for (let k = 0; k < 50; k++) {
      await new Promise((r) => setTimeout(r, 20));
      v1 = await fetch(`${base}/v1/elements/count?bboxes=8,49,9,50&time=2020-06-01`);
      if (v1.status === 503) break;
      assert.fail(`a third heavy request was answered ${v1.status} while the slot and queue were taken`);
    }
    assert.equal(v1!.status, 503);
    assert.equal(v1!.headers.get('retry-after'), '3');
    const body1 = await v1!.json();
    assert.equal(body1.status, 503);
    assert.match(body1.message, /busy/);
    assert.match(body1.requestUrl, /\/v1\/elements\/count\?bboxes=8,49,9,50&time=2020-06-01$/);
    assert.ok(body1.attribution);

    const v2 = await fetch(`${base}/v2-rc/stats/features/count.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ aoi: [8, 49, 9, 50], filter: '*', time: { start: '2020-01-01T00:00:00Z', end: '2020-06-01T00:00:00Z', interval: 'P1M' } }),
    });
    assert.equal(v2.status, 503);
    assert.equal(v2.headers.get('retry-after'), '3');
    assert.match((await v2.json()).detail, /busy/);
    const extraction = await fetch(`${base}/v2-rc/extraction/features.parquet?aoi=8,49,9,50&time=2020-05-01T00:00:00Z&filter=*`);
    assert.equal(extraction.status, 503);

    // Trivial requests bypass admission.
    for (const path of ['/v1/metadata', '/v2-rc/health', '/v2-rc/metadata']) assert.equal((await fetch(base + path)).status, 200, path);

    open();
    const [a, b] = await Promise.all([first, second]);
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    assert.equal((await a.json()).result.length, 1);
    assert.equal((await b.json()).result.length, 1);
    // The slot is free again.
    assert.equal((await count()).status, 200);
  });

  it('a time limit counts the wait in the queue: a request queued longer than its timeout is refused once it gets the slot', async () => {
    gate = new Promise((resolve) => (open = resolve));
    entered = new Promise((resolve) => (enter = resolve));
    const first = fetch(`${base}/v1/elements/count?bboxes=8,49,9,50&time=2020-05-01`);
    await entered;
    const queued = fetch(`${base}/v1/elements/count?bboxes=8,49,9,50&time=2020-05-01&timeout=1`);
    await new Promise((r) => setTimeout(r, 1500));
    open();
    const [a, b] = await Promise.all([first, queued]);
    assert.equal(a.status, 200);
    // Alone it takes milliseconds; it waited 1.5 s for its slot, beyond its 1 s.
    const body = await b.text();
    assert.equal(b.status, 413, body);
    assert.match(JSON.parse(body).message, /time/i);
  });
});

describe('admission over HTTP: the memory budget', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let base: string;
  // The process's resident memory as the server sees it: the test moves it over and under the budget.
  let resident = 100;
  before(async () => {
    db = await importToTemp(join(TEST_DATA, 'testcases', 'handmade', 'history-small.osh.pbf'));
    app = await createDuckDbServer(db.store, { admission: { concurrency: 2, memoryBudgetBytes: 1000 * 2 ** 20, residentBytes: () => resident * 2 ** 20 } });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await app.close();
    db.dispose();
  });

  it('over the budget, a heavy request is refused with 503 naming the memory; trivial ones pass; under it again, it is answered', async () => {
    const count = () => fetch(`${base}/v1/elements/count?bboxes=8,49,9,50&time=2020-05-01`);
    assert.equal((await count()).status, 200);
    resident = 1500;
    const refused = await count();
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.match((await refused.json()).message, /1500 MiB, over its memory budget of 1000 MiB \(maphist serve --memory-limit\)/);
    const v2 = await fetch(`${base}/v2-rc/stats/features/count.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ aoi: [8, 49, 9, 50], filter: '*', time: { start: '2020-01-01T00:00:00Z', end: '2020-06-01T00:00:00Z', interval: 'P1M' } }),
    });
    assert.equal(v2.status, 503);
    assert.match((await v2.json()).detail, /memory budget/);
    for (const path of ['/v1/metadata', '/v2-rc/health']) assert.equal((await fetch(base + path)).status, 200, path);
    resident = 900;
    assert.equal((await count()).status, 200, 'under the budget again');
  });
});
