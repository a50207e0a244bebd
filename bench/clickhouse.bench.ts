/**
 * bench:clickhouse — the version 1 aggregation set (bench/cases.ts (a)–(i), and (w) a whole-world
 * yearly count) on three engines over the same store: DuckDB (`maphist serve --db`), ClickHouse on a
 * two-shard cluster of Debian's clickhouse-server on loopback (`maphist serve --engine clickhouse`,
 * scripts/clickhouse-cluster.sh) and chDB (ClickHouse embedded, served from this process), at
 * several data sizes: the 4-country history (×1) and synthetic histories N times larger (bench/synth.ts:
 * the 4-country history tiled N times with shifted ids and positions; the Andorra bbox queries then
 * meet the same rows while the store grows, the whole-world query meets N times as many). Also the
 * load: seconds and states per second per shard.
 *
 *   npm run bench:clickhouse [-- --scales 1,10] [--stores DIR]      (BENCH_RUNS: runs per case, default 5;
 *                                                                    BENCH_COMMIT: the build's commit, when not HEAD)
 *
 * First, the transfer format: the 4-country store's states encoded as RowBinary (the loader's) and
 * as TabSeparated, each inserted into a fresh MergeTree table on one 18.16 server; encoding and
 * server time apart. (Native, the third format 18.16 reads, is columnar: a batch must be
 * transposed and every column buffered before it is sent; not measured.)
 *
 * Every answer is checked equal across the engines (the numbers of the JSON result) before it is
 * timed. Writes its section of bench/RESULTS.md. All three run on the same 2-core machine: the
 * cluster's two shards share it, so the cluster shows its overhead here, not its scale-out.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/api/server.js';
import { chdbConnection } from '../src/engines/clickhouse/chdb-connection.js';
import { openClickHouseGeneration } from '../src/engines/clickhouse/engines.js';
import { ClickHouseHttp } from '../src/engines/clickhouse/http-client.js';
import { loadIntoClickHouse, type LoadSummary } from '../src/engines/clickhouse/load.js';
import { RowBinaryWriter, type ChType } from '../src/engines/clickhouse/row-binary.js';
import { createTableSql, STATE_COLUMNS } from '../src/engines/clickhouse/schema.js';
import { storeExport } from '../src/engines/duckdb/store-export.js';
import { createStoreHandle } from '../src/query/generations.js';
import { openStore } from '../src/store/open-store.js';
import { importInto, startServer, type ServerProcess } from '../src/testing/fuzz/server-process.js';
import { FOUR_COUNTRIES } from '../src/testing/test-data.js';
import { V1_CASES, V1_KIND_CASES, type V1Case } from './cases.js';
import { machineDescription, median, replaceResultsSection, RESULTS } from './support.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SCRIPT = fileURLToPath(new URL('../../scripts/clickhouse-cluster.sh', import.meta.url));
const SYNTH = fileURLToPath(new URL('./synth.js', import.meta.url));

const { values } = parseArgs({
  options: { scales: { type: 'string', default: '1,10' }, stores: { type: 'string' }, 'no-formats': { type: 'boolean', default: false } },
});
/** `--stores DIR`: keep each scale's synthetic history and DuckDB store in DIR and use them again when there (an import of ×40 takes half an hour). */
const STORES = values.stores;
const scales = values.scales!.split(',').map(Number);
if (scales.some((s) => !Number.isInteger(s) || s < 1)) throw new Error('--scales takes whole numbers ≥ 1, e.g. 1,10');

const WORLD: V1Case = {
  id: 'w',
  what: 'elements/count, yearly 2008–2017, the whole world, building=*',
  path: '/v1/elements/count',
  params: { bboxes: '-180,-90,180,90', time: '2008-01-01/2017-01-01/P1Y', filter: 'building=*' },
};
const CASES = [...V1_CASES, ...V1_KIND_CASES, WORLD];

interface Engine {
  name: string;
  base: string;
  stop(): Promise<void>;
}

function urlOf(base: string, c: V1Case): string {
  return `${base}${c.path}?${new URLSearchParams(c.params).toString()}`;
}

/** The numbers of an answer (its values in document order): what must agree across engines. */
function numbersOf(text: string): number[] {
  const out: number[] = [];
  const walk = (v: unknown, key: string) => {
    if (typeof v === 'number' && key !== 'executionTime') out.push(v);
    else if (Array.isArray(v)) v.forEach((x) => walk(x, key));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  walk(JSON.parse(text), '');
  return out;
}

function sameNumbers(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i] || Math.abs(x - b[i]!) <= 1e-9 * Math.max(1, Math.abs(x)));
}

