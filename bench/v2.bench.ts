/**
 * bench:v2 — the version 2 statistics API through HTTP on the merged four-country history
 * (testdata/history/oshdb-4countries-merged.osh.pbf; the store is BENCH_DB, default
 * /tmp/v2pq-4c.duckdb, imported first when missing — the same store bench/v2-extract.bench.ts uses): (a) /stats/features/count monthly over ten years for all of Andorra;
 * (b) /stats/contributors/count with monthly bins over the same decade. Each: median of repeated
 * runs and the ratio to the raw DuckDB lower bound (the same numbers from a single SQL statement with
 * bbox tests only, no exact geometry test) measured in the same run. Writes its section of
 * bench/RESULTS.md; `npm run bench:v2` then runs the GeoParquet part (bench/v2-extract.bench.ts).
 */
import { loadavg } from 'node:os';
import { createDuckDbServer as createServer } from '../src/testing/server.js';
import { openStore } from '../src/store/open-store.js';
import { existsSync } from 'node:fs';
import { importHistory } from '../src/store/import-history.js';
import { machineDescription, median, replaceResultsSection } from './support.js';
import { FOUR_COUNTRIES } from '../src/testing/test-data.js';
import { V2_CASES as CASES } from './cases.js';

const FILE = FOUR_COUNTRIES;
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
async function time(f: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

const DB = process.env.BENCH_DB ?? '/tmp/v2pq-4c.duckdb';
let storeNote = `existing store \`${DB}\``;
if (!existsSync(DB)) {
  const r = await importHistory({ input: FILE, db: DB });
  storeNote = `imported to \`${DB}\` in ${r.seconds.toFixed(1)} s`;
}
const store = await openStore(DB);
const app = await createServer(store, {});
const base = `${await app.listen({ port: 0, host: '127.0.0.1' })}`;
const con = await store.connect();
const rows: string[] = [];
try {
  for (const c of CASES) {
    const send = async () => {
      const res = await fetch(`${base}${c.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(c.body) });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${c.id}: ${res.status} ${text.slice(0, 300)}`);
      return text;
    };
    await send(); // warm-up
    const httpMs: number[] = [];
    for (let i = 0; i < RUNS; i++) httpMs.push(await time(send));
    await con.runAndReadAll(c.sql);
    const sqlMs: number[] = [];
    for (let i = 0; i < RUNS; i++) sqlMs.push(await time(() => con.runAndReadAll(c.sql)));
    const h = median(httpMs);
    const s = median(sqlMs);
    console.log(`(${c.id}) ${c.what}: HTTP ${h.toFixed(1)} ms, raw DuckDB ${s.toFixed(1)} ms, ratio ${(h / s).toFixed(2)}×`);
    rows.push(`| (${c.id}) | ${c.what} | ${h.toFixed(1)} | ${s.toFixed(1)} | ${(h / s).toFixed(2)}× |`);
  }
  const la = loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');
  replaceResultsSection(
    'v2',
    `## v2 statistics API (\`npm run bench:v2\`)

Machine: ${machineDescription()}; load average ${la} at the end.

Store: \`oshdb-4countries-merged.osh.pbf\`, ${storeNote}. Requests through HTTP (fetch
against 127.0.0.1, keys disabled), median of ${RUNS} runs after one warm-up. The raw DuckDB lower bound computes the
same numbers in one statement with bbox tests only (no exact intersection test of boundary geometries), median
of ${RUNS} runs on the same store. Targets: under 50 ms, within 3× of the lower bound.

| case | request | HTTP ms | raw DuckDB ms | ratio |
| --- | --- | ---: | ---: | ---: |
${rows.join('\n')}

`,
  );
} finally {
  con.closeSync();
  await app.close();
  store.close();
}
