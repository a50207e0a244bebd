/**
 * The reading half of an update (apply-changes.ts): the versions of the elements it rebuilds, read
 * back from a store as the history builder needs them — a version's own state (`minor_version = 0`)
 * gives its timestamp, changeset, user id, visibility, tags (in their order: the area rules look at
 * the first hit) and a node's coordinates (its point's bbox, in 1e-7 degrees again); `way_nodes`
 * gives a way version's node list, `relation_members` a relation version's members. User names are
 * not kept per version (the `users` table has each user's last name), so read versions have none.
 * And the back references: which current ways and relations reference an element.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { OSM_TYPE_NAME, type NodeVersion, type OsmVersion, type RelationVersion, type WayVersion } from '../core/osm.js';

/** An element as one number: id × 4 + type code (exact while ids stay below 2^50). */
export function elementKey(type: number, id: number): number {
  return id * 4 + type;
}
export function keyType(key: number): 0 | 1 | 2 {
  return (key % 4) as 0 | 1 | 2;
}
export function keyId(key: number): number {
  return Math.floor(key / 4);
}

/** Fills the temporary table `name (type UTINYINT, id BIGINT)` with the given element keys. */
export async function elementTable(con: DuckDBConnection, name: string, keys: Iterable<number>): Promise<void> {
  await con.run(`CREATE OR REPLACE TEMP TABLE ${name} (type UTINYINT, id BIGINT)`);
  const app = await con.createAppender(name, 'main', 'temp');
  for (const k of keys) {
    app.appendUTinyInt(keyType(k));
    app.appendBigInt(BigInt(keyId(k)));
    app.endRow();
  }
  app.closeSync();
}

/** Runs a query and hands each result chunk's numeric column vectors (typed arrays) to `fn`. */
async function forEachChunk(con: DuckDBConnection, sql: string, fn: (columns: ArrayLike<number>[], rows: number) => void): Promise<void> {
  const result = await con.run(sql);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const columns: ArrayLike<number>[] = [];
    for (let c = 0; c < chunk.columnCount; c++) columns.push((chunk.getColumnVector(c) as unknown as { items: ArrayLike<number> }).items);
    fn(columns, chunk.rowCount);
  }
}

async function rows(con: DuckDBConnection, sql: string): Promise<unknown[][]> {
  return (await con.runAndReadAll(sql)).getRowsJS() as unknown[][];
}

/**
 * Every stored version of the elements in the temporary table `table`, by element key, in version
 * order (elements the store does not have are absent).
 */
