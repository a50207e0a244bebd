/**
 * contributions.parquet on the handmade history (testdata/testcases/handmade/history-small.osh):
 * the contribution types per element, derived by hand from the file (comments below), and the
 * deletion rules (previous geometry, tags = tags_before).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseFilter } from '../../../filter/index.js';
import { epoch, importToTemp, TEST_DATA, type ImportedDb } from '../../../store/test-support.js';
import { createParquetExtraction, type MaphistParquetExtraction } from '../../../testing/geoparquet.js';
import { bboxArea, extractToFile, readWithHyparquet } from './test-support.js';
import { inV2 } from '../../../testing/handmade.js';

const FILE = join(TEST_DATA, 'testcases', 'handmade', 'history-small.osh.pbf');
const WORLD = bboxArea([-180, -90, 180, 90]);

/**
 * Every contribution of 2020, by element, in time order (hand-derived from history-small.osh):
 * - n1, n2, n4: created 2020-01-01, deleted 2020-07-01.
 * - n3: created, moved 2020-03-01 (v2: GEOMETRY), deleted.
 * - n5: created (bench), backrest added 2020-02-01 (TAG), deleted 2020-05-01, re-created 2020-06-01 (CREATION).
 * - n6, n7 (2020-02-15), n8 (2020-08-01), n9..n12 (2020-02-01): created once.
 * - w10: created 2020-01-01; n3 moves 2020-03-01 (member-induced GEOMETRY, no way version);
 *   v2 2020-04-01 building=yes→house (TAG); v3 deleted 2020-07-01 (its nodes' deletions at the same
 *   second add nothing).
 * - w11: created 2020-02-15; v2 2020-08-01 adds n8 (GEOMETRY; the new node at the same second adds nothing).
 * - w12: created 2020-02-01 (untagged ring; its nodes in the same changeset and second).
 * - r20: created 2020-02-01; v2 2020-09-01 landuse grass→meadow (TAG).
 */
const EXPECTED: Record<string, string[]> = {
  n1: ['CREATION', 'DELETION'],
  n2: ['CREATION', 'DELETION'],
  n3: ['CREATION', 'GEOMETRY', 'DELETION'],
  n4: ['CREATION', 'DELETION'],
  n5: ['CREATION', 'TAG', 'DELETION', 'CREATION'],
  n6: ['CREATION'],
  n7: ['CREATION'],
  n8: ['CREATION'],
  n9: ['CREATION'],
  n10: ['CREATION'],
  n11: ['CREATION'],
  n12: ['CREATION'],
  w10: ['CREATION', 'GEOMETRY', 'TAG', 'DELETION'],
  w11: ['CREATION', 'GEOMETRY'],
  w12: ['CREATION'],
  r20: ['CREATION', 'TAG'],
};

describe('contributions.parquet on the handmade history', () => {
  let db: ImportedDb;
  let x: MaphistParquetExtraction;
  before(async () => {
    db = await importToTemp(FILE);
    x = await createParquetExtraction(db.store);
  });
  after(() => db.dispose());

  it('types and counts per element match the hand-derived contributions', async () => {
    const { path, stats } = await extractToFile(x, {
      kind: 'contributions',
      aoi: WORLD,
      time: { start: epoch('2020-01-01T00:00:00Z'), end: epoch('2021-01-01T00:00:00Z') },
      filter: parseFilter('', { version: 2 }),
    });
    const { rows } = await readWithHyparquet(path);
    // Version 2 leaves out the never-tagged elements (handmade.ts): 29 contributions in the file, 12 seen.
    const seen = Object.fromEntries(Object.entries(EXPECTED).filter(([element]) => inV2(element)));
    assert.equal(Object.values(EXPECTED).flat().length, 29);
    assert.equal(stats.rows, Object.values(seen).flat().length);
    const got: Record<string, [number, string][]> = {};
    for (const r of rows) {
      const key = `${String(r.osm_type)[0]}${r.osm_id}`;
      (got[key] ??= []).push([(r.edit_timestamp as Date).getTime(), r.contribution_type as string]);
    }
    const byTime = Object.fromEntries(Object.entries(got).map(([k, v]) => [k, v.sort((a, b) => a[0] - b[0]).map(([, t]) => t)]));
    assert.deepEqual(byTime, seen);
    // n5's deletion: the bench's last tags (as tags and tags_before) and its last position.
    const del = rows.find((r) => r.osm_id === 5n && r.contribution_type === 'DELETION')!;
    assert.deepEqual(del.tags, { amenity: 'bench', backrest: 'yes' });
    assert.deepEqual(del.tags_before, { amenity: 'bench', backrest: 'yes' });
    assert.equal(del.geom_type, 'Point');
    const b = del.bbox as Record<string, number>;
    for (const [k, v] of Object.entries({ xmin: 8.002, ymin: 49, xmax: 8.002, ymax: 49 })) assert.ok(Math.abs(b[k] - v) < 1e-9, `${k} ${b[k]}`);
    assert.equal(del.user_name, 'alice');
    assert.equal(del.changeset_id, 5n);
    const tag = rows.find((r) => r.osm_id === 5n && r.contribution_type === 'TAG')!;
    assert.deepEqual(tag.tags_before, { amenity: 'bench' });
    assert.deepEqual(tag.changeset_tags, {});
  });

  it('a filter matches tags or tags_before (the deletion of a bench is a bench contribution)', async () => {
    const { path } = await extractToFile(x, {
      kind: 'contributions',
      aoi: WORLD,
      time: { start: epoch('2020-01-01T00:00:00Z'), end: epoch('2021-01-01T00:00:00Z') },
      filter: parseFilter('amenity=bench', { version: 2 }),
    });
    const { rows } = await readWithHyparquet(path);
    // n5 v1 (bench), v2 (bench, backrest), v3 deletion (tags_before bench); v4 is a waste basket created over the deletion.
    assert.deepEqual(rows.map((r) => r.contribution_type).sort(), ['CREATION', 'DELETION', 'TAG']);
  });

  it('features at an instant carry edits (kept states before + 1) and the state of the instant', async () => {
    const { path } = await extractToFile(x, {
      kind: 'features',
      aoi: WORLD,
      time: { at: epoch('2020-03-15T00:00:00Z') },
      filter: parseFilter('building=*', { version: 2 }),
      clip: true,
    });
    const { rows } = await readWithHyparquet(path);
    assert.equal(rows.length, 1);
    const w = rows[0];
    assert.equal(w.osm_id, 10n);
    assert.equal(w.version, 1);
    assert.equal(w.minor_version, 1);
    assert.equal(w.edits, 2);
    assert.equal(w.changeset_id, 3n);
    assert.equal((w.edit_timestamp as Date).toISOString(), '2020-03-01T00:00:00.000Z');
    assert.equal((w.valid_to_timestamp as Date).toISOString(), '2020-04-01T00:00:00.000Z');
    assert.equal(w.geom_type, 'Polygon');
    assert.equal(w.clipped, false);
  });
});