async function timed(base: string, c: V1Case): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  const res = await fetch(urlOf(base, c));
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${c.id}: ${res.status} ${text.slice(0, 300)}`);
  return { ms: performance.now() - started, text };
}

async function inProcess(name: string, generation: Parameters<typeof createStoreHandle>[0]): Promise<Engine> {
  const handle = createStoreHandle(generation);
  const app: FastifyInstance = await buildApp({ store: handle, config: { timeoutSeconds: 600, answerCacheBytes: 0 } });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    name,
    base,
    async stop() {
      await app.close();
      await handle.close();
    },
  };
}

function child(name: string, server: ServerProcess): Engine {
  return { name, base: server.url, stop: () => server.stop() };
}

interface ScaleResult {
  scale: number;
  states: number;
  importSeconds: number;
  loads: { engine: string; seconds: number; summary: LoadSummary }[];
  rows: string[];
}

async function runScale(scale: number): Promise<ScaleResult> {
  const dir = mkdtempSync(join(tmpdir(), `maphist-bench-ch-${scale}-`));
  const engines: Engine[] = [];
  const env = { ...process.env, MAPHIST_CH_BASE_PORT: String(20000 + 2 * Math.floor(Math.random() * 4000)) };
  let clusterStarted = false;
  try {
    const keep = STORES ?? dir;
    let input = FOUR_COUNTRIES;
    if (scale > 1) {
      input = join(keep, `synth-x${scale}.osh.pbf`);
      if (!existsSync(input)) {
        console.log(`×${scale}: making ${input}`);
        execFileSync(process.execPath, [SYNTH, '--times', String(scale), '--out', input], { stdio: 'inherit' });
      }
    }
    const db = join(keep, `store-x${scale}.duckdb`);
    // The import's seconds beside a kept store (written by this script, or by hand after a `maphist import`).
    const importFile = join(keep, `store-x${scale}.json`);
    let importSeconds: number;
    if (existsSync(db) && existsSync(importFile)) {
      importSeconds = (JSON.parse(readFileSync(importFile, 'utf8')) as { importSeconds: number }).importSeconds;
      console.log(`×${scale}: using the store ${db}`);
    } else {
      rmSync(db, { force: true });
      const importStarted = performance.now();
      await importInto(input, db);
      importSeconds = (performance.now() - importStarted) / 1000;
      writeFileSync(importFile, JSON.stringify({ importSeconds }));
    }
    const store = await openStore(db, { readOnly: true });
    const states = store.metadata.rows;
    console.log(
      `×${scale}: imported ${states.toLocaleString('en-US')} states in ${importSeconds.toFixed(1)} s (${(statSync(db).size / 2 ** 30).toFixed(2)} GiB)`,
    );
    const loads: ScaleResult['loads'] = [];
    const urls = execFileSync(SCRIPT, ['start', join(dir, 'cluster')], { env, encoding: 'utf8' })
      .trim()
      .split('\n');
    clusterStarted = true;
    const chdb = await chdbConnection();
    const chdbDatabase = `bench_x${scale}`;
    try {
      for (const [engine, load] of [
        ['two-shard cluster', () => loadIntoClickHouse(storeExport(store), { urls })],
        ['chDB', () => loadIntoClickHouse(storeExport(store), { connections: [chdb], database: chdbDatabase })],
      ] as const) {
        const started = performance.now();
        const summary = await load();
        const seconds = (performance.now() - started) / 1000;
        loads.push({ engine, seconds, summary });
        console.log(`×${scale}: loaded into ${engine} in ${seconds.toFixed(1)} s (${summary.statesPerShard.join(' / ')} states per shard)`);
      }
    } finally {
      store.close();
    }
    engines.push(child('DuckDB', await startServer(db, ['--answer-cache', '0', '--timeout', '600'])));
    engines.push(
      child('two-shard cluster', await startServer(db, ['--answer-cache', '0', '--timeout', '600', '--engine', 'clickhouse', '--clickhouse-url', urls[0]!])),
    );
    engines.push(await inProcess('chDB', await openClickHouseGeneration(chdb, chdbDatabase)));

    const rows: string[] = [];
    for (const c of CASES) {
      // One warm-up each, checked equal to DuckDB's answer; then the engines in turn, RUNS times.
      const first = await Promise.all(engines.map(async (e) => numbersOf((await timed(e.base, c)).text)));
      for (let k = 1; k < engines.length; k++) {
        if (!sameNumbers(first[0]!, first[k]!)) throw new Error(`×${scale} (${c.id}): ${engines[k]!.name} answers differently from DuckDB`);
      }
      const ms: number[][] = engines.map(() => []);
      for (let i = 0; i < RUNS; i++) for (const [k, e] of engines.entries()) ms[k]!.push((await timed(e.base, c)).ms);
      const med = ms.map(median);
      const cells = med.map((m, k) => (k === 0 ? m.toFixed(1) : `${m.toFixed(1)} (${(m / med[0]!).toFixed(2)}×)`));
      console.log(`×${scale} (${c.id}) ${c.what}: ${engines.map((e, k) => `${e.name} ${cells[k]}`).join(', ')}`);
      rows.push(`| ×${scale} | (${c.id}) | ${c.what.length > 90 ? `${c.what.slice(0, 87)}…` : c.what} | ${cells.join(' | ')} |`);
    }
    await chdb.text(`DROP DATABASE IF EXISTS ${chdbDatabase}`);
    return { scale, states, importSeconds, loads, rows };
  } finally {
    for (const e of engines) await e.stop().catch(() => undefined);
    if (clusterStarted) spawnSync(SCRIPT, ['stop', join(dir, 'cluster')], { env });
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Text as its UTF-8 bytes, one char per byte (the body is written as latin1: WKB bytes pass as they are). */
const latin1 = (x: string) => Buffer.from(x, 'utf8').toString('latin1');

/** A value as ClickHouse's TabSeparated writes it (strings and arrays escaped; NULL as \\N). */
function tsvValue(type: ChType, v: unknown): string {
  const escaped = (x: string) => x.replace(/[\\\t\n\0']/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\0': '\\0', "'": "\\'" })[c]!);
  if (v === null || v === undefined) return '\\N';
  switch (type) {
    case 'String':
    case 'Nullable(String)':
      return escaped(v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : latin1(String(v)));
    case 'Array(String)':
      return `[${(v as string[]).map((x) => `'${escaped(latin1(x))}'`).join(',')}]`;
    case 'Array(Int64)':
      return `[${(v as number[]).join(',')}]`;
    case 'UInt8':
      return typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
    default:
      return String(v);
  }
}

/** RowBinary against TabSeparated for the states of `db`, into one 18.16 server. */
async function formats(db: string, url: string): Promise<string[]> {
  const ch = new ClickHouseHttp({ url });
  const store = await openStore(db);
  const names = STATE_COLUMNS.map((c) => c.name);
  const lines: string[] = [];
  try {
    for (const format of ['RowBinary', 'TabSeparated'] as const) {
      await ch.text('CREATE DATABASE IF NOT EXISTS formats');
      await ch.text('DROP TABLE IF EXISTS formats.states');
      await ch.text(
        createTableSql('formats', { name: 'states', columns: STATE_COLUMNS, orderBy: '(extent_class, extent_key, type, id, valid_from)', sharded: true }),
      );
      let encodeMs = 0;
      let insertMs = 0;
      let bytes = 0;
      let rows = 0;
      const w = new RowBinaryWriter();
      let text: string[] = [];
      let textBytes = 0;
      const send = async () => {
        const body = format === 'RowBinary' ? w.take() : Buffer.from(text.join(''), 'latin1');
        text = [];
        textBytes = 0;
        bytes += body.length;
        const t = performance.now();
        await ch.insert(`INSERT INTO formats.states FORMAT ${format}`, body);
        insertMs += performance.now() - t;
      };
      for await (const chunk of storeExport(store).rows('states', names)) {
        const t = performance.now();
        for (const row of chunk) {
          if (format === 'RowBinary') for (let c = 0; c < STATE_COLUMNS.length; c++) w.value(STATE_COLUMNS[c]!.type, row[c]);
          else {
            const line = `${row.map((v, c) => tsvValue(STATE_COLUMNS[c]!.type, v)).join('\t')}\n`;
            text.push(line);
            textBytes += line.length;
          }
        }
        encodeMs += performance.now() - t;
        rows += chunk.length;
        if ((format === 'RowBinary' ? w.length : textBytes) >= 8 << 20) await send();
      }
      await send();
      const stored = Number((await ch.rows('SELECT count() FROM formats.states'))[0]![0]);
      if (stored !== rows) throw new Error(`${format}: ${stored} rows stored of ${rows}`);
      const line = `| ${format} | ${rows.toLocaleString('en-US')} | ${(bytes / 2 ** 20).toFixed(0)} | ${(encodeMs / 1000).toFixed(1)} | ${(insertMs / 1000).toFixed(1)} | ${Math.round(rows / (insertMs / 1000)).toLocaleString('en-US')} |`;
      console.log(line);
      lines.push(line);
    }
    await ch.text('DROP DATABASE formats');
  } finally {
    store.close();
  }
  return lines;
}

/**
 * The table rows of the section in bench/RESULTS.md that this run does not measure: the other
 * scales' loads and requests, and with --no-formats the transfer formats (a long scale is run alone).
 */
const EARLIER = (() => {
  const text = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '';
  const i = text.indexOf('<!-- clickhouse:start -->');
  const j = text.indexOf('<!-- clickhouse:end -->');
  const lines = i >= 0 && j > i ? text.slice(i, j).split('\n') : [];
  const other = (l: string) => {
    const m = /^\| ×(\d+) \|/.exec(l);
    return m !== null && !scales.includes(Number(m[1]));
  };
  return {
    formats: lines.filter((l) => /^\| (RowBinary|TabSeparated) \|/.test(l)),
    loads: lines.filter((l) => other(l) && !/^\| ×\d+ \| \(/.test(l)),
    requests: lines.filter((l) => other(l) && /^\| ×\d+ \| \(/.test(l)),
  };
})();
const byScale = (a: string, b: string) => Number(/×(\d+)/.exec(a)![1]) - Number(/×(\d+)/.exec(b)![1]);
/**
 * The build's commit for the "measured" column: BENCH_COMMIT when this script runs from a build of
 * another tree (a separate outDir, so that work goes on while a long scale runs), else the working
 * directory's HEAD, which is then the build's only if it was built from it.
 */
const COMMIT = process.env.BENCH_COMMIT || spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim() || 'unknown';
const MEASURED = `${new Date().toISOString().slice(0, 10)}, ${COMMIT}`;

let formatLines: string[] = EARLIER.formats;
if (!values['no-formats']) {
  const dir = mkdtempSync(join(tmpdir(), 'maphist-bench-ch-formats-'));
  const env = { ...process.env, MAPHIST_CH_BASE_PORT: String(20000 + 2 * Math.floor(Math.random() * 4000)) };
  try {
    const db = join(dir, 'store.duckdb');
    await importInto(FOUR_COUNTRIES, db);
    const urls = execFileSync(SCRIPT, ['start', join(dir, 'cluster'), '1'], { env, encoding: 'utf8' })
      .trim()
      .split('\n');
    formatLines = await formats(db, urls[0]!);
  } finally {
    spawnSync(SCRIPT, ['stop', join(dir, 'cluster')], { env });
    rmSync(dir, { recursive: true, force: true });
  }
}

const results: ScaleResult[] = [];
for (const scale of scales) results.push(await runScale(scale));

const la = loadavg()
  .map((x) => x.toFixed(1))
  .join(' / ');
const loadLines = results.flatMap((r) =>
  r.loads.map((l) => {
    const perShard = l.summary.statesPerShard.map((n) => `${Math.round(n / l.seconds).toLocaleString('en-US')}`).join(' / ');
    return `| ×${r.scale} | ${r.states.toLocaleString('en-US')} | ${l.engine} | ${l.seconds.toFixed(1)} | ${Math.round(r.states / l.seconds).toLocaleString('en-US')} | ${perShard} | ${MEASURED} |`;
  }),
);
replaceResultsSection(
  'clickhouse',
  `## ClickHouse (\`npm run bench:clickhouse\`)

