/**
 * The geometry pool (geometry-pool.ts) in the engines: boundary rows clipped and measured in worker
 * threads give the brute-force numbers (brute-force.ts, an independent clip and measure), the same
 * as on the calling thread; the pool was used (counted); a cancelled request's tasks are aborted.
 * The v2 statistics engine (stats.ts) clips its boundary geometries in the same pool: pooled and
 * inline answers agree (the inline path is checked against brute force in stats.*.test.ts). Both
 * extractions clip their boundary rows there too: pooled and inline features and records are equal
 * (the inline path is checked by the extraction tests and goldens).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import { parseFilter } from '../../filter/index.js';
import type { Measure } from '../../query/model.js';
import { epoch, importToTemp, TEST_DATA, type ImportedDb } from '../../store/test-support.js';
import { assertCloseSeries, bruteSnapshots, countingPool, loadAllRows, randomAreas, rng, type BruteRow } from './brute-force.js';
import { createDuckDbQueryEngine, type DuckDbQueryEngine } from './engine.js';
import { createGeometryPool, POOL_MIN_BYTES, worthPooling, type GeometryPool } from '../common/geometry-pool.js';
import { createDuckDbStatsEngine, type DuckDbStatsEngine } from './stats.js';
import { createBoundaryCache } from '../common/boundary-cache.js';
import type { StatsMeasure } from '../../query/stats.js';
import { encodeWkb } from '../../geometry/wkb.js';
import type { Geometry } from '../../geometry/types.js';
import type { ExtractionQuery } from '../../query/extraction.js';
import type { ContributionType } from '../../query/model.js';
import type { ExtractionRequest } from '../../query/v2-requests.js';
import { createDuckDbExtractionEngine } from './extraction.js';
import { createV2Extraction } from './parquet/v2-extraction.js';

/** A record as text: bigints as decimals, bytes as hex. */
const recordText = (r: unknown) =>
  JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v));

const TIMESTAMPS = ['2010-01-01', '2014-01-01', '2018-01-01', '2022-01-01'].map((d) => epoch(`${d}T00:00:00Z`));

