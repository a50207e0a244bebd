/**
 * Heavy requests of each route kind on the Andorra sample, and the measurement of the CPU time a
 * server process spends after the client hangs up or the time limit expires (the test
 * src/api/common/cancellation-cpu.test.ts and the figures of `node dist/src/testing/fuzz/cancel-cpu.js`).
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuSeconds, type ServerProcess } from './server-process.js';

const ANDORRA = '1.412368,42.4276,1.787481,42.65717';
/** A star-shaped polygon of 3,000 vertices over most of Andorra (clipping against it is work). */
const STAR = (() => {
  const n = 3000;
  const ring: number[][] = [];
  for (let i = 0; i <= n; i++) {
    const a = ((i % n) / n) * 2 * Math.PI;
    const r = 0.15 * (1 + 0.3 * Math.sin(a * 40));
    ring.push([Number((1.6 + r * Math.cos(a)).toFixed(6)), Number((42.54 + r * 0.8 * Math.sin(a)).toFixed(6))]);
  }
  return { type: 'Polygon', coordinates: [ring] };
})();
const POLYS =
  'a:1.42,42.43,1.78,42.43,1.70,42.55,1.78,42.65,1.42,42.65,1.42,42.43|b:1.5,42.5,1.6,42.5,1.6,42.6,1.5,42.5|c:1.45,42.45,1.7,42.45,1.7,42.6,1.45,42.45';

export interface Heavy {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: object;
  /** An extraction: the hang-up comes after the answer has started (mid-stream). */
  streams?: boolean;
}

export const HEAVY: Heavy[] = [
  {
    name: 'v1 aggregation',
    method: 'GET',
    path: `/v1/elements/area/groupBy/boundary/groupBy/tag?bpolys=${encodeURIComponent(POLYS)}&time=2007-01-01/2017-01-01/P1D&groupByKey=building`,
  },
  {
    name: 'v1 extraction',
    method: 'GET',
    path: `/v1/elementsFullHistory/geometry?bboxes=${ANDORRA}&time=2007-01-01,2017-01-01&properties=tags,metadata`,
    streams: true,
  },
  {
    name: 'v2 statistics',
    method: 'POST',
    path: '/v2-rc/stats/features/length.json',
    body: {
      aoi: STAR,
      filter: '*',
      time: { start: '2008-01-01T00:00:00Z', end: '2017-01-01T00:00:00Z', interval: 'P4D' },
      groupBy: { type: 'byTag', key: 'highway' },
      clip: true,
    },
  },
  {
    name: 'v2 extraction',
    method: 'POST',
    path: '/v2-rc/extraction/features.parquet',
    body: { aoi: STAR, filter: '*', time: { start: '2007-10-08T00:00:00Z', end: '2017-01-01T00:00:00Z' } },
    streams: true,
  },
];

/** CPU seconds the server spends over the next `ms`. */
export async function cpuOver(server: ServerProcess, ms: number): Promise<number> {
  const c0 = cpuSeconds(server.pid);
  await sleep(ms);
  return cpuSeconds(server.pid) - c0;
}

/** Waits (up to 20 s) until the server uses under 0.05 CPU-seconds in 300 ms. */
export async function idle(server: ServerProcess): Promise<void> {
  for (let i = 0; i < 60; i++) if ((await cpuOver(server, 300)) < 0.05) return;
  assert.fail('the server did not become idle');
}

export interface CancelledWork {
  /** CPU seconds from the hang-up (or the time-limit answer) to one second later, and the second after. */
  firstSecond: number;
  secondSecond: number;
  /** The answer's status (timeout) or undefined (hang-up). */
  status?: number;
  /** Whether the answer arrived complete (an extraction cut off by its time limit did not). */
  complete?: boolean;
}

/**
 * Sends `h`, waits until the server has spent 0.3 CPU-seconds on it (and, for an extraction, sent its
 * status and headers: the hang-up comes mid-stream; it must not have answered completely), then
 * hangs up (`disconnect`) or waits for the time-limit answer (`timeout`: the server's limit is 1 s and
 * v1 requests carry timeout=1); then measures the server's CPU time over the next two seconds.
 */
export async function cancelAndMeasure(server: ServerProcess, h: Heavy, mode: 'disconnect' | 'timeout'): Promise<CancelledWork> {
  const url = new URL(server.url);
  const path = mode === 'timeout' && h.path.startsWith('/v1/') ? `${h.path}&timeout=1` : h.path;
  const body = h.body ? Buffer.from(JSON.stringify(h.body)) : undefined;
  const c0 = cpuSeconds(server.pid);
  let answered: { status: number; complete: boolean } | undefined;
  let started = false;
  let hangUp = (): void => undefined;
  const answer = new Promise<{ status: number; complete: boolean }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: h.method,
        path,
        headers: body ? { 'content-type': 'application/json', 'content-length': body.length } : {},
      },
      (res) => {
        started = true;
        res.resume();
        res.on('end', () => resolve((answered = { status: res.statusCode!, complete: true })));
        res.on('error', () => resolve((answered = { status: res.statusCode!, complete: false })));
        res.on('aborted', () => resolve((answered = { status: res.statusCode!, complete: false })));
      },
    );
    req.on('error', reject);
    req.end(body);
    hangUp = () => req.destroy();
  });
  answer.catch(() => undefined);
  if (mode === 'disconnect') {
    const deadline = Date.now() + 20_000;
    const busy = () => cpuSeconds(server.pid) - c0 >= 0.3 && (!h.streams || started);
    while (!busy() && answered === undefined && Date.now() < deadline) await sleep(20);
    assert.equal(answered, undefined, `${h.name}: answered before the server had spent 0.3 CPU-seconds on it: not heavy enough for this test`);
    assert.ok(busy(), `${h.name}: the server did not start working on it${h.streams ? ' (or did not start its answer)' : ''}`);
    hangUp();
  }
  const a = mode === 'timeout' ? await answer : undefined;
  const firstSecond = await cpuOver(server, 1000);
  const secondSecond = await cpuOver(server, 1000);
  return { firstSecond, secondSecond, status: a?.status, complete: a?.complete };
}
