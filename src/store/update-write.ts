/**
 * The writing half of an update (apply-changes.ts): the rebuilt states become rows of `states` with
 * exactly the columns the import's finalize step gives them (finalize-sql.ts): tags through the
 * store's dictionary (a key or value the store has not seen gets the next free id: key ids are no
 * longer ranked by frequency after an update, but `key_mask` is computed from the ids as at import,
 * so the filter stays exact), geometry columns by `geometryColumns` as the import's writer does,
 * `edits`, `ever_tagged` and `geometry_run` per element as the import's StoreWriter.
 */
import { LIST, VARCHAR, listValue, type DuckDBConnection } from '@duckdb/node-api';
import type { FlatTags } from '../core/osm.js';
import type { ElementState } from '../history/element-state.js';
import { elementExtent } from './element-extent.js';
import { startsGeometryRun } from './geometry-run.js';
import { KEY_MASK_BITS } from './schema.js';
import { geometryBbox, geometryColumns } from './state-row.js';

/** The rows of new states, staged in a temporary table (tags as key and value lists until the dictionary is known). */
export const NEW_STATES_TABLE = 'update_new_states';
const NEW_STATES_COLUMNS = `type UTINYINT, id BIGINT, version INTEGER, minor_version INTEGER, valid_from BIGINT, valid_to BIGINT, deleted BOOLEAN,
  changeset BIGINT, user_id INTEGER, tk VARCHAR[], tv VARCHAR[], btk VARCHAR[], btv VARCHAR[],
  geometry_type UTINYINT, geometry BLOB, geometry_valid BOOLEAN, xmin DOUBLE, ymin DOUBLE, xmax DOUBLE, ymax DOUBLE, spatial_key BIGINT,
  area DOUBLE, length DOUBLE, perimeter DOUBLE, vertices INTEGER, outers INTEGER, inners INTEGER, roundness DOUBLE, squareness DOUBLE,
  collapsed BOOLEAN, is_creation BOOLEAN, is_deletion BOOLEAN, tag_change BOOLEAN, geometry_change BOOLEAN, edits INTEGER, ever_tagged BOOLEAN, geometry_run INTEGER,
  ext_xmin DOUBLE, ext_ymin DOUBLE, ext_xmax DOUBLE, ext_ymax DOUBLE`;

const STRINGS = LIST(VARCHAR);

/** Appends states to the staging table; `finish` moves them into `states`. */
export class NewStateRows {
  rows = 0;
  /** The bbox of the visible states written ([minX, minY, maxX, maxY]; Infinity while none). */
  readonly bbox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];

  private constructor(private readonly appender: Awaited<ReturnType<DuckDBConnection['createAppender']>>) {}

  static async create(con: DuckDBConnection): Promise<NewStateRows> {
    await con.run(`CREATE OR REPLACE TEMP TABLE ${NEW_STATES_TABLE} (${NEW_STATES_COLUMNS})`);
    return new NewStateRows(await con.createAppender(NEW_STATES_TABLE, 'main', 'temp'));
  }

  /** Elements whose rebuilt states carry a tag (`ever_tagged` is the same on every row of an element). */
  readonly everTagged: { type: number; id: number }[] = [];

  /**
   * The extent of every element written (element-extent.ts), over all its states: its kept rows
   * get it too (`updateElementExtents`), as they widen with the new ones.
   */
  readonly extents: { type: number; id: number; extent: readonly number[] }[] = [];

  /**
   * One element's states (all of them, as the history builder hands them over); only those from
   * `since` on are staged (`edits`, `ever_tagged` and `geometry_run` still count them all).
   */
  write(states: readonly ElementState[], since = -Infinity): void {
    if (states.length === 0) return;
    const everTagged = states.some((s) => s.tags.length > 0);
    if (everTagged) this.everTagged.push({ type: states[0]!.type, id: states[0]!.id });
    // Consecutive states whose geometry did not change share the geometry object: one bbox each.
    let lastGeometry: ElementState['geometry'] | undefined;
    let lastBbox: ReturnType<typeof geometryBbox> = null;
    const extent = elementExtent(states, (i) => {
      const g = states[i]!.geometry;
      if (g !== lastGeometry) [lastGeometry, lastBbox] = [g, geometryBbox(g)];
      return lastBbox;
    });
    this.extents.push({ type: states[0]!.type, id: states[0]!.id, extent });
    let kept = 0;
    let run = 0;
    for (const s of states) {
      if (startsGeometryRun(s)) run++;
      if (s.validFrom >= since) this.add(s, kept + 1, run, everTagged, extent);
      if (!s.collapsed) kept++;
    }
  }

  private add(s: ElementState, edits: number, run: number, everTagged: boolean, extent: readonly number[]): void {
    const a = this.appender;
    const g = geometryColumns(s.geometry, s.wkb, !s.deleted);
    a.appendUTinyInt(s.type);
    a.appendBigInt(BigInt(s.id));
    a.appendInteger(s.version);
    a.appendInteger(s.minorVersion);
    a.appendBigInt(BigInt(s.validFrom));
    a.appendBigInt(BigInt(s.validTo));
    a.appendBoolean(s.deleted);
    a.appendBigInt(BigInt(s.changeset));
    a.appendInteger(s.userId);
    appendTags(a, s.tags);
    appendTags(a, s.tagsBefore);
    a.appendUTinyInt(g.typeCode);
    if (g.wkb) a.appendBlob(g.wkb);
    else a.appendNull();
    a.appendBoolean(s.geometryValid);
    const b = g.bbox;
    for (let i = 0; i < 4; i++) {
      if (b) a.appendDouble(b[i]!);
      else a.appendNull();
    }
    if (b && !s.deleted) {
      this.bbox[0] = Math.min(this.bbox[0], b[0]);
      this.bbox[1] = Math.min(this.bbox[1], b[1]);
      this.bbox[2] = Math.max(this.bbox[2], b[2]);
      this.bbox[3] = Math.max(this.bbox[3], b[3]);
    }
    a.appendBigInt(BigInt(g.spatialKey));
    a.appendDouble(g.area);
    a.appendDouble(g.length);
    a.appendDouble(g.perimeter);
    a.appendInteger(g.vertices);
    a.appendInteger(g.outers);
    a.appendInteger(g.inners);
    a.appendDouble(g.roundness);
    if (g.squareness === null) a.appendNull();
    else a.appendDouble(g.squareness);
    a.appendBoolean(s.collapsed);
    a.appendBoolean(s.isCreation);
    a.appendBoolean(s.isDeletion);
    a.appendBoolean(s.tagChange);
    a.appendBoolean(s.geometryChange);
    a.appendInteger(edits);
    a.appendBoolean(everTagged);
    a.appendInteger(run);
    for (let i = 0; i < 4; i++) a.appendDouble(extent[i]!);
    a.endRow();
    this.rows++;
  }

  close(): void {
    this.appender.closeSync();
  }
}

