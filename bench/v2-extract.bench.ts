/**
 * bench:v2:extract — version 2 GeoParquet extraction (features.parquet) of every feature at one
 * instant, clipped to an area covering the whole data, on the merged four-country history
 * (testdata/history/oshdb-4countries-merged.osh.pbf). The store is BENCH_DB (default
 * /tmp/v2pq-4c.duckdb), imported first when missing. For each of BENCH_RUNS (3) runs: rows/s,
 * MB written, time to the first byte, JS heap growth; and, in the same run, DuckDB's own
 * `COPY (SELECT … the same rows …) TO '….parquet' (FORMAT parquet, COMPRESSION zstd)` as the
 * yardstick (ratio = our time / DuckDB's). Prints a Markdown section; with BENCH_WRITE=1 also
 * writes it to bench/RESULTS.md.
 */
import { createWriteStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createParquetExtraction } from '../src/testing/geoparquet.js';
import { featureSql } from '../src/engines/duckdb/sql/v2-extraction.js';
import { duckDbExtractionSql } from '../src/engines/duckdb/parquet/v2-extraction.js';
import { parseFilter } from '../src/filter/index.js';
import { planAreaSql } from '../src/engines/sql/area.js';
import type { AreaOfInterest } from '../src/query/model.js';
import { importHistory } from '../src/store/import-history.js';
import { openStore } from '../src/store/open-store.js';
import { loadStoreTagDictionary } from '../src/store/store-tag-dictionary.js';
import { machineDescription, median, replaceResultsSection } from './support.js';
import { FOUR_COUNTRIES } from '../src/testing/test-data.js';

const FILE = process.env.BENCH_FILE ?? FOUR_COUNTRIES;
const DB = process.env.BENCH_DB ?? '/tmp/v2pq-4c.duckdb';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const AT = process.env.BENCH_AT ?? '2017-01-01T00:00:00Z';

