/**
 * The element extent columns (element-extent.ts) against the states they summarize, recomputed here
 * in JS from each row's bbox and deleted flag: every row of an element carries the union of the
 * bboxes of all its states, or the whole world when one of its visible way or relation states has
 * no geometry (it may be placed by its members' history) or none of its states has a bbox. The
 * update path's extents are compared with a full import's in apply-changes.test.ts.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { HISTORY_DIR, TESTCASES_DIR } from '../testing/test-data.js';
import { WHOLE_WORLD_EXTENT } from './element-extent.js';
import { importToTemp, type ImportedDb } from './test-support.js';

interface Row {
  type: number;
  id: bigint;
  deleted: boolean;
  xmin: number | null;
  ymin: number | null;
  xmax: number | null;
  ymax: number | null;
  ext_xmin: number;
  ext_ymin: number;
  ext_xmax: number;
  ext_ymax: number;
  spatial_key: number;
}

/** Each element's extent from its rows, as element-extent.ts defines it. */
function expectedExtents(rows: readonly Row[]): Map<string, readonly number[]> {
  const acc = new Map<string, { box: number[]; unbounded: boolean }>();
  for (const r of rows) {
    const key = `${r.type}/${r.id}`;
    let a = acc.get(key);
    if (!a) acc.set(key, (a = { box: [Infinity, Infinity, -Infinity, -Infinity], unbounded: false }));
    if (r.xmin === null) {
      if (!r.deleted && r.type > 0) a.unbounded = true;
      continue;
    }
    a.box = [Math.min(a.box[0], r.xmin), Math.min(a.box[1], r.ymin!), Math.max(a.box[2], r.xmax!), Math.max(a.box[3], r.ymax!)];
  }
  const out = new Map<string, readonly number[]>();
  for (const [key, a] of acc) out.set(key, a.unbounded || a.box[0] === Infinity ? WHOLE_WORLD_EXTENT : a.box);
  return out;
}

const CASES = [
  { name: 'elements with empty geometries (contribution-edges)', file: join(TESTCASES_DIR, 'contribution-edges', 'empty-geometry.osh'), minWorld: 2 },
  { name: 'Andorra', file: join(HISTORY_DIR, 'andorra.osh.pbf'), minWorld: 1 },
];

for (const c of CASES) {
  describe(`element extent: ${c.name}`, () => {
    let db: ImportedDb;
    before(async () => {
      db = await importToTemp(c.file);
    });
    after(() => db.dispose());

    it('every row carries its element’s extent: the union of its states’ bboxes, or the whole world', async () => {
      const rows = await db.query<Row>(
        'SELECT type, id, deleted, xmin, ymin, xmax, ymax, ext_xmin, ext_ymin, ext_xmax, ext_ymax, spatial_key::DOUBLE AS spatial_key FROM states ORDER BY rowid',
      );
      const want = expectedExtents(rows);
      let world = 0;
      let bounded = 0;
      for (const r of rows) {
        const e = want.get(`${r.type}/${r.id}`)!;
        assert.deepEqual([r.ext_xmin, r.ext_ymin, r.ext_xmax, r.ext_ymax], [...e], `${r.type}/${r.id}`);
      }
      // The rows of the elements whose extent is the whole world come after all others (the finish's second INSERT).
      const firstWorld = rows.findIndex((r) => want.get(`${r.type}/${r.id}`) === WHOLE_WORLD_EXTENT);
      assert.ok(firstWorld > 0);
      for (let i = firstWorld; i < rows.length; i++) assert.equal(want.get(`${rows[i].type}/${rows[i].id}`), WHOLE_WORLD_EXTENT, `row ${i}`);
      for (let i = 1; i < firstWorld; i++) assert.ok(rows[i - 1].spatial_key <= rows[i].spatial_key, `row ${i}: in spatial order`);
      for (const e of want.values()) {
        if (e === WHOLE_WORLD_EXTENT) world++;
        else bounded++;
      }
      // Both kinds occur, so the comparison above can fail either way.
      assert.ok(world >= c.minWorld, `${world} elements with the whole world`);
      assert.ok(bounded > 0);
    });
  });
}
