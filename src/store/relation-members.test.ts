/**
 * The relation_members table (schema version 2) against osmium's own reading of the file: every
 * member of every relation version, with its position, type, id and role, and `edits` of states.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { importToTemp, TEST_DATA, type ImportedDb } from './test-support.js';

const HAS_OSMIUM = spawnSync('osmium', ['--version']).status === 0;
/** OPL escapes a character as %<hex code point>%. */
const unescapeOpl = (s: string) => s.replace(/%([0-9a-fA-F]+)%/g, (_, h: string) => String.fromCodePoint(parseInt(h, 16)));

/** "relation version pos type id role" lines as osmium sees the file. */
function osmiumMembers(file: string): string[] {
  const opl = execFileSync('osmium', ['cat', '-f', 'opl', '-t', 'relation', file], { maxBuffer: 1 << 30 }).toString();
  const out: string[] = [];
  for (const line of opl.split('\n')) {
    if (!line.startsWith('r')) continue;
    const fields = line.split(' ');
    const id = fields[0].slice(1);
    const version = fields.find((f) => f.startsWith('v'))!.slice(1);
    const m = fields.find((f) => f.startsWith('M'))!.slice(1);
    if (m === '') continue;
    m.split(',').forEach((member, pos) => {
      const at = member.indexOf('@');
      const type = { n: 0, w: 1, r: 2 }[member[0] as 'n' | 'w' | 'r'];
      out.push(`${id} ${version} ${pos} ${type} ${member.slice(1, at)} ${unescapeOpl(member.slice(at + 1))}`);
    });
  }
  return out.sort();
}

for (const [name, file] of [
  ['sample (andorra)', join(process.cwd(), 'sample', 'andorra.osh.pbf')],
  ['the Bagmati river (a waterway relation)', join(TEST_DATA, 'history', 'r4815251-bagmati-river.osh.gz')],
] as const) {
  describe(`relation_members of ${name}`, { skip: !HAS_OSMIUM && 'osmium is not installed' }, () => {
    let db: ImportedDb;
    before(async () => {
      db = await importToTemp(file);
    });
    after(() => db.dispose());

    it("every member of every relation version, in order, equals osmium's reading", async () => {
      const expected = osmiumMembers(file);
      const rows = await db.query<{ l: string }>(`SELECT concat_ws(' ', relation_id, version, pos, member_type, member_id, role) AS l FROM relation_members`);
      const got = rows.map((r) => r.l).sort();
      assert.ok(expected.length > 100, `${expected.length} members`);
      assert.equal(got.length, expected.length);
      assert.deepEqual(got, expected);
      const roles = new Set(got.map((l) => l.split(' ').slice(5).join(' ')));
      assert.ok(roles.size > 2, [...roles].join(','));
    });

    it('edits counts the kept states of each element before a state, plus one', async () => {
      const [bad] = await db.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM (
        SELECT edits, 1 + coalesce(sum(CASE WHEN collapsed THEN 0 ELSE 1 END) OVER (PARTITION BY type, id ORDER BY valid_from, version, minor_version
                 ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS expected
        FROM states) WHERE edits <> expected`);
      assert.equal(bad.n, 0);
    });
  });
}
