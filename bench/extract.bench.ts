/**
 * bench:extract — the v1 extraction routes through HTTP on the merged four-country history
 * (testdata/history/oshdb-4countries-merged.osh.pbf, imported to a temp dir at start):
 * (a) /elements/geometry, all buildings at 2017-01-01 with tags; (b) /elementsFullHistory/geometry,
 * all highways 2008-01-01..2017-01-01 with tags. For each: features/s and MB/s of the streamed
 * document (identity and gzip), and the ratio to the raw DuckDB query reading the same rows
 * (the extraction's own SQL, streamed chunk by chunk into JS values, without clipping or
 * serialisation), plus the heap growth during the run. Prints a Markdown table; with
 * BENCH_WRITE=1 also writes its section of bench/RESULTS.md.
 */
import { request as httpRequest } from 'node:http';
import { createGunzip } from 'node:zlib';
import { parseFilter } from '../src/filter/index.js';
import { createDuckDbServer as createServer } from '../src/testing/server.js';
import { createDuckDbExtractionEngine } from '../src/engines/duckdb/extraction.js';
import { streamRows } from '../src/engines/duckdb/statements.js';
import type { ExtractionQuery } from '../src/query/extraction.js';
import { epoch, importToTemp } from '../src/store/test-support.js';
import { machineDescription, median, replaceResultsSection } from './support.js';
import { FOUR_COUNTRIES } from '../src/testing/test-data.js';

const FILE = process.env.BENCH_FILE ?? FOUR_COUNTRIES;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

interface Run {
  ms: number;
  bytes: number;
  wireBytes: number;
  features: number;
  heapGrowthMb: number;
}

/** GETs a URL and counts bytes and features as they arrive, without keeping the document. */
function download(url: string, gzip: boolean): Promise<Run> {
  return new Promise((resolve, reject) => {
    const heap0 = process.memoryUsage().heapUsed;
    let heapMax = heap0;
    const t0 = performance.now();
    const req = httpRequest(url, { headers: gzip ? { 'accept-encoding': 'gzip' } : {} }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`status ${res.statusCode}`));
        res.resume();
        return;
      }
      let wireBytes = 0;
      res.on('data', (d: Buffer) => (wireBytes += d.length));
      const body = gzip ? res.pipe(createGunzip()) : res;
      let bytes = 0;
      let features = 0;
      let carry = '';
      body.on('data', (d: Buffer) => {
        bytes += d.length;
        const text = carry + d.toString('latin1');
        let i = -1;
        while ((i = text.indexOf('"type" : "Feature",', i + 1)) >= 0) features++;
        carry = text.slice(-18); // shorter than the pattern: no match is counted twice
        if ((features & 1023) === 0) heapMax = Math.max(heapMax, process.memoryUsage().heapUsed);
      });
      body.on('end', () => resolve({ ms: performance.now() - t0, bytes, wireBytes, features, heapGrowthMb: (heapMax - heap0) / 2 ** 20 }));
      body.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const importStarted = performance.now();
const db = await importToTemp(FILE);
const importSeconds = (performance.now() - importStarted) / 1000;
const app = await createServer(db.store, { timeoutSeconds: 600 });
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const engine = await createDuckDbExtractionEngine(db.store);
const ring = db.store.metadata.spatialExtent.coordinates[0] as number[][];
const bbox = [
  Math.min(...ring.map((p) => p[0])) - 0.01,
  Math.min(...ring.map((p) => p[1])) - 0.01,
  Math.max(...ring.map((p) => p[0])) + 0.01,
  Math.max(...ring.map((p) => p[1])) + 0.01,
];
const area = {
  id: 'all',
  bbox: bbox as [number, number, number, number],
  geometry: {
    type: 'Polygon' as const,
    coordinates: [
      [
        [bbox[0], bbox[1]],
        [bbox[2], bbox[1]],
        [bbox[2], bbox[3]],
        [bbox[0], bbox[3]],
        [bbox[0], bbox[1]],
      ] as [number, number][],
    ],
  },
};

const CASES: { id: string; what: string; path: string; params: Record<string, string>; query: ExtractionQuery }[] = [
  {
    id: 'a',
    what: 'elements/geometry, all buildings at 2017-01-01, tags',
    path: '/v1/elements/geometry',
    params: { bboxes: bbox.join(','), time: '2017-01-01', filter: 'building=*', properties: 'tags' },
    query: {
      kind: 'snapshot',
      areas: [area],
      timestamps: [epoch('2017-01-01T00:00:00Z')],
      filter: parseFilter('building=*', { version: 1 }),
      clipGeometry: true,
    },
  },
  {
    id: 'b',
    what: 'elementsFullHistory/geometry, all highways 2008–2017, tags',
    path: '/v1/elementsFullHistory/geometry',
    params: { bboxes: bbox.join(','), time: '2008-01-01,2017-01-01', filter: 'highway=*', properties: 'tags' },
    query: {
      kind: 'fullHistory',
      areas: [area],
      timestamps: [epoch('2008-01-01T00:00:00Z'), epoch('2017-01-01T00:00:00Z')],
      filter: parseFilter('highway=*', { version: 1 }),
      clipGeometry: true,
    },
  },
];

const lines: string[] = [
  `Machine: ${machineDescription()}. Store: ${FILE.split('/').pop()} (import ${importSeconds.toFixed(1)} s). Median of ${RUNS} runs.`,
  '',
  '| case | features | MB (identity / gzip on the wire) | identity: ms, features/s, MB/s | gzip: ms, features/s, MB/s (uncompressed) | raw DuckDB: ms, rows | ratio (identity / raw) | JS heap growth |',
  '|---|---|---|---|---|---|---|---|',
];
try {
  for (const c of CASES) {
    const url = `${base}${c.path}?${new URLSearchParams(c.params)}`;
    await download(url, false); // warm-up
    const plain: Run[] = [];
    const zipped: Run[] = [];
    for (let i = 0; i < RUNS; i++) plain.push(await download(url, false));
    for (let i = 0; i < RUNS; i++) zipped.push(await download(url, true));
    const sql = engine.sqlOf(c.query);
    const raw: { ms: number; rows: number }[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      let rows = 0;
      for await (const chunk of streamRows(db.store, sql)) rows += chunk.length;
      raw.push({ ms: performance.now() - t0, rows });
    }
    const p = median(plain.map((r) => r.ms));
    const z = median(zipped.map((r) => r.ms));
    const r = median(raw.map((x) => x.ms));
    const f = plain[0].features;
    const mb = plain[0].bytes / 1e6;
    const line = `| (${c.id}) ${c.what} | ${f} | ${mb.toFixed(1)} / ${(zipped[0].wireBytes / 1e6).toFixed(1)} | ${p.toFixed(0)}, ${Math.round(f / (p / 1000))}, ${(mb / (p / 1000)).toFixed(1)} | ${z.toFixed(0)}, ${Math.round(f / (z / 1000))}, ${(mb / (z / 1000)).toFixed(1)} | ${r.toFixed(0)}, ${raw[0].rows} | ${(p / r).toFixed(2)}× | ${Math.max(...plain.map((x) => x.heapGrowthMb)).toFixed(0)} MB |`;
    console.log(line);
    lines.push(line);
  }
  const body = lines.join('\n') + '\n';
  console.log(`\n${body}`);
  if (process.env.BENCH_WRITE === '1') replaceResultsSection('extract', `## bench:extract\n\n${body}`);
} finally {
  await app.close();
  db.dispose();
}
