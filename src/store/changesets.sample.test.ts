/**
 * Changesets on the Andorra sample (testdata/changesets/andorra-changesets.osm: hand-written, with
 * four changeset ids the sample references, among its 8,115, and two it does not): import
 * --changesets keeps the four, the view gives their tags to exactly their states' contributions, the
 * rest have none, and --all keeps the other two as well.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_DATA } from '../testing/test-data.js';
import { importChangesets } from './changesets.js';
import { importHistory, type ImportResult } from './import-history.js';
import { queryStore } from './test-support.js';

const SAMPLE = join(TEST_DATA, 'history', 'andorra.osh.pbf');
const DUMP = join(TEST_DATA, 'changesets', 'andorra-changesets.osm');
const REFERENCED = [2762, 10023988, 27899719, 46219619];

const query = queryStore;

describe('changesets on the Andorra sample', () => {
  let dir: string;
  let db: string;
  let result: ImportResult;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'maphist-changesets-sample-'));
    db = join(dir, 'andorra.duckdb');
    result = await importHistory({ input: SAMPLE, db, changesets: DUMP });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the four changesets the sample references; the other 8,111 it references are missing from the dump', async () => {
    assert.deepEqual(result.changesets, { read: 6, kept: 4, missing: 8111 });
    const rows = await query<{ id: bigint }>(db, 'SELECT id FROM changesets ORDER BY id');
    assert.deepEqual(
      rows.map((r) => Number(r.id)),
      REFERENCED,
    );
    const [meta] = await query<{ source: string; kept: string }>(
      db,
      `SELECT max(value) FILTER (WHERE key = 'changesetsSource') AS source, max(value) FILTER (WHERE key = 'changesets') AS kept FROM meta`,
    );
    assert.deepEqual(meta, { source: '"andorra-changesets.osm"', kept: '4' });
  });

  it('the view gives the tags to exactly the contributions of the changesets that have tags', async () => {
    const withTags = await query<{ changeset: bigint; n: number }>(
      db,
      'SELECT changeset, count(*)::INTEGER AS n FROM contributions WHERE cardinality(changeset_tags) > 0 GROUP BY 1 ORDER BY 1',
    );
    const expected = await query<{ changeset: bigint; n: number }>(
      db,
      'SELECT changeset, count(*)::INTEGER AS n FROM states WHERE changeset IN (10023988, 27899719, 46219619) GROUP BY 1 ORDER BY 1',
    );
    assert.equal(expected.length, 3);
    assert.deepEqual(withTags, expected);
    const buildings = await query<{ comment: string; n: number }>(
      db,
      `SELECT changeset_tags['comment'] AS comment, count(*)::INTEGER AS n FROM contributions
       WHERE type = 'way' AND tags['building'] IS NOT NULL AND changeset = 27899719 GROUP BY 1`,
    );
    assert.equal(buildings.length, 1);
    assert.equal(buildings[0]!.comment, "Edificis d'Andorra la Vella #buildings");
    assert.equal(buildings[0]!.n, 52);
  });

  it('changesets import --all keeps all six', async () => {
    assert.deepEqual(await importChangesets(db, DUMP, { all: true }), { read: 6, kept: 6, missing: 8111 });
    const [{ n }] = await query<{ n: number }>(db, 'SELECT count(*)::INTEGER AS n FROM changesets');
    assert.equal(n, 6);
  });
});
