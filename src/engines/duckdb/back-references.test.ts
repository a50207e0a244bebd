/**
 * The back references (schema version 4: `way_nodes`, `current_parents`) and their engine functions:
 * on the handmade history against the file read by eye, and on the sample against the versions as
 * the reader hands them over, inverted here in plain JavaScript (no SQL).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { OsmVersion } from '../../core/osm.js';
import { openHistory } from '../../io/open-history.js';
import { importToTemp, TEST_DATA, type ImportedDb } from '../../store/test-support.js';
import { currentParents, wayNodeLists, type CurrentParent } from './back-references.js';

const HANDMADE = join(TEST_DATA, 'testcases', 'handmade', 'history-small.osh');
const SAMPLE = join(process.cwd(), 'sample', 'andorra.osh.pbf');

const line = (p: CurrentParent) => `${p.member.type[0]}${p.member.id} <- ${p.parent.type[0]}${p.parent.id}v${p.parent.version}`;

describe('back references on the handmade history', () => {
  let db: ImportedDb;
  before(async () => {
    db = await importToTemp(HANDMADE);
  });
  after(() => db.dispose());

  it("way_nodes: every way version's node list in order; the deletion w10v3 has none", async () => {
    const lists = await wayNodeLists(db.store, [10, 11, 12, 99]);
    assert.deepEqual(
      [...lists].map(([w, vs]) => [w, [...vs]]),
      [
        [
          10,
          [
            [1, [1, 2, 3, 4, 1]],
            [2, [1, 2, 3, 4, 1]],
          ],
        ],
        [
          11,
          [
            [1, [6, 7]],
            [2, [6, 7, 8]],
          ],
        ],
        [12, [[1, [9, 10, 11, 12, 9]]]],
      ],
    );
  });

  it('current parents: w10 is deleted (n1–n4 have none), w11v2 added n8, r20v2 still names w12', async () => {
    const nodes = Array.from({ length: 12 }, (_, i) => ({ type: 'node' as const, id: i + 1 }));
    const got = await currentParents(db.store, [
      ...nodes,
      { type: 'way', id: 10 },
      { type: 'way', id: 11 },
      { type: 'way', id: 12 },
      { type: 'relation', id: 20 },
    ]);
    assert.deepEqual(got.map(line), [
      'n6 <- w11v2',
      'n7 <- w11v2',
      'n8 <- w11v2',
      'n9 <- w12v1', // named twice (the ring closes on it), one row
      'n10 <- w12v1',
      'n11 <- w12v1',
      'n12 <- w12v1',
      'w12 <- r20v2',
    ]);
    assert.deepEqual(await currentParents(db.store, []), []);
    assert.deepEqual(await currentParents(db.store, [{ type: 'node', id: 1 }]), []);
  });
});

describe('back references on the sample', () => {
  let db: ImportedDb;
  /** The newest version of every way and relation, as the reader hands them over. */
  const newest = new Map<string, OsmVersion>();
  const wayLists: string[] = [];
  before(async () => {
    db = await importToTemp(SAMPLE);
    const history = await openHistory(SAMPLE);
    try {
      for await (const batch of history.batches()) {
        for (const v of batch) {
          if (v.type === 'node') continue;
          newest.set(`${v.type}/${v.id}`, v); // versions come in (type, id, version) order
          if (v.type === 'way' && v.refs.length > 0) wayLists.push(`${v.id} ${v.version} ${v.refs.join(',')}`);
        }
      }
    } finally {
      await history.close();
    }
  });
  after(() => db.dispose());

  it('way_nodes holds every node list of every way version', async () => {
    const rows = await db.query<{ l: string }>(
      `SELECT concat_ws(' ', way_id, version, string_agg(node_id::VARCHAR, ',' ORDER BY pos)) AS l FROM way_nodes GROUP BY way_id, version`,
    );
    const got = rows.map((r) => r.l).sort();
    assert.ok(wayLists.length > 10_000, `${wayLists.length} way versions`);
    assert.deepEqual(got, [...wayLists].sort());
  });

  it("current_parents is the inverse of the newest visible versions' node and member lists", async () => {
    const expected = new Set<string>();
    for (const v of newest.values()) {
      if (!v.visible) continue;
      const parent = `${v.type[0]}${v.id}v${v.version}`;
      if (v.type === 'way') for (const n of v.refs) expected.add(`n${n} <- ${parent}`);
      if (v.type === 'relation') for (const m of v.members) expected.add(`${m.type[0]}${m.ref} <- ${parent}`);
    }
    const rows = await db.query<{ l: string }>(
      `SELECT concat(['n','w','r'][member_type + 1], member_id, ' <- ', ['n','w','r'][parent_type + 1], parent_id, 'v', parent_version) AS l FROM current_parents`,
    );
    const got = rows.map((r) => r.l);
    assert.equal(new Set(got).size, got.length, 'one row per (member, parent)');
    assert.ok(expected.size > 100_000, `${expected.size} back references`);
    assert.deepEqual(got.sort(), [...expected].sort());
  });

  it('currentParents answers for a node shared by several ways and for a relation member, as the table says', async () => {
    const [shared] = await db.query<{ id: number }>(
      `SELECT member_id::DOUBLE AS id FROM current_parents WHERE member_type = 0 GROUP BY 1 HAVING count(*) >= 3 ORDER BY 1 LIMIT 1`,
    );
    const [member] = await db.query<{ t: number; id: number }>(
      `SELECT member_type::INTEGER AS t, member_id::DOUBLE AS id FROM current_parents WHERE parent_type = 2 AND member_type = 1 ORDER BY 2 LIMIT 1`,
    );
    const got = await currentParents(db.store, [
      { type: 'node', id: shared!.id },
      { type: 'way', id: member!.id },
    ]);
    const expected: CurrentParent[] = [];
    for (const v of newest.values()) {
      if (!v.visible) continue;
      const parent = { type: v.type, id: v.id, version: v.version };
      const names = (type: 'node' | 'way', id: number) =>
        v.type === 'way' ? type === 'node' && v.refs.includes(id) : v.type === 'relation' && v.members.some((m) => m.type === type && m.ref === id);
      if (names('node', shared!.id)) expected.push({ member: { type: 'node', id: shared!.id }, parent });
      if (names('way', member!.id)) expected.push({ member: { type: 'way', id: member!.id }, parent });
    }
    const code = { node: 0, way: 1, relation: 2 };
    expected.sort((a, b) => code[a.member.type] - code[b.member.type] || code[a.parent.type] - code[b.parent.type] || a.parent.id - b.parent.id);
    assert.ok(got.filter((p) => p.member.type === 'node').length >= 3);
    assert.deepEqual(got, expected);
  });
});
