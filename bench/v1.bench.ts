/**
 * bench:v1 — the v1 aggregation API through HTTP on the merged four-country history
 * (testdata/history/oshdb-4countries-merged.osh.pbf, imported to a temp dir at start):
 * (a) elements/count monthly 2008–2017 over Andorra, building=*; (b) elements/area of a bpolys
 * border region, yearly; (c) users/count monthly; (d) contributions/count monthly;
 * (e) elements/length/groupBy/tag highway, yearly; (f)–(i) the contributions by kind (issue 22:
 * groupBy contributionType, type, tag; latest by contributionType), each also against (d) or (dl),
 * the ungrouped count of the same area and time; (j)–(o) issue 22's other new routes and inputs
 * (users per element, a boundary by relation id, JSON and form bodies), each against the usual form. Each: median of repeated runs and the ratio to
 * the raw work of the same answer (bench/cases.ts: a hand-written DuckDB query on the same table, for
 * (b) with the edge rows clipped by the geometry kernel; `runRaw`); for (a) also the
 * osmium route (time-filter + tags-filter per timestamp). Then 32 concurrent clients for 30 s
 * mixing (a)–(e). Writes its section of bench/RESULTS.md.
 *
 * The server is a `maphist serve` process of its own (the answer cache off), as users run it: a
 * server in the benchmark's process shared its event loop with the client, which then decoded
 * (and decompressed) every answer on the server's thread, a large answer's cost counted twice.
 * The raw queries run in this process on the same file (both open it read-only).
 */
import { execFileSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../src/testing/fuzz/server-process.js';
import { importToTemp } from '../src/store/test-support.js';
import { machineDescription, median, replaceResultsSection } from './support.js';
import { FOUR_COUNTRIES } from '../src/testing/test-data.js';
import { MONTHLY, runRaw, V1_CASES as CASES, V1_KIND_CASES as KIND_CASES, VELLA, v1NewCases, type V1Case as Case } from './cases.js';

const FILE = FOUR_COUNTRIES;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 30);
const CLIENTS = 32;

function urlOf(base: string, c: Case): string {
  return `${base}${c.path}?${new URLSearchParams(c.params).toString()}`;
}