Machine: ${machineDescription()}; load average ${la} at the end. The two shards of the cluster (Debian's
clickhouse-server 18.16, scripts/clickhouse-cluster.sh) run on this same 2-core machine, beside the benchmark and
the DuckDB server: the figures show each engine's overhead and how its time grows with the data, not the
scale-out a cluster of machines gives.

Transfer format (the 4-country store's states into one 18.16 server, batches of 8 MB, one at a time; "encode":
this process turning DuckDB's rows into the format, "insert": the server's time to take them):

| format | rows | MB | encode s | insert s | rows/s inserted |
| --- | ---: | ---: | ---: | ---: | ---: |
${formatLines.join('\n')}

Stores: the 4-country history (×1) and synthetic histories (bench/synth.ts, the 4-country history tiled N times with
shifted ids and positions). Each imported into DuckDB, then loaded by \`maphist clickhouse load\`'s loader:

| data | states | into | seconds | states/s | states/s per shard | measured |
| --- | ---: | --- | ---: | ---: | ---: | --- |
${[...EARLIER.loads, ...loadLines].sort(byScale).join('\n')}

"measured": the day and commit of the run a scale's rows (here and in the requests below) come from; a long
scale runs alone (\`--scales 40 --stores DIR --no-formats\`, the other rows kept).

Requests through HTTP: DuckDB and the cluster each behind a \`maphist serve\` process (\`--engine clickhouse\` for the
cluster), chDB behind a server in the benchmark's process (chDB runs in-process; its server shares the benchmark's
thread). Median of ${RUNS} runs after one warm-up, the engines in turn; every answer's numbers equal DuckDB's. Ratios are to
DuckDB at the same scale. (a)–(i) are bench:v1's cases over the Andorra bbox (the same rows at every scale: the
synthetic copies lie elsewhere); (w) counts the whole world (N times the rows at ×N).

| data | case | request | DuckDB ms | cluster ms | chDB ms |
| --- | --- | --- | ---: | ---: | ---: |
${[...EARLIER.requests, ...results.flatMap((r) => r.rows)].sort(byScale).join('\n')}

`,
);