function appendTags(a: Awaited<ReturnType<DuckDBConnection['createAppender']>>, tags: FlatTags): void {
  const keys: string[] = [];
  const values: string[] = [];
  for (let i = 0; i < tags.length; i += 2) {
    keys.push(tags[i]!);
    values.push(tags[i + 1]!);
  }
  a.appendList(listValue(keys), STRINGS);
  a.appendList(listValue(values), STRINGS);
}

/**
 * Gives every key and value of the staged rows an id in `tag_keys` / `tag_values` (new ones get the
 * next free id), then moves the staged rows into `states` with their packed tag lists, key masks
 * and tag maps, in spatial order (appended after the table's existing rows). Also adjusts the
 * dictionary's frequencies by the states removed (`removedTable`: their packed tags, one row each)
 * and added.
 */
export async function moveNewStates(db: DuckDBConnection, removedTable: string): Promise<void> {
  const con = timed(db);
  const T = NEW_STATES_TABLE;
  // Keys and values of the new rows (own tags and previous contribution's), with their ids where known.
  await con.run(`CREATE OR REPLACE TEMP TABLE update_kv AS
    SELECT DISTINCT k, v FROM (
      SELECT unnest(tk) AS k, unnest(tv) AS v FROM ${T}
      UNION ALL SELECT unnest(btk), unnest(btv) FROM ${T})`);
  await con.run(`INSERT INTO tag_keys
    SELECT (SELECT coalesce(max(id), -1) FROM tag_keys) + row_number() OVER (ORDER BY k), k, 0
    FROM (SELECT DISTINCT k FROM update_kv WHERE k NOT IN (SELECT key FROM tag_keys))`);
  await con.run(`INSERT INTO tag_values
    SELECT key_id, coalesce(m.max_id, -1) + row_number() OVER (PARTITION BY key_id ORDER BY v), v, 0
    FROM (SELECT DISTINCT tk.id AS key_id, n.v FROM update_kv n JOIN tag_keys tk ON tk.key = n.k
          ANTI JOIN tag_values tv ON tv.key_id = tk.id AND tv.value = n.v) x
    LEFT JOIN (SELECT key_id AS m_key, max(value_id) AS max_id FROM tag_values GROUP BY 1) m ON m.m_key = x.key_id`);
  // The packed id of every (key, value) the new rows use.
  await con.run(`CREATE OR REPLACE TEMP TABLE update_ids AS
    SELECT n.k, n.v, (tk.id::BIGINT << 32) | tv.value_id AS kv, tk.id AS key_id
    FROM update_kv n JOIN tag_keys tk ON tk.key = n.k JOIN tag_values tv ON tv.key_id = tk.id AND tv.value = n.v`);
  // Each row's packed tag list, sorted (as the import's list_sort of its remapped ids): unnest, join, regroup.
  const packed = (k: string, v: string) =>
    `(SELECT e.r, list_sort(list(i.kv)) AS kv FROM (SELECT rowid AS r, unnest(${k}) AS k, unnest(${v}) AS v FROM ${T}) e
      JOIN update_ids i ON i.k = e.k AND i.v = e.v GROUP BY e.r)`;
  const mask = (kv: string) =>
    `coalesce(list_aggregate(list_transform(${kv}, x -> CASE WHEN (x >> 32) < ${KEY_MASK_BITS} THEN (1::BIGINT << (x >> 32)) ELSE 0::BIGINT END), 'bit_or'), 0)`;
  await con.run(`CREATE OR REPLACE TEMP TABLE update_rows AS
    SELECT n.*, coalesce(a.kv, []::BIGINT[]) AS kv, coalesce(b.kv, []::BIGINT[]) AS bkv
    FROM (SELECT rowid AS r, * FROM ${T}) n
    LEFT JOIN ${packed('tk', 'tv')} a ON a.r = n.r
    LEFT JOIN ${packed('btk', 'btv')} b ON b.r = n.r`);
  await con.run(`INSERT INTO states
    SELECT type, id, version, minor_version, valid_from, valid_to, deleted, changeset, user_id,
      kv, ${mask('kv')}, map(tk, tv), bkv, ${mask('bkv')}, map(btk, btv),
      geometry_type, geometry, geometry_valid, xmin, ymin, xmax, ymax, spatial_key,
      area, length, perimeter, vertices, outers, inners, roundness, squareness,
      collapsed, is_creation, is_deletion, tag_change, geometry_change, edits, ever_tagged,
      ext_xmin, ext_ymin, ext_xmax, ext_ymax, geometry_run
    FROM update_rows ORDER BY spatial_key, type, id, valid_from, version, minor_version`);
  // Frequencies: the number of states using each key and value (own tags), as the import counts them.
  await con.run(`CREATE OR REPLACE TEMP TABLE update_freq AS
    SELECT kv, sum(n)::BIGINT AS n FROM (
      SELECT unnest(kv) AS kv, 1 AS n FROM update_rows
      UNION ALL SELECT unnest(kv), -1 FROM ${removedTable})
    GROUP BY kv HAVING sum(n) <> 0`);
  await con.run(`UPDATE tag_values SET frequency = frequency + f.n
    FROM update_freq f WHERE tag_values.key_id = (f.kv >> 32) AND tag_values.value_id = (f.kv & 4294967295)`);
  await con.run(`UPDATE tag_keys SET frequency = frequency + f.n
    FROM (SELECT kv >> 32 AS key_id, sum(n) AS n FROM update_freq GROUP BY 1) f WHERE tag_keys.id = f.key_id`);
  for (const t of [T, 'update_kv', 'update_ids', 'update_rows', 'update_freq']) await con.run(`DROP TABLE ${t}`);
}