async function main(): Promise<void> {
  let importNote = `existing store ${DB}`;
  if (!existsSync(DB)) {
    const r = await importHistory({ input: FILE, db: DB });
    importNote = `imported in ${r.seconds.toFixed(1)} s`;
  }
  const store = await openStore(DB);
  const b = store.metadata.dataBbox;
  const box: [number, number, number, number] = [b[0] - 0.001, b[1] - 0.001, b[2] + 0.001, b[3] + 0.001];
  const aoi: AreaOfInterest = {
    id: 'all',
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [box[0], box[1]],
          [box[2], box[1]],
          [box[2], box[3]],
          [box[0], box[3]],
          [box[0], box[1]],
        ],
      ],
    },
    bbox: box,
  };
  const at = Date.parse(AT) / 1000;
  const request = { kind: 'features' as const, aoi, time: { at }, filter: parseFilter('', { version: 2 }), clip: true };
  const x = await createParquetExtraction(store);
  const con = await store.connect();
  const dictionary = await loadStoreTagDictionary(con);
  // DuckDB's COPY of the same rows and columns (interior rows: with a whole-data area no row is clipped).
  const inner = featureSql({ db: await duckDbExtractionSql(store, dictionary), plan: planAreaSql(aoi, 'st') }, request);
  // The extraction's own SELECT (state columns, users join, filter, area), its 19 columns renamed f.c0…f.c18.
  const cols = Array.from({ length: 19 }, (_, i) => `c${i}`).join(', ');
  // `ordered`: in the store's order (ORDER BY rowid), as maphist writes its rows (v2-parquet-copy.ts): the same file.
  const copySql = (path: string, ordered: boolean) => `COPY (
    SELECT ['node', 'way', 'relation'][c0 + 1] AS osm_type, c1::BIGINT AS osm_id, make_timestamp((c2 * 1000000)::BIGINT) AS edit_timestamp,
      CASE WHEN c3 >= 32503680000 THEN NULL ELSE make_timestamp((c3 * 1000000)::BIGINT) END AS valid_to_timestamp,
      c4 AS version, c5 AS minor_version, c6 AS edits, c7 AS user_id, c8 AS user_name, c9::BIGINT AS changeset_id,
      map_from_entries(list_transform(list_zip(c10, c11), e -> {'key': e[1], 'value': e[2]})) AS tags,
      {'xmin': c12, 'ymin': c13, 'xmax': c14, 'ymax': c15} AS bbox,
      ['Point', 'LineString', 'Polygon', 'MultiPoint', 'MultiLineString', 'MultiPolygon', 'GeometryCollection'][c16] AS geom_type,
      c17 AS geom, NOT c18 AS clipped
    FROM (${inner}${ordered ? '\nORDER BY st.rowid' : ''}) AS f(${cols})
  ) TO '${path}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 10000)`;

  const dir = mkdtempSync(join(tmpdir(), 'v2-extract-bench-'));
  const ours: { ms: number; rows: number; bytes: number; firstByteMs: number; heapMb: number }[] = [];
  const duck: { ms: number; bytes: number }[] = [];
  const duckOrdered: { ms: number; bytes: number }[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const path = join(dir, `ours-${i}.parquet`);
      const out = createWriteStream(path);
      const t0 = performance.now();
      let firstByteMs = -1;
      const heap0 = process.memoryUsage().heapUsed;
      let heapMax = heap0;
      const write = out.write.bind(out);
      out.write = ((chunk: unknown, ...rest: unknown[]) => {
        if (firstByteMs < 0) firstByteMs = performance.now() - t0;
        heapMax = Math.max(heapMax, process.memoryUsage().heapUsed);
        return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof out.write;
      const s = await x.writeWithStats(request, out);
      ours.push({ ms: performance.now() - t0, rows: s.rows, bytes: statSync(path).size, firstByteMs, heapMb: (heapMax - heap0) / 2 ** 20 });
      for (const [ordered, results] of [
        [false, duck],
        [true, duckOrdered],
      ] as const) {
        const dpath = join(dir, `duckdb-${i}-${ordered}.parquet`);
        const t1 = performance.now();
        await con.run(copySql(dpath, ordered));
        results.push({ ms: performance.now() - t1, bytes: statSync(dpath).size });
        const [{ n }] = (await con.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM read_parquet('${dpath}')`)).getRowObjectsJS() as { n: number }[];
        if (n !== s.rows) throw new Error(`row counts differ: ours ${s.rows}, DuckDB COPY ${n}`);
        rmSync(dpath);
      }
      rmSync(path);
    }
  } finally {
    con.closeSync();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const ms = median(ours.map((r) => r.ms));
  const dms = median(duck.map((r) => r.ms));
  const oms = median(duckOrdered.map((r) => r.ms));
  const rows = ours[0].rows;
  const body = `## bench:v2:extract (\`npm run bench:v2:extract\`)

Machine: ${machineDescription()}. Store: ${FILE.split('/').pop()} (${importNote}, ${store.metadata.rows.toLocaleString('en')} states).
Request: features.parquet, every feature at ${AT}, clip true, area = the data's bbox. Median of ${RUNS} runs.\nAll write a file to the temp directory; the DuckDB COPYs run right after ours in each run (same load). maphist writes the rows in the store's order (deterministic bytes, spatially ordered row groups): the second COPY writes them in that order too.

| | rows | ms | rows/s | MB | first byte ms | JS heap growth MB |
|---|---:|---:|---:|---:|---:|---:|
| maphist (DuckDB COPY in one-row-group pieces, assembled and ZSTD-compressed in JS, streamed) | ${rows.toLocaleString('en')} | ${ms.toFixed(0)} | ${Math.round(rows / (ms / 1000)).toLocaleString('en')} | ${(median(ours.map((r) => r.bytes)) / 1e6).toFixed(1)} | ${median(ours.map((r) => r.firstByteMs)).toFixed(0)} | ${median(ours.map((r) => r.heapMb)).toFixed(0)} |
| DuckDB \`COPY … TO (FORMAT parquet, COMPRESSION zstd)\`, same rows | ${rows.toLocaleString('en')} | ${dms.toFixed(0)} | ${Math.round(rows / (dms / 1000)).toLocaleString('en')} | ${(median(duck.map((r) => r.bytes)) / 1e6).toFixed(1)} | – | – |
| the same COPY, rows in the store's order (\`ORDER BY rowid\`) | ${rows.toLocaleString('en')} | ${oms.toFixed(0)} | ${Math.round(rows / (oms / 1000)).toLocaleString('en')} | ${(median(duckOrdered.map((r) => r.bytes)) / 1e6).toFixed(1)} | – | – |

Ratio maphist / DuckDB COPY: **${(ms / dms).toFixed(2)}×** (runs: ${ours.map((r) => r.ms.toFixed(0)).join(', ')} ms vs ${duck.map((r) => r.ms.toFixed(0)).join(', ')} ms); against the ordered COPY, the same file's rows in the same order: **${(ms / oms).toFixed(2)}×** (${duckOrdered.map((r) => r.ms.toFixed(0)).join(', ')} ms).
`;
  console.log(body);
  if (process.env.BENCH_WRITE === '1') replaceResultsSection('v2-extract', body);
}

await main();