export async function readStoredVersions(con: DuckDBConnection, table: string): Promise<Map<number, OsmVersion[]>> {
  const out = new Map<number, OsmVersion[]>();
  const states = await rows(
    con,
    `SELECT s.type, s.id, s.version, s.valid_from, s.changeset, s.user_id, s.deleted, map_keys(s.tags), map_values(s.tags), s.xmin, s.ymin
     FROM states s SEMI JOIN ${table} w ON s.type = w.type AND s.id = w.id
     WHERE s.minor_version = 0 ORDER BY 1, 2, 3`,
  );
  const wayIds: number[] = [];
  const relationIds: number[] = [];
  for (const [t, i, ver, from, cs, uid, deleted, keys, values, xmin, ymin] of states) {
    const type = Number(t) as 0 | 1 | 2;
    const id = Number(i);
    const visible = !deleted;
    const tags: string[] = [];
    if (visible) {
      const k = keys as string[];
      const v = values as string[];
      for (let j = 0; j < k.length; j++) tags.push(k[j]!, v[j]!);
    }
    const base = { id, version: Number(ver), timestamp: Number(from), changeset: Number(cs), uid: Number(uid), user: '', visible, tags };
    let version: OsmVersion;
    if (type === 0) {
      const lon = visible && xmin !== null ? Math.round(Number(xmin) * 1e7) : 0;
      const lat = visible && ymin !== null ? Math.round(Number(ymin) * 1e7) : 0;
      version = { type: 'node', ...base, lon, lat } satisfies NodeVersion;
    } else if (type === 1) {
      version = { type: 'way', ...base, refs: [] } satisfies WayVersion;
    } else {
      version = { type: 'relation', ...base, members: [] } satisfies RelationVersion;
    }
    const key = elementKey(type, id);
    let list = out.get(key);
    if (!list) {
      out.set(key, (list = []));
      if (type === 1) wayIds.push(id);
      else if (type === 2) relationIds.push(id);
    }
    list.push(version);
  }
  // Node lists and member lists come in millions of rows when big relations are rebuilt (every
  // version of a border and of its member ways): read column vectors, not a JS object per value.
  const versionOf = (type: 1 | 2, id: number, version: number): OsmVersion | undefined => {
    const list = out.get(elementKey(type, id));
    if (!list) return undefined;
    for (let k = list.length - 1; k >= 0; k--) if (list[k]!.version === version) return list[k];
    return undefined;
  };
  if (wayIds.length > 0) {
    let current: WayVersion | undefined;
    await forEachChunk(
      con,
      `SELECT n.way_id::DOUBLE, n.version, n.node_id::DOUBLE FROM way_nodes n SEMI JOIN ${table} w ON w.type = 1 AND w.id = n.way_id
       ORDER BY n.way_id, n.version, n.pos`,
      (columns, rows) => {
        const [ids, versions, nodes] = columns as [Float64Array, Int32Array, Float64Array];
        for (let r = 0; r < rows; r++) {
          if (current === undefined || current.id !== ids[r] || current.version !== versions[r]) {
            current = versionOf(1, ids[r]!, versions[r]!) as WayVersion | undefined;
            if (current) current.refs = [];
          }
          current?.refs.push(nodes[r]!);
        }
      },
    );
  }
  if (relationIds.length > 0) {
    await con.run(`CREATE OR REPLACE TEMP TABLE update_roles AS
      SELECT role, (row_number() OVER (ORDER BY role) - 1)::INTEGER AS rid
      FROM (SELECT DISTINCT m.role FROM relation_members m SEMI JOIN ${table} w ON w.type = 2 AND w.id = m.relation_id)`);
    const roles = (await rows(con, 'SELECT role FROM update_roles ORDER BY rid')).map((r) => String(r[0]));
    let current: RelationVersion | undefined;
    await forEachChunk(
      con,
      `SELECT m.relation_id::DOUBLE, m.version, m.member_type::INTEGER, m.member_id::DOUBLE, r.rid
       FROM relation_members m SEMI JOIN ${table} w ON w.type = 2 AND w.id = m.relation_id JOIN update_roles r ON r.role = m.role
       ORDER BY m.relation_id, m.version, m.pos`,
      (columns, rows) => {
        const [ids, versions, types, members, rids] = columns as [Float64Array, Int32Array, Int32Array, Float64Array, Int32Array];
        for (let r = 0; r < rows; r++) {
          if (current === undefined || current.id !== ids[r] || current.version !== versions[r]) {
            current = versionOf(2, ids[r]!, versions[r]!) as RelationVersion | undefined;
            if (current) current.members = [];
          }
          current?.members.push({ type: OSM_TYPE_NAME[types[r]!]!, ref: members[r]!, role: roles[rids[r]!]! });
        }
      },
    );
    await con.run('DROP TABLE update_roles');
  }
  return out;
}

/**
 * The ways and relations whose current version references an element of the temporary table
 * `table` (`current_parents`), as element keys; with `everyVersion`, also those with any stored
 * version that references one (`way_nodes`, `relation_members`: a scan of both, for changes older
 * than the store's newest data, which can fall inside an earlier version of a parent).
 */
export async function parentsOf(con: DuckDBConnection, table: string, everyVersion: boolean): Promise<Set<number>> {
  const out = new Set<number>();
  for (const [t, i] of await rows(
    con,
    `SELECT DISTINCT p.parent_type, p.parent_id FROM current_parents p SEMI JOIN ${table} w ON p.member_type = w.type AND p.member_id = w.id`,
  )) {
    out.add(elementKey(Number(t), Number(i)));
  }
  if (everyVersion) {
    for (const [i] of await rows(con, `SELECT DISTINCT n.way_id FROM way_nodes n SEMI JOIN ${table} w ON w.type = 0 AND w.id = n.node_id`)) {
      out.add(elementKey(1, Number(i)));
    }
    for (const [i] of await rows(
      con,
      `SELECT DISTINCT m.relation_id FROM relation_members m SEMI JOIN ${table} w ON w.type = m.member_type AND w.id = m.member_id`,
    )) {
      out.add(elementKey(2, Number(i)));
    }
  }
  return out;
}