/** The connection, printing each statement's time to stderr when MAPHIST_DEBUG_UPDATE is set. */
export function timed(con: DuckDBConnection): { run(sql: string): Promise<unknown> } {
  if (!process.env.MAPHIST_DEBUG_UPDATE) return con;
  return {
    async run(sql: string) {
      const t0 = performance.now();
      const r = await con.run(sql);
      console.error(`update: ${(performance.now() - t0).toFixed(0)} ms   ${sql.slice(0, 70).replace(/\s+/g, ' ')}`);
      return r;
    },
  };
}

/**
 * The extent columns (element-extent.ts) of the kept rows of the rebuilt elements (`rows.extents`,
 * computed over all their states): an element whose new states reach further widens on its old
 * rows too. The new rows were staged with it.
 */
export async function updateElementExtents(db: DuckDBConnection, rows: NewStateRows): Promise<void> {
  await db.run('CREATE OR REPLACE TEMP TABLE update_extents (type UTINYINT, id BIGINT, x0 DOUBLE, y0 DOUBLE, x1 DOUBLE, y1 DOUBLE)');
  const a = await db.createAppender('update_extents', 'main', 'temp');
  for (const { type, id, extent } of rows.extents) {
    a.appendUTinyInt(type);
    a.appendBigInt(BigInt(id));
    for (let i = 0; i < 4; i++) a.appendDouble(extent[i]!);
    a.endRow();
  }
  a.closeSync();
  await timed(db).run(`UPDATE states SET ext_xmin = x.x0, ext_ymin = x.y0, ext_xmax = x.x1, ext_ymax = x.y1
    FROM update_extents x
    WHERE states.type = x.type AND states.id = x.id
      AND (states.ext_xmin <> x.x0 OR states.ext_ymin <> x.y0 OR states.ext_xmax <> x.x1 OR states.ext_ymax <> x.y1)`);
  await db.run('DROP TABLE update_extents');
}
