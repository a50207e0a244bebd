/**
 * Timing printout (no assertion on speed): monthly 2008–2017 count of building=* in a bbox
 * around Andorra through the engine, and the raw SQL lower bound (one DuckDB query computing the
 * same unclipped numbers with the same one-pass bucketing).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseFilter } from '../../filter/index.js';
import { epoch, importToTemp, SHARED_DATA, type ImportedDb } from '../../store/test-support.js';
import { countBelowSql } from '../../query/time-plan.js';
import { createDuckDbQueryEngine, type DuckDbQueryEngine } from './engine.js';

describe('timing: monthly building=* count 2008–2017 around Andorra', () => {
  let db: ImportedDb;
  let engine: DuckDbQueryEngine;
  before(async () => {
    db = await importToTemp(join(SHARED_DATA, 'history', 'andorra.osh.pbf'));
    engine = await createDuckDbQueryEngine(db.store);
  });
  after(() => db.dispose());

  it('prints engine and raw SQL times', async () => {
    const timestamps: number[] = [];
    for (let y = 2008; y <= 2017; y++) for (let m = 0; m < 12; m++) timestamps.push(Date.UTC(y, m, 1) / 1000);
    timestamps.push(epoch('2018-01-01T00:00:00Z'));
    const [x0, y0, x1, y1] = [1.4, 42.42, 1.8, 42.66];
    const area = { id: 'b', bbox: [x0, y0, x1, y1] as [number, number, number, number], geometry: { type: 'Polygon' as const, coordinates: [[[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]] as [number, number][]] } };
    const filter = parseFilter('building=*', { version: 1 });
    const q = { areas: [area], timestamps, filter, measure: 'count' as const, grouping: { by: 'none' as const } };
    await engine.aggregateSnapshots(q); // warm-up
    const runs = 5;
    let t = performance.now();
    let result;
    for (let i = 0; i < runs; i++) result = await engine.aggregateSnapshots(q);
    const engineMs = (performance.now() - t) / runs;
    const buildingKey = engine.dictionary.keyId('building')!;
    const has = buildingKey < 63 ? `(key_mask & ${2 ** buildingKey}) <> 0` : `list_contains(map_keys(tags), 'building')`;
    const raw = `SELECT f, e, count(*) AS n FROM (SELECT ${countBelowSql('valid_from', timestamps)} AS f, ${countBelowSql('valid_to', timestamps)} AS e FROM states
      WHERE NOT deleted AND ${has} AND valid_from <= ${timestamps.at(-1)} AND valid_to > ${timestamps[0]}
        AND xmax >= ${x0} AND xmin <= ${x1} AND ymax >= ${y0} AND ymin <= ${y1}) WHERE f < e GROUP BY ALL`;
    await db.query(raw);
    t = performance.now();
    for (let i = 0; i < runs; i++) await db.query(raw);
    const rawMs = (performance.now() - t) / runs;
    const naive = `SELECT t, count(*) FROM states, unnest([${timestamps.join(',')}]) AS u(t)
      WHERE NOT deleted AND ${has} AND valid_from <= t AND valid_to > t AND xmax >= ${x0} AND xmin <= ${x1} AND ymax >= ${y0} AND ymin <= ${y1} GROUP BY t`;
    t = performance.now();
    await db.query(naive);
    const naiveMs = performance.now() - t;
    console.log(`[timing] ${timestamps.length} timestamps, building=* in ${[x0, y0, x1, y1]}: engine ${engineMs.toFixed(1)} ms/query (last value ${result!.groups[0].values.at(-1)}); raw one-pass SQL (unclipped) ${rawMs.toFixed(1)} ms; naive per-timestamp join SQL ${naiveMs.toFixed(1)} ms`);
    assert.ok(result!.groups[0].values.length === timestamps.length);
  });
});
