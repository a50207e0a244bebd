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

const FILE = FOUR_COUNTRIES;
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
/** All of Andorra (the country's bbox). */
const ANDORRA = [1.4, 42.42, 1.8, 42.66] as const;
const START = '2008-01-01T00:00:00Z';
const END = '2018-01-01T00:00:00Z';

function monthly(): number[] {
  const out: number[] = [];
  for (let k = 0; k <= 120; k++) out.push(Date.UTC(2008, k, 1) / 1000);
  return out;
}
const MONTHS = monthly();
/** SQL: how many of the monthly timestamps lie before the epoch seconds `x`. */
function monthsBefore(x: string): string {
  const t = `make_timestamp((${x}) * 1000000)`;
  return `(CASE WHEN ${t} <= TIMESTAMP '2008-01-01' THEN 0 ELSE least(${MONTHS.length}, datediff('month', TIMESTAMP '2008-01-01', date_trunc('month', ${t})) + CASE WHEN ${t} > date_trunc('month', ${t}) THEN 1 ELSE 0 END) END)`;
}
const bboxSql = `s.xmax >= ${ANDORRA[0]} AND s.xmin <= ${ANDORRA[2]} AND s.ymax >= ${ANDORRA[1]} AND s.ymin <= ${ANDORRA[3]}`;

interface Case {
  id: string;
  what: string;
  path: string;
  body: unknown;
  sql: string;
}

const CASES: Case[] = [
  {
    id: 'a',
    what: 'stats/features/count, monthly 2008–2018 (121 timestamps), Andorra, building=*',
    path: '/v2-rc/stats/features/count.json',
    body: { aoi: [...ANDORRA], filter: 'building=*', time: { start: START, end: END, interval: 'P1M' } },
    // Per state: #timestamps before valid_from and before valid_to by month arithmetic; counts by a running sum.
    sql: `WITH r AS (
        SELECT ${monthsBefore('s.valid_from')} AS f, ${monthsBefore('least(s.valid_to, 4102444800)')} AS e FROM states s
        WHERE NOT s.deleted AND s.geometry_valid AND s.geometry_type BETWEEN 1 AND 6 AND map_contains(s.tags, 'building') AND ${bboxSql}
          AND s.valid_from <= ${MONTHS[MONTHS.length - 1]} AND s.valid_to > ${MONTHS[0]}),
      d AS (SELECT f AS i, 1 AS c FROM r WHERE f < e UNION ALL SELECT e, -1 FROM r WHERE f < e)
      SELECT i, sum(sum(c)) OVER (ORDER BY i) FROM d GROUP BY i ORDER BY i`,
  },
  {
    id: 'b',
    what: 'stats/contributors/count, monthly bins 2008–2018 (120 bins), Andorra, no filter',
    path: '/v2-rc/stats/contributors/count.json',
    body: { aoi: [...ANDORRA], filter: '*', time: { start: START, end: END, binSize: 'P1M' } },
    // Calendar-month bins by date arithmetic (no join with the bin list).
    sql: `SELECT datediff('month', TIMESTAMP '2008-01-01', make_timestamp(s.valid_from * 1000000)) AS k, count(DISTINCT s.user_id) FROM states s
      WHERE s.valid_from >= ${MONTHS[0]} AND s.valid_from < ${MONTHS[MONTHS.length - 1]} AND NOT s.collapsed AND s.geometry_type <> 0 AND ${bboxSql} GROUP BY k ORDER BY k`,
  },
];

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
