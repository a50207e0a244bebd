/**
 * The osmcode multipolygon test grid (testdata/testcases/osm-testdata-grid), end to end:
 * import all.osm, then compare the area of each element the grid expects to be a valid
 * (multi)polygon with the area of the expected WKT. At least 95 % must agree within 1e-6.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { areaOf } from '../geometry/measures.js';
import { decodeWkb } from '../geometry/wkb.js';
import { parseWkt } from '../geometry/wkt.js';
import { importToTemp, TEST_DATA, type ImportedDb } from './test-support.js';

const GRID = join(TEST_DATA, 'testcases', 'osm-testdata-grid', 'data');
const TYPE_CODE: Record<string, number> = { node: 0, way: 1, relation: 2 };

interface ExpectedArea {
  from_id: number;
  from_type: string;
  wkt: string;
}

function validCases(): { id: string; areas: ExpectedArea[] }[] {
  const out: { id: string; areas: ExpectedArea[] }[] = [];
  for (const category of ['7', '9']) {
    for (const id of readdirSync(join(GRID, category))) {
      const dir = join(GRID, category, id);
      if (!existsSync(join(dir, 'result')) || readFileSync(join(dir, 'result'), 'utf8').trim() !== 'valid') continue;
      const test = JSON.parse(readFileSync(join(dir, 'test.json'), 'utf8'));
      const areas: ExpectedArea[] | undefined = test.areas?.default;
      if (areas && areas.length > 0) out.push({ id, areas });
    }
  }
  return out;
}

describe('osm-testdata multipolygon grid through the importer', () => {
  let db: ImportedDb;
  before(async () => {
    db = await importToTemp(join(GRID, 'all.osm'));
  });
  after(() => db.dispose());

  it('at least 95 % of the valid cases give the expected area within 1e-6 relative', async () => {
    const cases = validCases();
    const failing: string[] = [];
    for (const c of cases) {
      for (const a of c.areas) {
        const rows = await db.query<{ geometry: Uint8Array | null }>(
          `SELECT geometry FROM states WHERE type = ${TYPE_CODE[a.from_type]} AND id = ${a.from_id} AND NOT deleted ORDER BY valid_from DESC LIMIT 1`,
        );
        const want = areaOf(parseWkt(a.wkt));
        const got = rows[0]?.geometry ? areaOf(decodeWkb(rows[0].geometry)) : 0;
        if (!(Math.abs(got - want) <= 1e-6 * want)) {
          failing.push(`${c.id} (${a.from_type} ${a.from_id}: ${got.toFixed(2)} vs ${want.toFixed(2)} m²)`);
          break;
        }
      }
    }
    const passRate = 1 - failing.length / cases.length;
    console.log(
      `grid: ${cases.length - failing.length} of ${cases.length} valid cases pass (${(passRate * 100).toFixed(1)} %); failing: ${failing.join(', ') || 'none'}`,
    );
    assert.ok(passRate >= 0.95, `only ${(passRate * 100).toFixed(1)} % pass; failing: ${failing.join(', ')}`);
  });
});
