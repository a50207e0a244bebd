/**
 * A store that changes under a running server (src/query/generations.ts, src/api/generation-hook.ts):
 * two stores that answer differently — a region's history, and the same history cut at 2015-01-01
 * (written with the project's PBF writer) — are swapped while 20 requests run (v1 aggregations and
 * metadata, v2 statistics and metadata, all at the data's `latest`). None fails, and each answer
 * equals, byte for byte, the answer of one generation alone: an answer that mixed one generation's
 * metadata (`latest`) with the other's data would equal neither. Each generation's answers come from
 * a server that only ever had that store. Swapped-out generations close once their last request
 * has ended.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { openDuckDbGeneration } from '../engines/duckdb/generation.js';
import { openHistory } from '../io/open-history.js';
import { createPbfWriter } from '../io/pbf-writer/pbf-writer.js';
import { createStoreHandle, type StoreHandle } from '../query/generations.js';
import { importHistory } from '../store/import-history.js';
import { TEST_DATA } from '../testing/test-data.js';
import { buildApp } from './server.js';

const REGION = join(TEST_DATA, 'history', 'equatorial-guinea.osh.pbf');
const CUT = Date.UTC(2015, 0, 1) / 1000;

/** Writes the versions of `input` older than `cut` (epoch seconds) to `output`. */
async function cutHistory(input: string, output: string, cut: number): Promise<void> {
  const history = await openHistory(input);
  const writer = createPbfWriter(output, history.header);
  try {
    for await (const batch of history.batches()) {
      for (const v of batch) {
        if (v.timestamp >= cut) continue;
        const wait = writer.write(v);
        if (wait) await wait;
      }
    }
  } finally {
    await history.close();
    await writer.close();
  }
}

interface Call {
  name: string;
  path: string;
  body?: unknown;
}

describe('swapping store generations under 20 running requests', () => {
  let dir: string;
  let full: string;
  let early: string;
  let handle: StoreHandle;
  let app: FastifyInstance;
  let base: string;
  let calls: Call[];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'maphist-generations-'));
    full = join(dir, 'full.duckdb');
    early = join(dir, 'early.duckdb');
    const cutFile = join(dir, 'early.osh.pbf');
    await cutHistory(REGION, cutFile, CUT);
    await importHistory({ input: REGION, db: full });
    await importHistory({ input: cutFile, db: early });
    handle = createStoreHandle(await openDuckDbGeneration(full));
    // Without the answer cache (every request reaches the engines while the generations swap), and
    // with room in the queue for all 20 at once (none refused).
    app = await buildApp({ store: handle, config: { timeoutSeconds: 100, answerCacheBytes: 0, admission: { queue: 32 } } });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    // The cut store's data bbox lies within the full one's: every call is valid in both.
    const probe = await openDuckDbGeneration(early);
    const [a, b, c, d] = probe.metadata.dataBbox;
    await probe.close();
    const bboxes = [a, b, c, d].map((x) => x.toFixed(4)).join(',');
    calls = [
      { name: 'v1 elements/count', path: `/v1/elements/count?bboxes=${bboxes}` },
      { name: 'v1 elements/length highway', path: `/v1/elements/length?bboxes=${bboxes}&filter=highway=*` },
      { name: 'v1 elements/count by type', path: `/v1/elements/count/groupBy/type?bboxes=${bboxes}&format=csv` },
      { name: 'v1 metadata', path: '/v1/metadata' },
      {
        name: 'v2 stats features/count',
        path: '/v2/stats/features/count.json',
        body: { aoi: [a, b, c, d], filter: 'building=* or highway=*', time: 'latest' },
      },
      { name: 'v2 metadata', path: '/v2/metadata' },
    ];
  });
  after(async () => {
    await app?.close();
    await handle?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const send = async (call: Call, at = base): Promise<{ status: number; body: string }> => {
    const res =
      call.body === undefined
        ? await fetch(`${at}${call.path}`)
        : await fetch(`${at}${call.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(call.body) });
    return { status: res.status, body: await res.text() };
  };
  /** Every call once, one after the other, to the server at `at`. */
  const answersAlone = async (at = base): Promise<string[]> => {
    const out: string[] = [];
    for (const call of calls) {
      const r = await send(call, at);
      assert.equal(r.status, 200, `${call.name}: ${r.body}`);
      out.push(r.body);
    }
    return out;
  };
  /** The answers of a server that only ever had the store at `db`: the oracle of each generation. */
  const answersOfStore = async (db: string): Promise<string[]> => {
    const own = createStoreHandle(await openDuckDbGeneration(db));
    const server = await buildApp({ store: own, config: { timeoutSeconds: 100 } });
    try {
      return await answersAlone(await server.listen({ port: 0, host: '127.0.0.1' }));
    } finally {
      await server.close();
      await own.close();
    }
  };

  it('none fails, each answers exactly as one generation, and swapped-out generations close after their last request', async () => {
    const fullAnswers = await answersOfStore(full);
    const earlyAnswers = await answersOfStore(early);
    calls.forEach((call, k) =>
      assert.notEqual(fullAnswers[k], earlyAnswers[k], `${call.name} answers the same in both stores: the test could not tell them apart`),
    );
    // The server under test answered as the full store before any swap.
    assert.deepEqual(await answersAlone(), fullAnswers);

    // Opened beforehand, so that each swap is instantaneous while requests run.
    const nextEarly = await openDuckDbGeneration(early);
    const nextFull = await openDuckDbGeneration(full);
    const info = (n: number) => handle.generations().find((g) => g.number === n) ?? { leases: 0, served: 0 };
    /** Waits until generation `n` has leased `served` requests in all; returns how many it holds now. */
    const waitForServed = async (n: number, served: number) => {
      const t0 = Date.now();
      while (info(n).served < served && Date.now() - t0 < 20_000) await new Promise((r) => setTimeout(r, 1));
      assert.equal(info(n).served, served);
      return info(n).leases;
    };
    const requests: Promise<{ status: number; body: string }>[] = [];
    const fire = (n: number) => {
      for (let i = 0; i < n; i++) requests.push(send(calls[requests.length % calls.length]!));
    };

    // Ten requests on the full store; once all ten hold it, swap in the cut store and send ten more;
    // once those hold the cut store, swap the full one back in. Each swap happens while requests run.
    const started = handle.current().number;
    const servedBefore = info(started).served;
    fire(10);
    const runningAtFirst = await waitForServed(started, servedBefore + 10);
    const first = handle.swap(nextEarly);
    fire(10);
    const runningAtSecond = await waitForServed(first.number, 10);
    const second = handle.swap(nextFull);
    const answers = await Promise.all(requests);
    await Promise.all([first.previousClosed, second.previousClosed]);

    assert.ok(runningAtFirst > 0 && runningAtSecond > 0, `requests were running at each swap: ${runningAtFirst}, ${runningAtSecond}`);
    answers.forEach((r, i) => {
      const k = i % calls.length;
      assert.equal(r.status, 200, `request ${i} (${calls[k]!.name}): ${r.body}`);
      const [expected, store] = i < 10 ? [fullAnswers[k], 'full'] : [earlyAnswers[k], 'cut'];
      assert.equal(r.body, expected, `request ${i} (${calls[k]!.name}) did not answer exactly as the ${store} store`);
    });
    // Only the last generation is open now: the two swapped out closed after their last request.
    assert.deepEqual(handle.generations(), [{ number: second.number, leases: 0, served: 0, current: true }]);
    assert.deepEqual(await answersAlone(), fullAnswers);
  });
});
