/**
 * Oracle: for every real extract, the number of elements alive at each 1 January through the
 * `contributions` view equals what `osmium time-filter` + `tags-filter` counted
 * (testdata/history/expected/*.snapshot-counts.jsonl).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { importToTemp, readSnapshotCounts, TEST_DATA, type ImportedDb } from './test-support.js';

const EXPECTED_DIR = join(TEST_DATA, 'history', 'expected');
const COUNTS: Record<string, string> = {
  nodes: "type = 'node'",
  ways: "type = 'way'",
  relations: "type = 'relation'",
  ways_building: "type = 'way' AND list_contains(map_keys(tags), 'building')",
  nwr_building: "list_contains(map_keys(tags), 'building')",
  ways_highway: "type = 'way' AND list_contains(map_keys(tags), 'highway')",
  nodes_amenity: "type = 'node' AND list_contains(map_keys(tags), 'amenity')",
  relations_type_multipolygon: "type = 'relation' AND map_extract(tags, 'type')[1] = 'multipolygon'",
};

const regions = readdirSync(EXPECTED_DIR)
  .filter((f) => f.endsWith('.snapshot-counts.jsonl'))
  .map((f) => f.split('.')[0]);

for (const region of regions) {
  describe(`osmium snapshot counts: ${region}`, () => {
    let db: ImportedDb;
    before(async () => {
      db = await importToTemp(join(TEST_DATA, 'history', `${region}.osh.pbf`));
    });
    after(() => db.dispose());

    const lines = readSnapshotCounts(region);
    for (const line of lines) {
      it(`at ${line.timestamp}`, async () => {
        const t = `TIMESTAMP '${line.timestamp.replace('T', ' ').replace('Z', '')}'`;
        const select = Object.entries(COUNTS)
          .map(([name, cond]) => `count(*) FILTER (WHERE ${cond}) AS ${name}`)
          .join(', ');
        const [row] = await db.query<Record<string, bigint>>(
          `SELECT ${select} FROM contributions WHERE NOT deleted AND valid_from <= ${t} AND (valid_to IS NULL OR valid_to > ${t})`,
        );
        const got = Object.fromEntries(Object.keys(COUNTS).map((k) => [k, Number(row[k])]));
        const want = Object.fromEntries(Object.keys(COUNTS).map((k) => [k, line[k]]));
        assert.deepEqual(got, want);
      });
    }
  });
}
