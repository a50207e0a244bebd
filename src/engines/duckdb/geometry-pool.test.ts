/**
 * The geometry pool (geometry-pool.ts) in the engine: boundary rows clipped and measured in worker
 * threads give the brute-force numbers (brute-force.ts, an independent clip and measure), the same
 * as on the calling thread; the pool was used (counted); a cancelled request's tasks are aborted.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseFilter } from '../../filter/index.js';
import type { Measure } from '../../query/model.js';
import { epoch, importToTemp, TEST_DATA, type ImportedDb } from '../../store/test-support.js';
import { bruteSnapshots, loadAllRows, randomAreas, rng, type BruteRow } from './brute-force.js';
import { createDuckDbQueryEngine, type DuckDbQueryEngine } from './engine.js';
import { createGeometryPool, type GeometryPool } from './geometry-pool.js';

const TIMESTAMPS = ['2010-01-01', '2014-01-01', '2018-01-01', '2022-01-01'].map((d) => epoch(`${d}T00:00:00Z`));

function close(got: number[], want: number[], what: string): void {
  assert.equal(got.length, want.length, what);
  got.forEach((g, i) => assert.ok(Math.abs(g - want[i]) <= 1e-6 + 1e-9 * Math.abs(want[i]), `${what}[${i}]: ${g} vs ${want[i]}`));
}

describe('boundary rows in the geometry pool (Andorra)', () => {
  let db: ImportedDb;
  let rows: BruteRow[];
  let pool: GeometryPool;
  let pooled: DuckDbQueryEngine;
  let inline: DuckDbQueryEngine;
  let geometriesSent = 0;
  before(async () => {
    db = await importToTemp(join(TEST_DATA, 'history', 'andorra.osh.pbf'));
    rows = await loadAllRows(db);
    pool = createGeometryPool(2);
    const counting: GeometryPool = {
      threads: pool.threads,
      close: () => pool.close(),
      measureClipped: (area, measure, wkbs, signal) => {
        geometriesSent += wkbs.length;
        return pool.measureClipped(area, measure, wkbs, signal);
      },
    };
    pooled = await createDuckDbQueryEngine(db.store, { geometryPool: counting, poolMinGeometries: 0 });
    inline = await createDuckDbQueryEngine(db.store, { poolMinGeometries: Number.POSITIVE_INFINITY });
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
          close(got, want[measure], `${area.id} ${text} ${measure} (pool)`);
          // Equal up to the order of the sums (DuckDB's row order varies between runs).
          close((await inline.aggregateSnapshots(q)).groups[0].values, got, `${area.id} ${text} ${measure}: pool = inline`);
        }
      }
      assert.ok(geometriesSent - sentBefore >= 20, `the pool clipped ${geometriesSent - sentBefore} geometries`);
    });
  }

  it('a cancelled request aborts its pool tasks', async () => {
    const controller = new AbortController();
    const filter = parseFilter('building=* or highway=*', { version: 1 });
    const q = {
      areas: [areas[0].area],
      timestamps: TIMESTAMPS,
      filter,
      measure: 'length' as const,
      grouping: { by: 'none' } as const,
      signal: controller.signal,
    };
    const sentBefore = geometriesSent;
    const running = pooled.aggregateSnapshots(q);
    // Abort once the geometries are on their way to the workers.
    while (geometriesSent === sentBefore) await new Promise((r) => setImmediate(r));
    controller.abort(new Error('cancelled by the test'));
    await assert.rejects(running);
  });
});
