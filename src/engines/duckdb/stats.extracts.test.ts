/**
 * v2 features/count over the real extracts (aoi = whole world, yearly 2008–2017) against osmium's
 * snapshot counts (testdata/history/expected/<region>.snapshot-counts.jsonl).
 *
 * v2 counts only elements that carried a tag in some version: for the type filters the expected
 * counts are osmium's ever-tagged counts (<region>.ever-tagged-counts.jsonl, made with osmium alone);
 * the tag filters cannot match a never-tagged element. And v2 leaves out what has no usable geometry
 * (invalid — members cut by the extract, unclosed rings —, GeometryCollection relations, no
 * geometry). So per filter and year: engine + excluded = osmium, where `excluded` is counted
 * independently with plain SQL over the `contributions` view (map tags, geometry type names; no
 * dictionary, no planner, no ever_tagged column); and for nodes nothing is excluded, so the engine
 * equals osmium exactly.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseFilter } from '../../filter/index.js';
import {
  epoch,
  importToTemp,
  OSMIUM_COUNT_FILTERS as FILTERS,
  TEST_DATA,
  readEverTaggedCounts,
  readSnapshotCounts,
  type EverTaggedCounts,
  type ImportedDb,
} from '../../store/test-support.js';
import { rectArea } from './brute-force.js';
import { createDuckDbStatsEngine, type DuckDbStatsEngine } from './stats.js';

/** The same selections as OSMIUM_COUNT_FILTERS, over the contributions view. */
const VIEW_SQL: Record<string, string> = {
  nodes: `type = 'node'`,
  ways: `type = 'way'`,
  relations: `type = 'relation'`,
  ways_building: `type = 'way' AND list_contains(map_keys(tags), 'building')`,
  nwr_building: `list_contains(map_keys(tags), 'building')`,
  ways_highway: `type = 'way' AND list_contains(map_keys(tags), 'highway')`,
  nodes_amenity: `type = 'node' AND list_contains(map_keys(tags), 'amenity')`,
  relations_type_multipolygon: `type = 'relation' AND tags['type'] = 'multipolygon'`,
};

/** Two regions by default (~50 s with the imports); MAPHIST_V2_REGIONS=andorra,maldives,faroe-islands,equatorial-guinea runs all four (all pass). */
const REGIONS = (process.env.MAPHIST_V2_REGIONS ?? 'andorra,maldives').split(',');

for (const region of REGIONS) {
  describe(`v2 features/count of ${region} (whole world) = osmium's snapshot counts minus the states without a usable geometry`, () => {
    let db: ImportedDb;
    let engine: DuckDbStatsEngine;
    const tagged = readEverTaggedCounts(region);
    const typeCounts: Record<string, keyof EverTaggedCounts> = { nodes: 'tagged_nodes', ways: 'tagged_ways', relations: 'tagged_relations' };
    const expected = readSnapshotCounts(region).map((e, k) => {
      const out = { ...e };
      for (const [name, column] of Object.entries(typeCounts)) out[name] = tagged[k][column];
      return out;
    });
    const timestamps = expected.map((e) => epoch(e.timestamp));
    before(async () => {
      db = await importToTemp(join(TEST_DATA, 'history', `${region}.osh.pbf`));
      engine = await createDuckDbStatsEngine(db.store);
    });
    after(() => db.dispose());

    it('every osmium filter', async () => {
      for (const [name, filter] of Object.entries(FILTERS)) {
        assert.ok(VIEW_SQL[name], name);
        const r = await engine.features({
          aoi: rectArea([-180, -90, 180, 90], 'world'),
          timestamps,
          filter: parseFilter(filter, { version: 2 }),
          measure: 'count',
          clip: false,
        });
        const excluded: number[] = [];
        for (const t of expected.map((e) => e.timestamp as string)) {
          const [{ n }] = await db.query<{ n: bigint }>(
            `SELECT count(*) AS n FROM contributions WHERE NOT deleted AND valid_from <= TIMESTAMP '${t.replace('T', ' ').replace('Z', '')}'
               AND (valid_to IS NULL OR valid_to > TIMESTAMP '${t.replace('T', ' ').replace('Z', '')}')
               AND (NOT geometry_valid OR geometry_type IS NULL OR geometry_type = 'GeometryCollection') AND ${VIEW_SQL[name]}
               AND (type, id) IN (SELECT type, id FROM contributions WHERE len(map_keys(tags)) > 0)`,
          );
          excluded.push(Number(n));
        }
        assert.deepEqual(
          r.total.map((v, k) => v + excluded[k]),
          expected.map((e) => e[name]),
          `${name} (${filter})`,
        );
        if (name === 'nodes' || name === 'nodes_amenity')
          assert.deepEqual(
            r.total,
            expected.map((e) => e[name]),
            `${name}: nothing excluded`,
          );
      }
    });
  });
}
