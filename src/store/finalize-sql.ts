/**
 * The SQL that turns the staging table written during the import into the final layout:
 * keys ranked by frequency (so the commonest get key_mask bits), tag maps materialised for the
 * user-facing view, and rows ordered by spatial key so DuckDB's zone maps prune by area.
 */
import { CHANGESETS_COLUMNS, CURRENT_PARENTS_COLUMNS, KEY_MASK_BITS, OPEN_END, RELATION_MEMBERS_COLUMNS, STATES_COLUMNS, WAY_NODES_COLUMNS } from './schema.js';
import { STAGING_FLAG } from './staging-batch.js';
import { wholeWorldExtentSql } from './element-extent.js';

/** Provisional packed ids -> final packed ids (keys and values ranked by frequency), sorted. */
const REMAP = (col: string) =>
  `list_sort(list_transform(${col}, x -> (lut.key_id_of[(x >> 32) + 1]::BIGINT << 32) | lut.value_id_of[lut.value_offset[(x >> 32) + 1] + (x & 4294967295) + 1]))`;
/** The staging table marks missing doubles (no bbox, squareness not computed) as NaN. */
const NAN_AS_NULL = (col: string) => `CASE WHEN isnan(${col}) THEN NULL ELSE ${col} END`;
/** The staging table holds packed tags as exact doubles. */
const AS_BIGINTS = (col: string) => `${col}::BIGINT[]`;
const KEY_MASK = (col: string) =>
  `coalesce(list_aggregate(list_transform(${col}, x -> CASE WHEN (x >> 32) < ${KEY_MASK_BITS} THEN (1::BIGINT << (x >> 32)) ELSE 0::BIGINT END), 'bit_or'), 0)`;
/** The tags of a packed provisional-id list as MAP(VARCHAR, VARCHAR), through the lookup lists of `lut`. */
const TAG_MAP = (col: string) =>
  `map_from_entries(list_transform(${col}, x -> {'key': lut.keys[(x >> 32) + 1], 'value': lut.vals[lut.value_offset[(x >> 32) + 1] + (x & 4294967295) + 1]}))`;

/** The staged rows as rows of `states` (the FROM clause included; a WHERE may follow). */
const STATES_INSERT = `INSERT INTO states
   SELECT s.type, s.id, s.version, s.minor_version, s.valid_from, s.valid_to, (s.flags & ${STAGING_FLAG.deleted}) <> 0, s.changeset, s.user_id,
          a.kv, a.key_mask, a.tag_map,
          b.kv, b.key_mask, b.tag_map,
          s.geometry_type, s.geometry, (s.flags & ${STAGING_FLAG.geometryValid}) <> 0,
          ${NAN_AS_NULL('s.xmin')}, ${NAN_AS_NULL('s.ymin')}, ${NAN_AS_NULL('s.xmax')}, ${NAN_AS_NULL('s.ymax')}, s.spatial_key,
          s.area, s.length, s.perimeter, s.vertices, s.outers, s.inners, s.roundness, ${NAN_AS_NULL('s.squareness')},
          (s.flags & ${STAGING_FLAG.collapsed}) <> 0, (s.flags & ${STAGING_FLAG.isCreation}) <> 0, (s.flags & ${STAGING_FLAG.isDeletion}) <> 0,
          (s.flags & ${STAGING_FLAG.tagChange}) <> 0, (s.flags & ${STAGING_FLAG.geometryChange}) <> 0, s.edits,
          (s.flags & ${STAGING_FLAG.everTagged}) <> 0,
          s.ext_xmin, s.ext_ymin, s.ext_xmax, s.ext_ymax, s.geometry_run
   FROM stage.staging s
   JOIN tag_sets a ON a.id = s.tag_set
   JOIN tag_sets b ON b.id = s.tag_set_before`;

/** The store's order of rows (by spatial key, then element and time): DuckDB's zone maps prune by area. */
const SPATIAL_ORDER = 's.spatial_key, s.type, s.id, s.valid_from, s.version, s.minor_version';

/**
 * The staged rows whose element's extent is not the whole world, in spatial order, by one INSERT
 * per range of spatial keys: `bounds` (ascending) cut the keys into `bounds.length + 1` ranges, and
 * each INSERT sorts only its range's rows, so the sort's memory follows the range, not the input
 * (sortPassCount). Appended one range after another, the rows are in the same order as by one sort.
 */
export function sortedStatesInserts(bounds: readonly number[]): string[] {
  const ranges = [-Infinity, ...bounds, Infinity];
  const inserts: string[] = [];
  for (let i = 0; i + 1 < ranges.length; i++) {
    const range = [...(i > 0 ? [`s.spatial_key >= ${ranges[i]}`] : []), ...(i + 2 < ranges.length ? [`s.spatial_key < ${ranges[i + 1]}`] : [])];
    inserts.push(`${STATES_INSERT}
   WHERE NOT (${wholeWorldExtentSql('s.')})${range.map((r) => ` AND ${r}`).join('')}
   ORDER BY ${SPATIAL_ORDER}`);
  }
  return inserts;
}

