/**
 * `edits` and `geometry_run` (geometry-run.ts) against each element's states in time order,
 * recomputed here in JS from the rows' flags: contributions take a state's predecessor as the kept
 * state with `edits - 1` and one state per (type, id, geometry_run) for its geometry, so both must
 * number the kept states as a window over the timeline would (the engines' statement did that with
 * `lag` and a running sum before schema version 6). The update path's columns are compared with a
 * full import's in apply-changes.test.ts.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { HISTORY_DIR, TESTCASES_DIR } from '../testing/test-data.js';
import { importToTemp, type ImportedDb } from './test-support.js';

interface Row {
  type: number;
  id: bigint;
  collapsed: boolean;
  deleted: boolean;
  is_creation: boolean;
  geometry_change: boolean;
  geometry: Uint8Array | null;
  edits: number;
  geometry_run: number;
}

const CASES = [
  // n1 v2 (tags only) and n2 v2 share their run with v1; w1 v2 and n1 v3 start new ones.
  { name: 'contributions of every kind', file: join(TESTCASES_DIR, 'contribution-kinds', 'history.osh') },
  { name: 'Andorra', file: join(HISTORY_DIR, 'andorra.osh.pbf') },
];

for (const c of CASES) {
  describe(`edits and geometry runs: ${c.name}`, () => {
    let db: ImportedDb;
    before(async () => {
      db = await importToTemp(c.file);
    });
    after(() => db.dispose());

    it('number the kept states in time order, and a run’s kept states share one geometry', async () => {
      const rows = await db.query<Row>(
        `SELECT type, id, collapsed, deleted, is_creation, geometry_change, geometry, edits, geometry_run
         FROM states ORDER BY type, id, valid_from, version, minor_version`,
      );
      let key = '';
      let kept = 0;
      let run = 0;
      let runs = 0;
      let runGeometry: Uint8Array | null = null;
      for (const r of rows) {
        const k = `${r.type}/${r.id}`;
        if (k !== key) [key, kept, run] = [k, 0, 0];
        const starts = !r.collapsed && (r.deleted || r.is_creation || r.geometry_change);
        if (starts) run++;
        assert.equal(r.edits, kept + 1, `${k}: edits`);
        assert.equal(r.geometry_run, run, `${k}: geometry_run`);
        if (!r.collapsed) {
          kept++;
          // Within a run the WKB stays the same (a deletion starts its own run and keeps the last geometry).
          if (starts) [runGeometry, runs] = [r.geometry, runs + 1];
          else assert.deepEqual(r.geometry, runGeometry, `${k}: a run’s states share their geometry`);
        }
      }
      assert.ok(runs > 0 && rows.length > runs, `${rows.length} states in ${runs} runs`);
    });
  });
}
