/**
 * Snapshot counts of the real extracts (whole-world bbox, yearly 2008–2017) against the expected
 * counts in testdata/history/expected/<region>.snapshot-counts.jsonl (osmium time-filter).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseFilter } from '../../filter/index.js';
import { epoch, importToTemp, OSMIUM_COUNT_FILTERS as FILTERS, TEST_DATA, readSnapshotCounts, type ImportedDb } from '../../store/test-support.js';
import { createDuckDbQueryEngine, type DuckDbQueryEngine } from './engine.js';


for (const region of ['andorra', 'maldives']) {
  describe(`snapshot counts of ${region} (whole-world bbox) equal osmium's`, () => {
    let db: ImportedDb;
    let engine: DuckDbQueryEngine;
    const expected = readSnapshotCounts(region);
    const timestamps = expected.map((e) => epoch(e.timestamp));
    before(async () => {
      db = await importToTemp(join(TEST_DATA, 'history', `${region}.osh.pbf`));
      engine = await createDuckDbQueryEngine(db.store);
    });
    after(() => db.dispose());

    for (const [name, filter] of Object.entries(FILTERS)) {
      it(`${name} (${filter})`, async () => {
        const r = await engine.aggregateSnapshots({
          areas: [{ id: 'world', bbox: [-180, -90, 180, 90], geometry: { type: 'Polygon', coordinates: [[[-180, -90], [180, -90], [180, 90], [-180, 90], [-180, -90]]] } }],
          timestamps,
          filter: parseFilter(filter, { version: 1 }),
          measure: 'count',
          grouping: { by: 'none' },
        });
        assert.deepEqual(r.groups[0].values, expected.map((e) => e[name]));
      });
    }

    it('groupBy type sums to the per-type counts', async () => {
      const r = await engine.aggregateSnapshots({
        areas: [{ id: 'world', bbox: [-180, -90, 180, 90], geometry: { type: 'Polygon', coordinates: [[[-180, -90], [180, -90], [180, 90], [-180, 90], [-180, -90]]] } }],
        timestamps,
        filter: parseFilter('', { version: 1 }),
        measure: 'count',
        grouping: { by: 'type' },
      });
      assert.deepEqual(r.groups.map((g) => g.values), [expected.map((e) => e.nodes), expected.map((e) => e.ways), expected.map((e) => e.relations)]);
    });
  });
}