/**
 * How many sorted INSERTs the finish needs for `stagedBytes` (the staged rows' WKB plus
 * STAGED_ROW_BYTES per row), each taking at most `passBytes` of them. DuckDB's sort of the staged
 * rows needed about their size in memory (the four-country file, 310 MB of WKB and 1.1 M rows, ran
 * out at 380 MB and sorted at 572 MiB; synth-x8 ran out at 762 MiB): import-memory.ts gives a pass
 * half the finish's limit.
 */
export function sortPassCount(stagedBytes: number, passBytes: number): number {
  return Math.max(1, Math.ceil(stagedBytes / passBytes));
}

/** A staged row's bytes besides its WKB, about: its fixed columns, tag maps and sort keys (sortPassCount, the writer's appender flushes). */
export const STAGED_ROW_BYTES = 200;

/**
 * The spatial keys that cut the sorted rows into `passes` ranges of about equal row counts (one row,
 * a list). `approx_quantile` (a t-digest) keeps a few kB whatever the rows' number, where the exact
 * `quantile_disc` holds every key (360 MB at ×40).
 */
export function sortPassBoundsSql(passes: number): string {
  const fractions = Array.from({ length: passes - 1 }, (_, i) => (i + 1) / passes);
  return `SELECT list_sort(list_distinct(approx_quantile(spatial_key, [${fractions.join(', ')}]))) AS bounds
   FROM stage.staging s WHERE NOT (${wholeWorldExtentSql('s.')})`;
}

/**
 * The finish. `bounds`: the ranges of spatial keys the sorted rows are written in (sortedStatesInserts),
 * or null when one sort pass holds every staged row (sortPassCount gave one). `inMemory`: the rows
 * are staged in memory (store-writer-worker.ts), and every INSERT of states probes the tag sets' hash
 * tables with them. The optimizer otherwise builds on the side it estimates smaller: for the
 * whole-world rows (estimated at 2 of synth-x48's 53 M rows staged in memory, in fact 350,688 with
 * 2.9 GB of WKB) it built a hash table of those rows, WKB and all, and the ×48 import ran out of its
 * 1.4 GiB. Not for rows staged in a file: there the optimizer's own plans finished ×48 (session 23),
 * and the forced ones left 1.5 GB of free blocks in its store (5,948 against 4).
 */
export function finalizeStatements(bounds: readonly number[] | null = null, inMemory = false): string[] {
  return FINALIZE_STATEMENTS.flatMap((sql) => {
    if (sql !== STATES) return [sql];
    const states =
      bounds === null
        ? // One sort pass holds every staged row, the whole-world ones included (sortPassCount counts
          // their WKB): one INSERT sorts them all, those rows last and in spatial order too. Two
          // INSERTs scanned the staged rows and built the tag sets' hash tables twice (the
          // four-country finish 0.25 s longer), and left the whole-world rows in the join's order.
          [`${STATES_INSERT}\n   ORDER BY (${wholeWorldExtentSql('s.')}), ${SPATIAL_ORDER}`]
        : [
            ...sortedStatesInserts(bounds),
            // Last, the rows of the elements whose extent is the whole world, in no order the store promises
            // (the staged order when the plans are forced, else the hash join's; element-extent.ts: sorted
            // last with the last range, they ran the ×40 finish out of memory).
            `${STATES_INSERT}\n   WHERE ${wholeWorldExtentSql('s.')}`,
          ];
    return inMemory ? [`SET disabled_optimizers = 'join_order,build_side_probe_side'`, ...states, 'RESET disabled_optimizers'] : states;
  });
}

/** Where FINALIZE_STATEMENTS has the INSERTs of the states (finalizeStatements writes them). */
const STATES = '-- the states';