/** The case's request: GET with a query, or POST with a form or JSON body. */
function send(base: string, c: Case): Promise<Response> {
  if (c.post === 'json') {
    return fetch(`${base}${c.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(c.params) });
  }
  if (c.post === 'form') return fetch(`${base}${c.path}`, { method: 'POST', body: new URLSearchParams(c.params) });
  return fetch(urlOf(base, c));
}

/** The polygon of relation `id` at `time`, as a bpolys FeatureCollection (the store's geometry, through the API). */
async function relationPolygon(base: string, id: number, time: string): Promise<string> {
  const url = `${base}/v1/elements/geometry?${new URLSearchParams({ bboxes: '1.4,42.42,1.8,42.66', time, filter: `id:relation/${id}` })}`;
  const res = await fetch(url);
  const doc = (await res.json()) as { features: { geometry: unknown }[] };
  if (res.status !== 200 || doc.features.length !== 1) throw new Error(`relation/${id} at ${time}: ${res.status}, ${doc.features?.length} features`);
  return JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: doc.features[0].geometry }] });
}

async function time<T>(f: () => Promise<T>): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

function osmiumRoute(timestamps: number[]): { perTimestampMs: number; sampled: number; count0: number } {
  const dir = mkdtempSync(join(tmpdir(), 'maphist-osmium-'));
  const ms: number[] = [];
  let count0 = -1;
  try {
    for (const t of timestamps) {
      const iso = new Date(t * 1000).toISOString().replace('.000Z', 'Z');
      const started = performance.now();
      execFileSync('osmium', ['time-filter', FILE, iso, '-o', join(dir, 'snap.osm.pbf'), '-O', '--no-progress']);
      execFileSync('osmium', ['tags-filter', join(dir, 'snap.osm.pbf'), 'nwr/building', '-o', join(dir, 'b.osm.pbf'), '-O', '--no-progress', '-R']);
      const info = execFileSync('osmium', ['fileinfo', '-e', '-g', 'data.count.nodes', join(dir, 'b.osm.pbf')]).toString();
      ms.push(performance.now() - started);
      if (count0 < 0) count0 = Number(info.trim());
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { perTimestampMs: median(ms), sampled: timestamps.length, count0 };
}

/**
 * CLIENTS clients cycling through (a)–(e) for LOAD_SECONDS. The server admits 2 heavy requests at
 * once and queues 16 (src/api/common/admission.ts): the others are refused 503 with Retry-After at
 * once, counted apart (`refused`) with their own latency, from the answered ones; a refused client
 * waits as long as the answer's Retry-After says before its next request.
 */
async function loadTest(base: string): Promise<{
  requests: number;
  answered: number;
  refused: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
  refusedP99: number;
}> {
  const latencies: number[] = [];
  const refusedLatencies: number[] = [];
  let errors = 0;
  const end = performance.now() + LOAD_SECONDS * 1000;
  const urls = CASES.map((c) => urlOf(base, c));
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = client; performance.now() < end; i++) {
        const started = performance.now();
        try {
          const res = await fetch(urls[i % urls.length]);
          await res.arrayBuffer();
          if (res.status === 200) latencies.push(performance.now() - started);
          else if (res.status === 503) {
            refusedLatencies.push(performance.now() - started);
            // As a polite client does: wait as long as Retry-After says before asking again.
            await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
          } else errors++;
        } catch {
          errors++;
        }
      }
    }),
  );
  const p = (list: number[], q: number) => {
    const sorted = [...list].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? NaN;
  };
  const requests = latencies.length + refusedLatencies.length + errors;
  return {
    requests,
    answered: latencies.length,
    refused: refusedLatencies.length,
    errors,
    rps: latencies.length / LOAD_SECONDS,
    p50: p(latencies, 0.5),
    p99: p(latencies, 0.99),
    refusedP99: p(refusedLatencies, 0.99),
  };
}

const importStarted = performance.now();
const db = await importToTemp(FILE);
const importSeconds = (performance.now() - importStarted) / 1000;
const server = await startServer(db.store.path, ['--answer-cache', '0', '--timeout', '600']);
const base = server.url;
const rows: string[] = [];
try {
  console.log(`imported in ${importSeconds.toFixed(1)} s; extent ${JSON.stringify(db.store.metadata.spatialExtent.coordinates[0])}`);
  const httpOf = new Map<string, number>();
  const newCases = v1NewCases(await relationPolygon(base, VELLA, '2016-01-01'));
  const all = [...CASES, ...KIND_CASES, ...newCases];
  /** Per case with `against`: its own median over the interleaved runs / the other's over the same. */
  const ratioOf = new Map<string, number>();
  for (const c of all) {
    const firstStarted = performance.now();
    const first = await send(base, c);
    const text = await first.text();
    const firstMs = performance.now() - firstStarted;
    if (first.status !== 200) throw new Error(`${c.id}: ${first.status} ${text.slice(0, 300)}`);
    const httpMs: number[] = [];
    const runOnce = (x: Case) => time(async () => (await send(base, x)).text());
    if (c.against === undefined) {
      for (let i = 0; i < RUNS; i++) httpMs.push(await runOnce(c));
    } else {
      // Interleaved with the case it is compared with (other, this, other, this, …): this machine's
      // speed drifts by tens of percent within a minute, and a ratio of two runs made a minute apart
      // measured the drift (the same query as GET and as a form body once differed 1.9×).
      const other = all.find((x) => x.id === c.against)!;
      const otherMs: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        otherMs.push(await runOnce(other));
        httpMs.push(await runOnce(c));
      }
      ratioOf.set(c.id, median(httpMs) / median(otherMs));
    }
    let s = NaN;
    if (c.sql !== undefined) {
      const query = (sql: string) => db.query(sql);
      await runRaw(c, query); // warm-up
      const sqlMs: number[] = [];
      for (let i = 0; i < RUNS; i++) sqlMs.push(await time(() => runRaw(c, query)));
      s = median(sqlMs);
    }
    const h = median(httpMs);
    httpOf.set(c.id, h);
    const vs = c.against !== undefined ? ` (${ratioOf.get(c.id)!.toFixed(2)}× (${c.against}))` : '';
    const raw = Number.isNaN(s) ? '—' : s.toFixed(1);
    const ratio = Number.isNaN(s) ? '—' : `${(h / s).toFixed(2)}×`;
    console.log(`(${c.id}) ${c.what}: HTTP ${h.toFixed(1)} ms${vs} (first ${firstMs.toFixed(0)} ms), raw DuckDB ${raw} ms, ratio ${ratio}`);
    rows.push(
      `| (${c.id}) | ${c.what.length > 120 ? `${c.what.slice(0, 117)}…` : c.what} | ${h.toFixed(1)}${vs} | ${raw} | ${ratio} | ${firstMs.toFixed(0)} |`,
    );
  }
  // The osmium route for (a): a sample of the 109 monthly timestamps, scaled to all of them.
  const sample = MONTHLY.filter((_, i) => i % 12 === 0);
  const osm = osmiumRoute(sample);
  const osmTotal = osm.perTimestampMs * MONTHLY.length;
  const aHttp = httpOf.get('a')!;
  console.log(
    `osmium: ${osm.perTimestampMs.toFixed(0)} ms per timestamp (${osm.sampled} sampled) → ${(osmTotal / 1000).toFixed(1)} s for ${MONTHLY.length}; ratio ${(osmTotal / aHttp).toFixed(1)}× (a)`,
  );
  const load = await loadTest(base);
  console.log(
    `load: ${load.requests} requests in ${LOAD_SECONDS} s: ${load.answered} answered (${load.rps.toFixed(1)}/s, p50 ${load.p50.toFixed(0)} ms, p99 ${load.p99.toFixed(0)} ms), ${load.refused} refused 503 (p99 ${load.refusedP99.toFixed(0)} ms), ${load.errors} errors`,
  );
  const la = loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');
  replaceResultsSection(
    'v1',
    `## v1 aggregation API (\`npm run bench:v1\`)

Machine: ${machineDescription()}; load average ${la} at the end (other work on the machine skews the figures).

Store: \`oshdb-4countries-merged.osh.pbf\` imported in ${importSeconds.toFixed(1)} s. Requests through HTTP (fetch against
a \`maphist serve\` process on 127.0.0.1, answer cache off; since session 14, before which the server ran in the benchmark's
process and shared its thread with the client's decoding), median of ${RUNS} runs after one warm-up; "raw": the raw work of the same answer
(bench/cases.ts, since session 15), median of ${RUNS} runs: a hand-written DuckDB query on the same \`states\` table in the benchmark's process
((a), (e): bbox test only; (b): one scan that sums the rows whose bbox lies inside the polygon and lists the others, whose
geometries are then read by rowid and clipped by the geometry kernel: the answer's numbers exactly; (c), (d), (f)–(i): the
contributions by the SQL facts, v1 scope, previous state by a window, which leave out only the clipping of the rows on the
box's edge and the placement of states without geometry: within 0.3 % of the answer's totals, 1 % for (f)). "first": the
request's first run on the fresh server (cold DuckDB buffers; the boundary cache, which keeps the WKB of
geometries crossing an area's edge between requests, still empty). (f)–(i) are maphist's contributions by
kind (issue 22), with their time as a multiple of (d) (for (i): (dl), the ungrouped latest count) of the
same area and time, both timed in alternation (${RUNS} runs each; the multiple is of their medians there). (j)–(o) are issue 22's other new
routes and inputs, each as a multiple of the usual form of the same question: users per element beside
users/count, a boundary by relation id beside its polygon pasted as bpolys, (d) as JSON and form bodies.

| case | request | HTTP ms | raw DuckDB ms | ratio | first HTTP ms |
| --- | --- | ---: | ---: | ---: | ---: |
${rows.join('\n')}

osmium route for (a): \`osmium time-filter\` + \`osmium tags-filter nwr/building\` + count, per timestamp on the whole file
(no bbox): ${osm.perTimestampMs.toFixed(0)} ms per timestamp (median of ${osm.sampled} sampled timestamps), i.e. about
${(osmTotal / 1000).toFixed(1)} s for the ${MONTHLY.length} monthly timestamps: ${(osmTotal / aHttp).toFixed(1)}× the HTTP time of (a).

Load: ${CLIENTS} concurrent clients for ${LOAD_SECONDS} s cycling through (a)–(e): ${load.requests} requests.
${load.answered} answered 200 (${load.rps.toFixed(1)} answers/s, p50 ${load.p50.toFixed(0)} ms, p99 ${load.p99.toFixed(0)} ms);
${load.refused} refused 503 with Retry-After by admission (2 heavy requests at once, 16 queued;
src/api/common/admission.ts), p99 ${load.refusedP99.toFixed(0)} ms, after which the client waited the Retry-After; ${load.errors} other errors (statuses other than
200 and 503, or failed connections). Before session 14 the 503s were counted as errors and the refused clients asked again at once.

`,
  );
} finally {
  await server.stop();
  db.dispose();
}
