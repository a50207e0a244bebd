/**
 * Snapshot counts of the real extracts (whole-world bbox, yearly 2008–2017) against the expected
 * counts in testdata/history/expected/<region>.snapshot-counts.jsonl (osmium time-filter), and, for
 * nodes, <region>.ever-tagged-counts.jsonl (osmium: nodes that carried a tag in some version, the
 * only nodes version 1 counts).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseFilter } from '../../filter/index.js';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { HAVE_OSMIUM } from '../../io/test-helpers.js';
import {
  epoch,
  EVER_TAGGED_SCRIPT,
  everTaggedCountsPath,
  importToTemp,
  OSMIUM_COUNT_FILTERS as FILTERS,
  TEST_DATA,
  readEverTaggedCounts,
  readSnapshotCounts,
  type ImportedDb,
  type SnapshotCounts,
} from '../../store/test-support.js';
import { createDuckDbQueryEngine, type DuckDbQueryEngine } from './engine.js';

for (const region of ['andorra', 'maldives']) {
  describe(`snapshot counts of ${region} (whole-world bbox) equal osmium's`, () => {
    let db: ImportedDb;
    let engine: DuckDbQueryEngine;
    const expected = readSnapshotCounts(region);
    const tagged = readEverTaggedCounts(region);
    const timestamps = expected.map((e) => epoch(e.timestamp));
    before(async () => {
      db = await importToTemp(join(TEST_DATA, 'history', `${region}.osh.pbf`));
      engine = await createDuckDbQueryEngine(db.store);
    });
    after(() => db.dispose());

    it('the ever-tagged counts file is what osmium says today', { skip: HAVE_OSMIUM ? false : 'osmium is not installed' }, () => {
      const output = execFileSync('sh', [EVER_TAGGED_SCRIPT, join(TEST_DATA, 'history', `${region}.osh.pbf`)], { encoding: 'utf8' });
      assert.equal(output, readFileSync(everTaggedCountsPath(region), 'utf8'));
    });

    for (const [name, filter] of Object.entries(FILTERS)) {
      // Version 1 counts only the nodes that ever had a tag (scope.ts); osmium's "nodes" counts them all.
      const want = (e: SnapshotCounts, k: number) => (name === 'nodes' ? tagged[k].tagged_nodes : e[name]);
      it(`${name} (${filter})`, async () => {
        const r = await engine.aggregateSnapshots({
          areas: [
            {
              id: 'world',
              bbox: [-180, -90, 180, 90],
              geometry: {
                type: 'Polygon',
                coordinates: [
                  [
                    [-180, -90],
                    [180, -90],
                    [180, 90],
                    [-180, 90],
                    [-180, -90],
                  ],
                ],
              },
            },
          ],
          timestamps,
          filter: parseFilter(filter, { version: 1 }),
          measure: 'count',
          grouping: { by: 'none' },
        });
        assert.deepEqual(r.groups[0].values, expected.map(want));
      });
    }

    it('groupBy type sums to the per-type counts', async () => {
      const r = await engine.aggregateSnapshots({
        areas: [
          {
            id: 'world',
            bbox: [-180, -90, 180, 90],
            geometry: {
              type: 'Polygon',
              coordinates: [
                [
                  [-180, -90],
                  [180, -90],
                  [180, 90],
                  [-180, 90],
                  [-180, -90],
                ],
              ],
            },
          },
        ],
        timestamps,
        filter: parseFilter('', { version: 1 }),
        measure: 'count',
        grouping: { by: 'type' },
      });
      assert.deepEqual(
        r.groups.map((g) => g.values),
        [tagged.map((e) => e.tagged_nodes), expected.map((e) => e.ways), expected.map((e) => e.relations)],
      );
    });
  });
}