describe('boundary rows in the geometry pool (Andorra)', () => {
  let db: ImportedDb;
  let rows: BruteRow[];
  let pool: GeometryPool;
  let pooled: DuckDbQueryEngine;
  let inline: DuckDbQueryEngine;
  let pooledStats: DuckDbStatsEngine;
  let inlineStats: DuckDbStatsEngine;
  let geometriesSent = 0;
  before(async () => {
    db = await importToTemp(join(TEST_DATA, 'history', 'andorra.osh.pbf'));
    rows = await loadAllRows(db);
    pool = createGeometryPool(2);
    const counting = countingPool(pool, (n) => (geometriesSent += n));
    pooled = await createDuckDbQueryEngine(db.store, { geometryPool: counting, poolMinGeometries: 0 });
    inline = await createDuckDbQueryEngine(db.store, { poolMinGeometries: Number.POSITIVE_INFINITY });
    // Caches of their own: each engine reads and clips every boundary geometry itself.
    pooledStats = await createDuckDbStatsEngine(db.store, pooled.dictionary, createBoundaryCache(), { geometryPool: counting, poolMinGeometries: 0 });
    inlineStats = await createDuckDbStatsEngine(db.store, pooled.dictionary, createBoundaryCache(), {
      poolMinGeometries: Number.POSITIVE_INFINITY,
    });
  });
  after(async () => {
    await pool.close();
    db.dispose();
  });

  const areas = randomAreas(rng(7)).slice(0, 4);
  for (const text of ['building=*', 'highway=*']) {
    it(`${text}: length, area and perimeter in ${areas.length} areas equal brute force, pooled and inline alike`, async () => {
      const filter = parseFilter(text, { version: 1 });
      const sentBefore = geometriesSent;
      for (const { area, brute } of areas) {
        const want = bruteSnapshots(rows, brute, filter, TIMESTAMPS);
        for (const measure of ['length', 'area', 'perimeter'] as Measure[]) {
          const q = { areas: [area], timestamps: TIMESTAMPS, filter, measure, grouping: { by: 'none' } as const };
          const got = (await pooled.aggregateSnapshots(q)).groups[0].values;
          assertCloseSeries(got, want[measure], `${area.id} ${text} ${measure} (pool)`);
          // Equal up to the order of the sums (DuckDB's row order varies between runs).
          assertCloseSeries((await inline.aggregateSnapshots(q)).groups[0].values, got, `${area.id} ${text} ${measure}: pool = inline`);
        }
      }
      assert.ok(geometriesSent - sentBefore >= 20, `the pool clipped ${geometriesSent - sentBefore} geometries`);
    });
  }

  it('v2 statistics: features (clipped and not), contributions, contributors and currentness agree pooled and inline', async () => {
    const filter = parseFilter('building=* or highway=*', { version: 2 });
    const sentBefore = geometriesSent;
    const edges = [epoch('2008-01-01T00:00:00Z'), epoch('2012-01-01T00:00:00Z'), epoch('2016-01-01T00:00:00Z'), epoch('2018-01-01T00:00:00Z')];
    for (const { area } of areas) {
      for (const measure of ['count', 'length', 'area'] as StatsMeasure[]) {
        for (const clip of [false, true]) {
          const q = { aoi: area, timestamps: TIMESTAMPS, filter, measure, clip };
          const got = (await pooledStats.features(q)).total;
          assertCloseSeries(got, (await inlineStats.features(q)).total, `${area.id} features ${measure} clip=${clip}: pool = inline`);
          const c = { aoi: area, edges, filter, measure, clip };
          assertCloseSeries(await pooledStats.currentness(c), await inlineStats.currentness(c), `${area.id} currentness ${measure} clip=${clip}`);
        }
      }
      const b = { aoi: area, edges, filter };
      assert.deepEqual(await pooledStats.contributions(b), await inlineStats.contributions(b), `${area.id} contributions`);
      assert.deepEqual(await pooledStats.contributors(b), await inlineStats.contributors(b), `${area.id} contributors`);
    }
    assert.ok(geometriesSent - sentBefore >= 20, `the pool clipped ${geometriesSent - sentBefore} geometries`);
  });

  it('v1 contributions and users: the sides clipped up front in the pool give the inline answers', async () => {
    const filter = parseFilter('building=* or highway=* or landuse=*', { version: 1 });
    const sentBefore = geometriesSent;
    const yearly = ['2008', '2010', '2012', '2014', '2016', '2018'].map((y) => epoch(`${y}-01-01T00:00:00Z`));
    for (const { area } of areas) {
      for (const contributionTypes of [undefined, ['geometryChange'] as ContributionType[]]) {
        const q = { areas: [area], timestamps: yearly, filter, contributionTypes, grouping: { by: 'none' as const } };
        for (const f of ['countContributions', 'countLatestContributions', 'countUsers'] as const) {
          assert.deepEqual((await pooled[f](q)).groups, (await inline[f](q)).groups, `${area.id} ${f} ${contributionTypes ?? ''}`);
        }
        assert.deepEqual(await pooled.listContributions(q), await inline.listContributions(q), `${area.id} list ${contributionTypes ?? ''}`);
      }
    }
    assert.ok(geometriesSent - sentBefore >= 5, `the pool clipped ${geometriesSent - sentBefore} geometries`);
  });

  // Extraction: the same features and records whether a group's boundary rows are clipped in the
  // pool (every group sent) or on this thread (none sent).
  const pooledClipper = () => ({ pool: () => counting(), poolMinBytes: 0, poolMinCount: 0 });
  const inlineClipper = { poolMinBytes: Number.POSITIVE_INFINITY, poolMinCount: Number.POSITIVE_INFINITY };
  const counting = (): GeometryPool => ({
    threads: pool.threads,
    close: () => pool.close(),
    measureClipped: (area, measure, wkbs, signal) => pool.measureClipped(area, measure, wkbs, signal),
    clipWkbs: (area, wkbs, signal) => {
      geometriesSent += wkbs.length;
      return pool.clipWkbs(area, wkbs, signal);
    },
  });
  async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
    const out: T[] = [];
    for await (const x of items) out.push(x);
    return out;
  }

  it('v1 extraction: snapshot, full history and contributions are the same clipped in the pool and inline', async () => {
    const pooledX = await createDuckDbExtractionEngine(db.store, pooled.dictionary, { clipper: pooledClipper() });
    const inlineX = await createDuckDbExtractionEngine(db.store, pooled.dictionary, { clipper: inlineClipper });
    const filter = parseFilter('building=* or highway=*', { version: 1 });
    const sentBefore = geometriesSent;
    let features = 0;
    for (const { area } of areas.slice(0, 2)) {
      for (const kind of ['snapshot', 'fullHistory', 'contributions', 'latestContributions'] as const) {
        for (const clipGeometry of [true, false]) {
          const q: ExtractionQuery = {
            kind,
            areas: [area],
            timestamps: kind === 'snapshot' ? TIMESTAMPS : [TIMESTAMPS[0], TIMESTAMPS.at(-1)!],
            filter,
            clipGeometry,
          };
          const got = await all(pooledX.extract(q));
          assert.deepEqual(got, await all(inlineX.extract(q)), `${area.id} ${kind} clip=${clipGeometry}`);
          features += got.length;
        }
      }
    }
    assert.ok(features > 100, `${features} features`);
    assert.ok(geometriesSent - sentBefore >= 20, `the pool clipped ${geometriesSent - sentBefore} geometries`);
  });

  it('v2 extraction: features, collections and contributions records are the same clipped in the pool and inline', async () => {
    const pooledX = await createV2Extraction(db.store, pooled.dictionary, { clipper: pooledClipper() });
    const inlineX = await createV2Extraction(db.store, pooled.dictionary, { clipper: inlineClipper });
    const filter = parseFilter('building=* or highway=* or type:relation', { version: 2 });
    const sentBefore = geometriesSent;
    const at = epoch('2016-01-01T00:00:00Z');
    const range = { start: epoch('2010-01-01T00:00:00Z'), end: epoch('2017-01-01T00:00:00Z') };
    let records = 0;
    for (const { area } of areas.slice(0, 2)) {
      const requests: ExtractionRequest[] = [
        { kind: 'features', aoi: area, filter, time: { at }, clip: true },
        { kind: 'features', aoi: area, filter, time: range, clip: false },
        { kind: 'collections', aoi: area, filter, memberFilter: null, time: { at }, clip: true },
        { kind: 'collections_members', aoi: area, filter, memberFilter: null, time: { at }, clip: true },
        { kind: 'contributions', aoi: area, filter, time: range },
      ] as ExtractionRequest[];
      for (const r of requests) {
        // Records come in the table's order, which DuckDB's threads may vary: compared as sorted texts.
        const got = (await all(pooledX.records(r))).flat().map(recordText).sort();
        assert.deepEqual(got, (await all(inlineX.records(r))).flat().map(recordText).sort(), `${area.id} ${r.kind}`);
        records += got.length;
      }
    }
    assert.ok(records > 100, `${records} records`);
    assert.ok(geometriesSent - sentBefore >= 20, `the pool clipped ${geometriesSent - sentBefore} geometries`);
  });

  it('a cancelled request rejects instead of answering (the abort reaches the pool)', async () => {
    const controller = new AbortController();
    // The request is cancelled just as its geometries go to the pool.
    const aborting: GeometryPool = {
      threads: pool.threads,
      close: () => pool.close(),
      measureClipped: (area, measure, wkbs, signal) => {
        controller.abort(new Error('cancelled by the test'));
        return pool.measureClipped(area, measure, wkbs, signal);
      },
      clipWkbs: (area, wkbs, signal) => {
        controller.abort(new Error('cancelled by the test'));
        return pool.clipWkbs(area, wkbs, signal);
      },
    };
    const engine = await createDuckDbQueryEngine(db.store, { geometryPool: aborting, poolMinGeometries: 0 });
    const filter = parseFilter('building=* or highway=*', { version: 1 });
    const q = {
      areas: [areas[0].area],
      timestamps: TIMESTAMPS,
      filter,
      measure: 'length' as const,
      grouping: { by: 'none' } as const,
      signal: controller.signal,
    };
    await assert.rejects(engine.aggregateSnapshots(q));
  });

  it('a task aborted while it runs rejects, and the pool goes on', async () => {
    // A batch big enough to be still running when the abort comes: 2,000 circles of 2,000 vertices.
    const ring = Array.from({ length: 2001 }, (_, k) => [1.5 + 0.1 * Math.cos((2 * Math.PI * k) / 2000), 42.5 + 0.1 * Math.sin((2 * Math.PI * k) / 2000)]);
    const wkb = encodeWkb({ type: 'LineString', coordinates: ring } as Geometry);
    const wkbs = Array.from({ length: 2000 }, () => wkb);
    const area = areas[0].area;
    const controller = new AbortController();
    const running = pool.measureClipped(area, 'length', wkbs, controller.signal);
    setTimeout(() => controller.abort(new Error('cancelled by the test')), 20);
    await assert.rejects(running, (e) => (e as Error).name === 'AbortError');
    const small = await pool.measureClipped(area, 'length', wkbs.slice(0, 2));
    assert.equal(small.length, 2);
  });
});

test('worthPooling: many geometries, or few whose WKB is large; never with Infinity', () => {
  const small = new Uint8Array(100);
  const big = new Uint8Array(POOL_MIN_BYTES);
  assert.equal(worthPooling([small, small], 64), false);
  assert.equal(
    worthPooling(
      Array.from({ length: 64 }, () => small),
      64,
    ),
    true,
  );
  assert.equal(worthPooling([small, big], 64), true, 'two geometries, one of them country-sized');
  assert.equal(worthPooling([big], Number.POSITIVE_INFINITY), false);
  assert.equal(worthPooling([small], 0), true);
  assert.equal(worthPooling([], 0), false);
});