const FINALIZE_STATEMENTS: string[] = [
  `CREATE TABLE tag_keys AS
     SELECT (row_number() OVER (ORDER BY frequency DESC, key) - 1)::INTEGER AS id, key, frequency::BIGINT AS frequency, pid
     FROM keys_prov`,
  // Value ids per key, also ranked by frequency: the filter compiler tests the commonest values fastest.
  `CREATE TEMP TABLE values_ranked AS
     SELECT key_pid, vid, (row_number() OVER (PARTITION BY key_pid ORDER BY frequency DESC, value) - 1)::INTEGER AS value_id, value, frequency
     FROM values_prov`,
  `CREATE TABLE tag_values AS
     SELECT k.id AS key_id, v.value_id, v.value, v.frequency::BIGINT AS frequency
     FROM values_ranked v JOIN tag_keys k ON k.pid = v.key_pid ORDER BY 1, 2`,
  // Lookup lists indexed by provisional key id (1-based): final key id, key text, and the offset of
  // the key's values in one flat list of all values. Captured by the lambdas below (one row, cross joined).
  `CREATE TEMP TABLE lut AS SELECT
     coalesce((SELECT list(id ORDER BY pid) FROM tag_keys), []::INTEGER[]) AS key_id_of,
     coalesce((SELECT list(key ORDER BY pid) FROM keys_prov), []::VARCHAR[]) AS keys,
     coalesce((SELECT list(off ORDER BY key_pid) FROM (
        SELECT key_pid, (sum(n) OVER (ORDER BY key_pid) - n)::BIGINT AS off
        FROM (SELECT key_pid, count(*) AS n FROM values_prov GROUP BY key_pid))), []::BIGINT[]) AS value_offset,
     coalesce((SELECT list(value ORDER BY key_pid, vid) FROM values_prov), []::VARCHAR[]) AS vals,
     coalesce((SELECT list(value_id ORDER BY key_pid, vid) FROM values_ranked), []::INTEGER[]) AS value_id_of`,
  // Each distinct tag list once (stage.tag_sets, see TagSetBuilder): final ids, key mask and tag map.
  // Set 0 is the empty list, which the import does not stage.
  `CREATE TEMP TABLE tag_sets AS
   WITH p AS (
     SELECT id, ${AS_BIGINTS('kv')} AS kv FROM stage.tag_sets
     UNION ALL SELECT 0, []::BIGINT[]
   ), f AS (
     SELECT p.id, ${REMAP('p.kv')} AS kv, ${TAG_MAP('p.kv')} AS tag_map FROM p, lut
   )
   SELECT id, kv, ${KEY_MASK('kv')} AS key_mask, tag_map FROM f`,
  `CREATE TABLE states (${STATES_COLUMNS})`,
  // In spatial order, then (a last INSERT) the rows of the elements whose extent is the whole world.
  STATES,
  // relation_roles (id, role) is a temp table the writer thread filled from the role list of the main thread.
  `CREATE TABLE relation_members (${RELATION_MEMBERS_COLUMNS})`,
  // The staging rows already come in (relation, version, position) order: no sort; roles by list lookup.
  `INSERT INTO relation_members
   SELECT m.relation_id::BIGINT, m.version, m.pos, m.member_type, m.member_id::BIGINT, r.roles[m.role_id + 1]
   FROM stage.member_staging m, (SELECT coalesce(list(role ORDER BY id), []::VARCHAR[]) AS roles FROM relation_roles) r`,
  `DROP TABLE relation_roles`,
  `CREATE TABLE way_nodes (${WAY_NODES_COLUMNS})`,
  // Staged in (way, version, position) order, as the builder reads the versions: no sort.
  `INSERT INTO way_nodes SELECT way_id::BIGINT, version, pos, node_id::BIGINT FROM stage.way_node_staging`,
  `CREATE TABLE current_parents (${CURRENT_PARENTS_COLUMNS})`,
  // The current version of a way or relation is the version of its open-ended state; a deletion has no members.
  `INSERT INTO current_parents
   WITH cur AS (SELECT type, id, version FROM states WHERE valid_to = ${OPEN_END} AND NOT deleted AND type > 0)
   SELECT DISTINCT * FROM (
     SELECT 0::UTINYINT, w.node_id, 1::UTINYINT, w.way_id, w.version
     FROM way_nodes w JOIN cur c ON c.type = 1 AND c.id = w.way_id AND c.version = w.version
     UNION ALL
     SELECT m.member_type, m.member_id, 2::UTINYINT, m.relation_id, m.version
     FROM relation_members m JOIN cur c ON c.type = 2 AND c.id = m.relation_id AND c.version = m.version)
   ORDER BY 1, 2, 3, 4`,
  `CREATE TABLE changesets (${CHANGESETS_COLUMNS})`,
  `DROP TABLE stage.member_staging`,
  `DROP TABLE stage.way_node_staging`,
  `DROP TABLE stage.staging`,
  `DROP TABLE stage.tag_sets`,
  `DROP TABLE tag_sets`,
  `DETACH stage`,
  `ALTER TABLE tag_keys DROP COLUMN pid`,
  CONTRIBUTIONS_VIEW_SQL(),
];

/** The stable, user-facing view (docs/store.md). */
export function CONTRIBUTIONS_VIEW_SQL(): string {
  return `CREATE OR REPLACE VIEW contributions AS
  SELECT
    CASE type WHEN 0 THEN 'node' WHEN 1 THEN 'way' ELSE 'relation' END AS type,
    id, version, minor_version,
    make_timestamp(valid_from * 1000000) AS valid_from,
    CASE WHEN valid_to = ${OPEN_END} THEN NULL ELSE make_timestamp(valid_to * 1000000) END AS valid_to,
    deleted, changeset, user_id, tags, tags_before,
    CASE geometry_type WHEN 1 THEN 'Point' WHEN 2 THEN 'LineString' WHEN 3 THEN 'Polygon' WHEN 4 THEN 'MultiPoint'
      WHEN 5 THEN 'MultiLineString' WHEN 6 THEN 'MultiPolygon' WHEN 7 THEN 'GeometryCollection' END AS geometry_type,
    geometry, geometry_valid, xmin, ymin, xmax, ymax,
    area, length, perimeter, vertices, outers, inners, roundness, squareness,
    is_creation, is_deletion, tag_change, geometry_change, collapsed, ever_tagged,
    coalesce(cs_tags, CAST(MAP {} AS MAP(VARCHAR, VARCHAR))) AS changeset_tags
  FROM states LEFT JOIN (SELECT id AS cs_id, tags AS cs_tags FROM changesets) ON cs_id = changeset`;
}
