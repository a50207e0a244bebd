/**
 * The handmade history (testdata/testcases/handmade): every edge case is annotated in the
 * .osh file; expected.json gives snapshots, per-element contributions, users and measures.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { epoch, importToTemp, TEST_DATA, type ImportedDb } from './test-support.js';

const DIR = join(TEST_DATA, 'testcases', 'handmade');
const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8'));
const TYPE_LETTER = ['n', 'w', 'r'];

/** A condition over the view for the count names used in expected.json ("building=*", "amenity=bench", "nodes"). */
function countCondition(name: string): string {
  if (name === 'nodes') return "type = 'node'";
  if (name === 'ways') return "type = 'way'";
  if (name === 'relations') return "type = 'relation'";
  const [key, value] = name.split('=');
  return value === '*' ? `list_contains(map_keys(tags), '${key}')` : `map_extract(tags, '${key}')[1] = '${value}'`;
}

for (const file of ['history-small.osh', 'history-small.osh.pbf']) {
  describe(`handmade history (${file})`, () => {
    let db: ImportedDb;
    before(async () => {
      db = await importToTemp(join(DIR, file));
    });
    after(() => db.dispose());

    it('reads every version', () => {
      const v = expected.version_counts;
      assert.deepEqual(db.result.stats.versions, [v.node, v.way, v.relation]);
      // expected.json says 6 deleted node versions, but the file (and `osmium fileinfo`) has 6 deleted
      // versions in all: 5 nodes and way 10 v3. Count them from the file itself, per element type.
      const osh = readFileSync(join(DIR, 'history-small.osh'), 'utf8');
      const deleted = ['node', 'way', 'relation'].map((t) => (osh.match(new RegExp(`<${t} [^>]*visible="false"`, 'g')) ?? []).length);
      assert.deepEqual(deleted, [5, 1, 0]);
      assert.deepEqual(db.result.stats.deletedVersions, deleted);
    });

    for (const snap of expected.snapshots as { t: string; visible: string[]; counts: Record<string, number> }[]) {
      it(`snapshot at ${snap.t}: visible elements and counts`, async () => {
        const t = epoch(snap.t);
        const rows = await db.query<{ type: number; id: bigint; version: number }>(
          `SELECT type, id, version FROM states WHERE NOT deleted AND valid_from <= ${t} AND valid_to > ${t}`,
        );
        const visible = rows.map((r) => `${TYPE_LETTER[r.type]}${r.id}v${r.version}`).sort();
        assert.deepEqual(visible, [...snap.visible].sort());
        for (const [name, count] of Object.entries(snap.counts)) {
          const [{ n }] = await db.query<{ n: bigint }>(
            `SELECT count(*) AS n FROM contributions WHERE NOT deleted AND valid_from <= make_timestamp(${t}000000)
               AND (valid_to IS NULL OR valid_to > make_timestamp(${t}000000)) AND ${countCondition(name)}`,
          );
          assert.equal(Number(n), count, name);
        }
      });
    }

    it('contributions of each element (changeset-collapsed)', async () => {
      for (const [element, list] of Object.entries(expected.contributions_by_element as Record<string, [string, string][]>)) {
        const type = TYPE_LETTER.indexOf(element[0]);
        const rows = await db.query<{ valid_from: number; kind: string }>(
          `SELECT valid_from, CASE WHEN is_creation THEN 'creation' WHEN is_deletion THEN 'deletion'
                  WHEN tag_change THEN 'tag_change' WHEN geometry_change THEN 'geometry_change' ELSE 'none' END AS kind
           FROM states WHERE type = ${type} AND id = ${element.slice(1)} AND NOT collapsed ORDER BY valid_from`,
        );
        const got = rows.map((r) => [new Date(Number(r.valid_from) * 1000).toISOString().replace('.000Z', 'Z'), r.kind]);
        const want = list.map(([t, what]) => [t, what.split(' ')[0]]);
        assert.deepEqual(got, want, element);
      }
    });

    it('contribution counts and users', async () => {
      const [{ n: buildingContributions }] = await db.query<{ n: bigint }>(
        `SELECT count(*) AS n FROM contributions WHERE type = 'way' AND NOT collapsed
           AND (list_contains(map_keys(tags), 'building') OR list_contains(map_keys(tags_before), 'building'))
           AND (is_creation OR is_deletion OR tag_change OR geometry_change)
           AND valid_from >= TIMESTAMP '2019-12-31' AND valid_from < TIMESTAMP '2020-12-31'`,
      );
      assert.equal(Number(buildingContributions), 4);
      const [{ n: amenityContributions }] = await db.query<{ n: bigint }>(
        `SELECT count(*) AS n FROM contributions WHERE type = 'node' AND NOT collapsed
           AND (list_contains(map_keys(tags), 'amenity') OR list_contains(map_keys(tags_before), 'amenity'))
           AND (is_creation OR is_deletion OR tag_change OR geometry_change)`,
      );
      assert.equal(Number(amenityContributions), 4);
      const [{ n: februaryVersions }] = await db.query<{ n: bigint }>(
        `SELECT count(*) AS n FROM contributions WHERE minor_version = 0
           AND valid_from >= TIMESTAMP '2020-02-01' AND valid_from < TIMESTAMP '2020-03-01'`,
      );
      assert.equal(Number(februaryVersions), 10);
      const [{ n: users2020 }] = await db.query<{ n: bigint }>(
        `SELECT count(DISTINCT user_id) AS n FROM contributions WHERE minor_version = 0
           AND valid_from >= TIMESTAMP '2020-01-01' AND valid_from < TIMESTAMP '2021-01-01'`,
      );
      assert.equal(Number(users2020), 3);
      const [{ n: usersFebruary }] = await db.query<{ n: bigint }>(
        `SELECT count(DISTINCT user_id) AS n FROM contributions WHERE minor_version = 0
           AND valid_from >= TIMESTAMP '2020-02-01' AND valid_from < TIMESTAMP '2020-03-01'`,
      );
      assert.equal(Number(usersFebruary), 1);
    });

    it('lengths and areas within 1 % of the reference values', async () => {
      const measure = async (sql: string) => Number((await db.query<{ v: number }>(sql))[0].v);
      const ref = expected.geometry_reference_values_tolerance_1_percent;
      const near = (got: number, want: number, what: string) => assert.ok(Math.abs(got - want) / want < 0.01, `${what}: ${got} vs ${want}`);
      near(
        await measure(`SELECT length AS v FROM states WHERE type = 1 AND id = 11 AND version = 1`),
        ref['w11 v1 length m (haversine, R=6371008.8)'],
        'w11 v1',
      );
      near(await measure(`SELECT length AS v FROM states WHERE type = 1 AND id = 11 AND version = 2`), ref['w11 v2 length m'], 'w11 v2');
      near(
        await measure(`SELECT area AS v FROM states WHERE type = 1 AND id = 10 AND valid_from = ${epoch('2020-01-01T00:00:00Z')}`),
        ref['w10 area m2 before 2020-03-01 (spherical ring area, R=6378137)'],
        'w10 before',
      );
      near(
        await measure(`SELECT area AS v FROM states WHERE type = 1 AND id = 10 AND valid_from = ${epoch('2020-03-01T00:00:00Z')}`),
        ref['w10 area m2 from 2020-03-01 until deletion'],
        'w10 after',
      );
      near(await measure(`SELECT max(area) AS v FROM states WHERE type = 2 AND id = 20`), ref['r20 multipolygon area m2'], 'r20');
    });
  });
}
