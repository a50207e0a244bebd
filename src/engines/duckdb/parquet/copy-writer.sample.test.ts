/**
 * The engine-side GeoParquet writer (copy-writer.ts: DuckDB's COPY, pieces assembled into the
 * API's schema) against the API's writer over the records, on the sample store: the same schema,
 * the same `geo` and other metadata, the same decoded rows, for features (clipped and not, a
 * rectangle and a polygon, an instant and a range) and contributions; and its temporary files are
 * gone after success, failure and abort.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { asyncBufferFromFile, parquetMetadataAsync } from 'hyparquet';
import { parseFilter } from '../../../filter/index.js';
import type { BBox } from '../../../geometry/types.js';
import type { ExtractionRequest } from '../../../query/v2-requests.js';
import { epoch, importToTemp, type ImportedDb } from '../../../store/test-support.js';
import { createParquetExtraction, type MaphistParquetExtraction } from '../../../testing/geoparquet.js';
import { bboxArea, extractToFile, readWithHyparquet } from './test-support.js';

const SAMPLE = join(process.cwd(), 'sample', 'andorra.osh.pbf');
const ALL = parseFilter('', { version: 2 });
const T = epoch('2016-01-01T00:00:00Z');

const stable = (v: unknown): string =>
  JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x instanceof Uint8Array ? Buffer.from(x).toString('hex') : x));

/** This process's COPY directories (copy-writer.ts names them). */
const copyDirs = () => readdirSync(tmpdir()).filter((n) => n.startsWith(`maphist-duckdb-${process.pid}-parquet-`));

const TRIANGLE = {
  id: 'triangle',
  geometry: {
    type: 'Polygon' as const,
    coordinates: [
      [
        [1.45, 42.45],
        [1.65, 42.45],
        [1.55, 42.6],
        [1.45, 42.45],
      ] as [number, number][],
    ],
  },
  bbox: [1.45, 42.45, 1.65, 42.6] as BBox,
};

