/**
 * The boundary cache's measures (src/engines/common/boundary-cache.ts `measures`): a request over an
 * area that an earlier request measured its boundary rows in clips none of them again, and every
 * answer — the repeated one, one with another filter or measure over the same area — equals that of
 * an engine with an empty cache and the brute-force oracle (brute-force.ts, an independent clip and
 * measure). Clipping is counted by a pool that every boundary geometry goes through.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseFilter } from '../../filter/index.js';
import type { Measure } from '../../query/model.js';
import type { StatsMeasure } from '../../query/stats.js';
import { epoch, importToTemp, TEST_DATA, type ImportedDb } from '../../store/test-support.js';
import { createBoundaryCache } from '../common/boundary-cache.js';
import { createGeometryPool, type GeometryPool } from '../common/geometry-pool.js';
import { assertCloseSeries, bruteSnapshots, countingPool, loadAllRows, randomAreas, rng, type BruteRow } from './brute-force.js';
import { createDuckDbQueryEngine, type DuckDbQueryEngine } from './engine.js';
import { createDuckDbStatsEngine, type DuckDbStatsEngine } from './stats.js';

const TIMESTAMPS = ['2010-01-01', '2014-01-01', '2018-01-01', '2022-01-01'].map((d) => epoch(`${d}T00:00:00Z`));

describe('boundary measures remembered between requests (Andorra)', () => {
  let db: ImportedDb;
  let rows: BruteRow[];
  let pool: GeometryPool;
  let clipped = 0;
  let counting: GeometryPool;
  before(async () => {
    db = await importToTemp(join(TEST_DATA, 'history', 'andorra.osh.pbf'));
    rows = await loadAllRows(db);
    pool = createGeometryPool(1);
    counting = countingPool(pool, (n) => (clipped += n));
  });
  after(async () => {
    await pool.close();
    db.dispose();
  });

  /** An engine whose boundary geometries all go through the counting pool, with a cache of its own. */
  const engine = (): Promise<DuckDbQueryEngine> =>
    createDuckDbQueryEngine(db.store, { geometryPool: counting, poolMinGeometries: 0, boundaryCache: createBoundaryCache() });
  const areas = randomAreas(rng(11))
    .filter(({ area }) => area.id.startsWith('poly') || area.id.startsWith('bbox'))
    .slice(2, 7);

  it('v1 snapshots: the second request over an area clips nothing; other filters and measures there equal a fresh engine and brute force', async () => {
    const warm = await engine();
    let sawBoundary = false;
    for (const { area, brute } of areas) {
      for (const text of ['building=*', 'highway=*', 'building=* or highway=*']) {
        const filter = parseFilter(text, { version: 1 });
        const want = bruteSnapshots(rows, brute, filter, TIMESTAMPS);
        for (const measure of ['area', 'length', 'count'] as Measure[]) {
          const q = { areas: [area], timestamps: TIMESTAMPS, filter, measure, grouping: { by: 'none' } as const };
          const start = clipped;
          const first = (await warm.aggregateSnapshots(q)).groups[0].values;
          if (clipped > start) sawBoundary = true;
          const before = clipped;
          const again = (await warm.aggregateSnapshots(q)).groups[0].values;
          assert.equal(clipped, before, `${area.id} ${text} ${measure}: the repeated request clipped ${clipped - before} geometries`);
          // Equal up to the order of the sums (DuckDB's row order varies between runs).
          assertCloseSeries(again, first, `${area.id} ${text} ${measure}: the same answer again`);
          assertCloseSeries(first, want[measure], `${area.id} ${text} ${measure}: brute force`);
          assertCloseSeries(first, (await (await engine()).aggregateSnapshots(q)).groups[0].values, `${area.id} ${text} ${measure}: a fresh engine`);
        }
      }
    }
    assert.ok(sawBoundary, 'some request had boundary rows to clip');
  });

  it('v2 statistics: features over an aoi measured before clip nothing again and equal a fresh engine', async () => {
    const q0 = await engine();
    const stats = (): Promise<DuckDbStatsEngine> =>
      createDuckDbStatsEngine(db.store, q0.dictionary, createBoundaryCache(), { geometryPool: counting, poolMinGeometries: 0 });
    const warm = await stats();
    const filter = parseFilter('building=* or highway=*', { version: 2 });
    let sawBoundary = false;
    for (const { area } of areas) {
      for (const measure of ['count', 'length', 'area'] as StatsMeasure[]) {
        for (const clip of [true, false]) {
          const q = { aoi: area, timestamps: TIMESTAMPS, filter, measure, clip };
          const start = clipped;
          const first = (await warm.features(q)).total;
          if (clipped > start) sawBoundary = true;
          const before = clipped;
          const again = (await warm.features(q)).total;
          assert.equal(clipped, before, `${area.id} ${measure} clip=${clip}: the repeated request clipped ${clipped - before} geometries`);
          assertCloseSeries(again, first, `${area.id} ${measure} clip=${clip}: the same answer again`);
          assertCloseSeries(first, (await (await stats()).features(q)).total, `${area.id} ${measure} clip=${clip}: a fresh engine`);
        }
      }
    }
    assert.ok(sawBoundary, 'some request had boundary rows to clip');
  });
});