describe('engine-side GeoParquet writer (DuckDB COPY) on the sample store', () => {
  let db: ImportedDb;
  let engine: MaphistParquetExtraction;
  let js: MaphistParquetExtraction;
  let world: BBox;
  before(async () => {
    db = await importToTemp(SAMPLE);
    engine = await createParquetExtraction(db.store);
    js = await createParquetExtraction(db.store, undefined, { engineWriter: false });
    const b = db.store.metadata.dataBbox;
    world = [b[0] - 0.01, b[1] - 0.01, b[2] + 0.01, b[3] + 0.01];
  });
  after(() => db.dispose());

  /** Every feature alive in 2005–2016, clipped to a box around all the data (so none is cut). */
  const everyFeatureSince2005 = (): ExtractionRequest => ({
    kind: 'features',
    aoi: bboxArea(world),
    time: { start: epoch('2005-01-01T00:00:00Z'), end: T },
    filter: ALL,
    clip: true,
  });

  const cases: [string, () => ExtractionRequest][] = [
    ['features at an instant, whole data', () => ({ kind: 'features', aoi: bboxArea(world), time: { at: T }, filter: ALL, clip: true })],
    ['features clipped to a box', () => ({ kind: 'features', aoi: bboxArea([1.5, 42.5, 1.55, 42.55]), time: { at: T }, filter: ALL, clip: true })],
    ['features clipped to a polygon', () => ({ kind: 'features', aoi: TRIANGLE, time: { at: T }, filter: ALL, clip: true })],
    ['features not clipped, a polygon', () => ({ kind: 'features', aoi: TRIANGLE, time: { at: T }, filter: ALL, clip: false })],
    [
      'features over a range, filtered',
      () => ({
        kind: 'features',
        aoi: bboxArea([1.5, 42.5, 1.6, 42.6]),
        time: { start: epoch('2012-01-01T00:00:00Z'), end: T },
        filter: parseFilter('building=*', { version: 2 }),
        clip: true,
      }),
    ],
    ['contributions in a polygon', () => ({ kind: 'contributions', aoi: TRIANGLE, time: { start: epoch('2010-01-01T00:00:00Z'), end: T }, filter: ALL })],
    ['features: an empty result', () => ({ kind: 'features', aoi: bboxArea([10, 10, 10.1, 10.1]), time: { at: T }, filter: ALL, clip: true })],
  ];
  for (const [name, request] of cases) {
    it(`${name}: the same schema, metadata and decoded rows as the API's writer`, async () => {
      const a = await extractToFile(engine, request());
      const b = await extractToFile(js, request());
      const [ra, rb] = [await readWithHyparquet(a.path), await readWithHyparquet(b.path)];
      assert.deepEqual(ra.columns, rb.columns);
      assert.deepEqual([...ra.kv.entries()], [...rb.kv.entries()]);
      assert.equal(ra.rows.length, rb.rows.length);
      assert.deepEqual(ra.rows.map(stable).sort(), rb.rows.map(stable).sort());
      const [ma, mb] = [await parquetMetadataAsync(await asyncBufferFromFile(a.path)), await parquetMetadataAsync(await asyncBufferFromFile(b.path))];
      assert.deepEqual(ma.schema, mb.schema, 'the Parquet schema, repetition and types included');
      assert.ok(ma.created_by?.startsWith('maphist (DuckDB'), ma.created_by);
      assert.equal(a.stats.rows, b.stats.rows);
      assert.deepEqual(copyDirs(), [], 'the COPY directory is removed after success');
    });
  }

  it("writes the rows in the store's order: the same request gives the same bytes", async () => {
    // 70,760 of the 350,292 states, in all three of DuckDB's row groups, scanned by both threads.
    const request = everyFeatureSince2005();
    const a = await extractToFile(engine, request);
    const b = await extractToFile(engine, request);
    assert.ok(readFileSync(a.path).equals(readFileSync(b.path)), 'two extractions of the same request, byte for byte');
    // Each row's place in the store (a state is one row: type, id, version, minor version), read by SQL.
    const places = new Map(
      (await db.query<{ k: string; r: bigint }>(`SELECT concat_ws('/', type, id, version, minor_version) AS k, rowid AS r FROM states`)).map((x) => [
        x.k,
        Number(x.r),
      ]),
    );
    const text = (v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString() : String(v));
    const code: Record<string, number> = { node: 0, way: 1, relation: 2 };
    const rows = (await readWithHyparquet(a.path)).rows;
    assert.ok(rows.length > 50_000, `${rows.length} rows`);
    let previous = -1;
    rows.forEach((row, i) => {
      const k = `${code[text(row.osm_type)]}/${row.osm_id}/${row.version}/${row.minor_version}`;
      const place = places.get(k);
      assert.ok(place !== undefined && place > previous, `row ${i} (${k}) is the store's row ${place}, after ${previous}`);
      previous = place;
    });
  });

  it('collections keep the API writer (the engine offers none for them)', async () => {
    const x = (await import('./v2-extraction.js')).createV2Extraction;
    const e = await x(db.store);
    assert.equal(e.parquet?.({ kind: 'collections', aoi: bboxArea(world), time: { at: T }, filter: ALL, memberFilter: null, clip: false }), undefined);
    assert.notEqual(e.parquet?.({ kind: 'features', aoi: bboxArea(world), time: { at: T }, filter: ALL, clip: false }), undefined);
  });

  it('removes its files when the output fails, and when aborted mid-stream', async () => {
    const request = everyFeatureSince2005();
    let writes = 0;
    const failing = new Writable({
      write(_c, _e, cb) {
        writes++;
        cb(new Error('disk full'));
      },
    });
    failing.on('error', () => undefined);
    await assert.rejects(engine.writeWithStats(request, failing));
    assert.ok(writes >= 1);
    assert.deepEqual(copyDirs(), [], 'removed after a failure');

    // Aborted at the first write (the magic, sent before the clipping and the COPY) and at the
    // second (the first row group, the COPY running or just ended).
    for (const at of [1, 2]) {
      const ac = new AbortController();
      const reason = new Error('client gone');
      let n = 0;
      const aborting = new Writable({
        write(_c, _e, cb) {
          if (++n === at) ac.abort(reason);
          cb();
        },
      });
      await assert.rejects(engine.writeWithStats(request, aborting, ac.signal), (e) => e === reason);
      assert.equal(n, at, `no write after the abort at write ${at}`);
      assert.deepEqual(copyDirs(), [], `removed after an abort at write ${at}`);
    }
  });
});
