/**
 * The version 1 aggregation statements in ClickHouse SQL (pure: text only, no I/O): the same rows,
 * columns and meaning as the DuckDB statements (src/engines/duckdb/sql/aggregation.ts, whose
 * comments describe them), written to what both ClickHouse 18.16 and current servers accept. What
 * differs, and why:
 *
 * - no common table expressions (18.16 has only `WITH <expr> AS name`): the area's and the time
 *   buckets' constant lists are named in the WITH of the SELECT that reads them (SqlFlavor), and a
 *   row set used twice is written twice;
 * - no window functions (18.16): an element's previous kept state is the loader's `p_rid`
 *   (schema.ts), its facts (matches, hit, interior) joined from the same shard by that id, and the
 *   geometry run is the loader's `run`; `latest` numbers an element's rows by sorting them in an
 *   array (`groupArray` … `ARRAY JOIN`);
 * - the scan reads `tables.entry` (the Distributed table on a cluster) and every subquery that
 *   relates a state to its element's other states reads `tables.local` (the shard's own table: an
 *   element's states are all on one shard, so `IN` and `JOIN` stay local to each shard);
 * - booleans are 0/1 (UInt8), and a join's missing right side is 0, not NULL: `has_p` (the loader's
 *   `p_rid` is -1 for an element's first state) says whether a state has a previous one;
 * - every result column is cast to the type its reader declares (RowBinary, `ChStatement`).
 */
import type { Measure } from '../../../query/model.js';
import type { SqlAreaPlan } from '../../sql/area.js';
import type { ContributionAggregateRow, ContributionListRow, GeometryByRowidRow, SnapshotRow } from '../../sql/aggregation-rows.js';
import { CLICKHOUSE_FLAVOR } from '../../sql/flavor.js';
import { UNBOUNDED_CLASS } from '../../sql/spatial-key.js';
import type { RowGeometry } from '../../sql/stats-rows.js';
import { countBelowWithSql } from '../../sql/time.js';
import type { ChReadType } from '../row-binary.js';
import { chStatement, type ChStatement } from './statement.js';

/** The tables a statement reads: the scan's (a cluster's Distributed table), and each shard's own. */
export interface ChTables {
  entry: string;
  local: string;
}

const MEASURE_COLUMN: Record<Measure, string> = { count: '1', length: 'length', area: 'area', perimeter: 'perimeter' };

function rowids(list: readonly number[]): string {
  for (const r of list) if (!Number.isSafeInteger(r) || r < 0) throw new RangeError(`not a rowid: ${r}`);
  return list.length === 0 ? '-1' : list.join(', ');
}

function withClause(...items: string[]): string {
  const present = items.filter((x) => x !== '');
  return present.length > 0 ? `WITH ${present.join(', ')}\n` : '';
}

/**
 * SQL: the states of these rids, which a query places by their history's bbox (`placedRowids`):
 * their elements are in the class no key range bounds (the loader's rule, spatial-key.ts), which
 * the index reads alone, where `rid IN` alone would have it read every granule.
 */
function placedSql(list: readonly number[]): string {
  return `(extent_class = ${UNBOUNDED_CLASS} AND rid IN (${rowids(list)}))`;
}

/** SQL: a state live at some time between the first and the last timestamp (ascending). */
function liveSql(ts: readonly number[]): string {
  return `NOT deleted AND valid_from <= ${ts[ts.length - 1]} AND valid_to > ${ts[0]}`;
}

/** Snapshots in one scan (DuckDB's `snapshotSql`). */
export function snapshotSql(
  t: ChTables,
  p: { area: SqlAreaPlan; timestamps: readonly number[]; filterSql: string; codeSql: string; measure: Measure },
): ChStatement<SnapshotRow> {
  const ts = p.timestamps;
  const f = countBelowWithSql('valid_from', ts, 'ts_from', CLICKHOUSE_FLAVOR);
  const e = countBelowWithSql('valid_to', ts, 'ts_to', CLICKHOUSE_FLAVOR);
  const placed = p.area.placedRowids ?? [];
  // materialize(): a constant column (the code of `groupBy none`, the placed branch's interior)
  // coming back from a shard as a column fails 18.16's UNION ALL over a Distributed table.
  const branch = (
    where: string,
    interior: string,
  ) => `${withClause(p.area.withSql, f.withSql, e.withSql)}  SELECT ${f.sql} AS f0, ${e.sql} AS e0, materialize(${p.codeSql}) AS g0,
         materialize(${interior}) AS inside, if(inside, -1, rid) AS b0, materialize(if(inside, ${MEASURE_COLUMN[p.measure]}, 0)) AS v0
  FROM ${t.entry}
  WHERE ${where}`;
  const branches = [branch(`${liveSql(ts)} AND ${p.area.intersectsSql} AND ${p.filterSql}`, `coalesce(${p.area.interiorWithSql}, 0)`)];
  if (placed.length > 0) branches.push(branch(`${placedSql(placed)} AND ${liveSql(ts)} AND ${p.filterSql}`, '1'));
  return chStatement(
    `SELECT toInt32(f0) AS f, toInt32(e0) AS e, toFloat64(g0) AS g, toFloat64(sum(v0)) AS v, toFloat64(count()) AS n, toFloat64(b0) AS b
FROM (
${branches.join('\n  UNION ALL\n')}
)
WHERE f0 < e0
GROUP BY f0, e0, g0, b0`,
    { f: 'Int32', e: 'Int32', g: 'Float64', v: 'Float64', n: 'Float64', b: 'Float64' },
  );
}

/**
 * The geometries of the given states (DuckDB's `geometriesByRowidSql`): each distinct geometry once,
 * `gid` its smallest rid. The rids are a PREWHERE, which reads the geometries of the matching rows
 * only: 18.16 does not move the condition there by itself and read every geometry of the granules
 * the key test left (the border polygon at ×1: 310 MB and 0.31 s against 3 MB and 0.011 s).
 */
export function geometriesByRidSql(
  t: ChTables,
  rids: readonly number[],
  intersectsSql = '1',
): ChStatement<{ gid: number; rs: number[]; geometry: Uint8Array }> {
  return chStatement(
    `SELECT gid0 AS gid, rs0 AS rs, g0 AS geometry FROM (
  SELECT toFloat64(min(rid)) AS gid0, groupArray(toFloat64(rid)) AS rs0, any(assumeNotNull(geometry)) AS g0
  FROM ${t.entry}
  PREWHERE rid IN (${rowids(rids)})
  WHERE ${intersectsSql} AND geometry IS NOT NULL
  GROUP BY geometry
)`,
    { gid: 'Float64', rs: 'Array(Float64)', geometry: 'Bytes' },
  );
}

/** The rows of `geometriesByRidSql` as the DuckDB statement's: (rid, gid, NULL) per state, (NULL, gid, wkb) per geometry. */
export function geometryRows(rows: readonly { gid: number; rs: number[]; geometry: Uint8Array }[]): GeometryByRowidRow[] {
  const out: GeometryByRowidRow[] = [];
  for (const { gid, rs, geometry } of rows) {
    out.push({ r: null, gid, geometry });
    for (const r of rs) out.push({ r, gid, geometry: null });
  }
  return out;
}

/**
 * The geometries of states by rid (DuckDB's `boundaryGeometriesSql`; the rids a PREWHERE, as in
 * `geometriesByRidSql`); `keySql` a test on the sort key that they pass (the area's
 * `elementKeySql`), without which every granule is read for its rid.
 */
export function boundaryGeometriesSql(t: ChTables, rids: readonly number[], keySql?: string): ChStatement<RowGeometry> {
  return chStatement(`SELECT toFloat64(rid) AS r, geometry FROM ${t.entry} PREWHERE rid IN (${rowids(rids)})${keySql ? ` WHERE ${keySql}` : ''}`, {
    r: 'Float64',
    geometry: 'Nullable(Bytes)',
  });
}

/** The states without geometry (the loader's `empty_states`), as the DuckDB query's rows in order. */
export function emptyStatesSql(database: string): ChStatement<Record<string, unknown>> {
  return chStatement<Record<string, unknown>>(
    `SELECT toFloat64(rowid) AS rowid, toInt32(type) AS type, toFloat64(id) AS id, version, members, x0, y0, x1, y1, toFloat64(changeset) AS changeset,
       k, v, kb, vb, toInt32(geometry_type) AS geometry_type, area, length, perimeter, vertices, outers, inners, roundness, squareness
FROM ${database}.empty_states ORDER BY rowid`,
    {
      rowid: 'Float64',
      type: 'Int32',
      id: 'Float64',
      version: 'Int32',
      members: 'Bool',
      x0: 'Float64',
      y0: 'Float64',
      x1: 'Float64',
      y1: 'Float64',
      changeset: 'Float64',
      k: 'Array(String)',
      v: 'Array(String)',
      kb: 'Array(String)',
      vb: 'Array(String)',
      geometry_type: 'Int32',
      area: 'Nullable(Float64)',
      length: 'Nullable(Float64)',
      perimeter: 'Nullable(Float64)',
      vertices: 'Nullable(Float64)',
      outers: 'Nullable(Float64)',
      inners: 'Nullable(Float64)',
      roundness: 'Nullable(Float64)',
      squareness: 'Nullable(Float64)',
    },
  );
}

/**
 * The contribution candidates (DuckDB's `contributionCandidatesSql` up to `c`), as a subquery:
 * the kept states in [t_0, t_last) of the elements with a kept state before t_last whose bbox
 * meets the area, each with m (matches the filter), hit (bbox meets the area), interior, new_run,
 * run, and its previous kept state's facts joined by the loader's `p_rid` (`has_p`, `p_deleted`,
 * `p_m`, `p_hit`, `p_interior`: 0 without one), then `ci` and `pi` (in now / before by the SQL
 * facts). `extra` are more columns of the state (`g`, `gb`, tags), `prevColumns` columns of the
 * previous state carried as `p_<column>` (NULL, or a default, without one), `batchSql` a condition
 * on the element (an extraction's id batch). The area's tests and the filter are on unqualified
 * columns. Both reads of timelines take the area's element key test (`SqlAreaPlan.elementKeySql`),
 * so that on 18.16 the primary index skips the elements far from the area, as a snapshot's read
 * does. Also the candidates of a contributions extraction (extraction.ts).
 */
export function candidatesSql(
  t: ChTables,
  p: {
    area: SqlAreaPlan;
    timestamps: readonly number[];
    filterSql: string;
    extra: readonly string[];
    extraWith?: string;
    prevColumns?: readonly string[];
    batchSql?: string;
  },
): string {
  const ts = p.timestamps;
  const t0 = ts[0];
  const t1 = ts[ts.length - 1];
  const placed = p.area.placedRowids ?? [];
  const placedTest = placed.length > 0 ? placedSql(placed) : '';
  const batch = p.batchSql === undefined ? '' : ` AND ${p.batchSql}`;
  // Only an element with a kept state "in" by the SQL facts (not deleted, matching, meeting the
  // area) before t1 can give a row that is or was in (the DuckDB engine's `e`, issue 21).
  const elements = `(type, id) IN (SELECT type, id FROM ${t.local} WHERE NOT collapsed AND NOT deleted AND valid_from < ${t1}${batch} AND coalesce(${p.filterSql}, 0) AND (${p.area.intersectsSql}${
    placedTest ? ` OR ${placedTest}` : ''
  }))`;
  // Every state of such an element: its extent's key is in the area's ranges (spatial-key.ts; a
  // placed row's element is in the last class, read whole).
  const elementKey = p.area.elementKeySql === undefined ? '' : ` AND ${p.area.elementKeySql}`;
  const prevColumns = p.prevColumns ?? [];
  // A fact of the area's test, true also for the placed rows.
  const orPlaced = (test: string) => (placedTest ? `(coalesce(${test}, 0) OR ${placedTest})` : `coalesce(${test}, 0)`);
  const hit = orPlaced(p.area.intersectsRowSql);
  const interior = orPlaced(p.area.interiorWithSql);
  const facts = `coalesce(${p.filterSql}, 0) AS m, ${hit} AS hit, ${interior} AS interior`;
  // The join is in the query that reads the entry table itself: on a cluster the query goes to
  // every shard as it is, and the joined subquery reads the shard's own states (its elements' whole
  // timelines). Over a subquery of the Distributed table it would join on the entry node against
  // that node's states alone.
  return `(
  SELECT *, (NOT deleted AND m AND hit) AS ci, (has_p AND NOT p_deleted AND p_m AND p_hit) AS pi
  FROM (
    ${withClause(p.area.withSql, p.extraWith ?? '')}SELECT rid, type, id, valid_from, version, minor_version, user_id, deleted, tag_change, geometry_change,
           (deleted OR is_creation OR geometry_change) AS new_run, run, p_rid, p_rid >= 0 AS has_p,
           ${facts}${p.extra.map((x) => `, ${x}`).join('')}, p_deleted, p_m, p_hit, p_interior${prevColumns.map((c) => `, p_${c}`).join('')}
    FROM ${t.entry}
    ANY LEFT JOIN (
      ${withClause(p.area.withSql)}SELECT rid AS p_rid, deleted AS p_deleted, coalesce(${p.filterSql}, 0) AS p_m, ${hit} AS p_hit, ${interior} AS p_interior${prevColumns
        .map((c) => `, ${c} AS p_${c}`)
        .join('')}
      FROM ${t.local}
      WHERE NOT collapsed AND valid_from < ${t1}${batch}${elementKey} AND ${elements}
    ) AS prev USING p_rid
    WHERE NOT collapsed AND valid_from >= ${t0} AND valid_from < ${t1}${batch}${elementKey} AND ${elements}
  )
)`;
}

/** As DuckDB's NEEDS_NO_GEOMETRY: both sides interior and no geometry change. */
const NEEDS_NO_GEOMETRY = '(interior AND (NOT has_p OR p_interior) AND NOT geometry_change)';

/** The previous side's fact (or geometry) as NULL when there is none. */
export const previous = (col: string) => `if(has_p, ${col}, NULL)`;

/**
 * The facts of a contribution candidate and of its previous kept state, and how each is read: the
 * first columns of the list and of the contributions extraction (extraction.ts), in this order.
 */
export const CONTRIBUTION_FACT_TYPES = {
  type: 'Int32',
  id: 'Float64',
  valid_from: 'Float64',
  user_id: 'Float64',
  deleted: 'Bool',
  m: 'Bool',
  hit: 'Bool',
  interior: 'Bool',
  p_deleted: 'Nullable(Bool)',
  p_m: 'Nullable(Bool)',
  p_hit: 'Nullable(Bool)',
  p_interior: 'Nullable(Bool)',
  tag_change: 'Bool',
  geometry_change: 'Bool',
  tags: 'Array(Float64)',
  tags_before: 'Array(Float64)',
} as const satisfies Record<string, ChReadType>;

const LIST_TYPES = {
  ...CONTRIBUTION_FACT_TYPES,
  g_rid: 'Nullable(Float64)',
  p_rid: 'Nullable(Float64)',
  run: 'Float64',
  p_run: 'Float64',
} as const satisfies Record<keyof ContributionListRow, ChReadType>;

/**
 * Contributions as a list, in (type, id, time) order (DuckDB's `contributionListSql`). The inner
 * columns carry a suffix: ClickHouse resolves a name to an alias of the same query first, so
 * `… p_rid … AS p_rid` would refer to itself.
 */
export function contributionListSql(t: ChTables, p: { area: SqlAreaPlan; timestamps: readonly number[]; filterSql: string }): ChStatement<ContributionListRow> {
  return chStatement(
    `SELECT ${Object.keys(LIST_TYPES)
      .map((c) => `${c}1 AS ${c}`)
      .join(', ')}
FROM (
  SELECT toInt32(type) AS type1, toFloat64(id) AS id1, toFloat64(valid_from) AS valid_from1, toFloat64(user_id) AS user_id1,
         deleted AS deleted1, m AS m1, hit AS hit1, interior AS interior1, ${previous('p_deleted')} AS p_deleted1, ${previous('p_m')} AS p_m1,
         ${previous('p_hit')} AS p_hit1, ${previous('p_interior')} AS p_interior1, tag_change AS tag_change1, geometry_change AS geometry_change1,
         arrayMap(x -> toFloat64(x), tag_kv) AS tags1, arrayMap(x -> toFloat64(x), tag_kv_before) AS tags_before1,
         if(NOT ci OR ${NEEDS_NO_GEOMETRY}, NULL, toFloat64(rid)) AS g_rid1,
         if(NOT pi OR ${NEEDS_NO_GEOMETRY}, NULL, toFloat64(p_rid)) AS p_rid1,
         toFloat64(run) AS run1, toFloat64(run - new_run) AS p_run1, version AS version1, minor_version AS minor_version1
  FROM ${candidatesSql(t, { ...p, extra: ['tag_kv', 'tag_kv_before'] })}
  WHERE ci OR pi
)
ORDER BY type1, id1, valid_from1, version1, minor_version1`,
    LIST_TYPES,
  );
}

/** Contribution types as SQL over the sure rows' flags (`ci`, `pi`, `tag_change`, each named with `suffix`), or null for "every type" (as DuckDB's). */
function passesTypesSql(types: readonly string[] | undefined, suffix: string): string | null {
  if (types === undefined) return null;
  const [ci, pi, tc] = ['ci', 'pi', 'tag_change'].map((c) => c + suffix);
  const parts = types.map((x) =>
    x === 'creation' ? `(${ci} AND NOT ${pi})` : x === 'deletion' ? `(${pi} AND NOT ${ci})` : x === 'tagChange' ? `(${ci} AND ${pi} AND ${tc})` : '0',
  );
  return parts.length === 0 ? '0' : `(${parts.join(' OR ')})`;
}

/** The columns a candidate row carries into the aggregation (and, for `latest`, through its element's array; time is 4, 5, 6). */
const CARRIED = [
  'rid',
  'type',
  'id',
  'valid_from',
  'version',
  'minor_version',
  'user_id',
  'deleted',
  'm',
  'hit',
  'interior',
  'has_p',
  'p_deleted',
  'p_m',
  'p_hit',
  'p_interior',
  'tag_change',
  'geometry_change',
  'new_run',
  'run',
  'p_rid',
  'ci',
  'pi',
  'g',
  'gb',
  'k',
  'sure',
] as const;

/**
 * Contributions aggregated (DuckDB's `contributionAggregateSql`, whose comment describes the rows).
 * `latest`: an element's candidate rows are gathered in an array sorted by time, `ord` is a row's
 * place in it, and the rows before the last sure one are dropped. Single rows that classify alike
 * are counted together, as in DuckDB's `singleGroups`: the facts and the geometry runs of the sides
 * whose geometries are read are group keys (run, p_run NULL when the side's is not read), b, g_rid
 * and p_rid the group's smallest rowids, `ord` its last row's (latest).
 */
export function contributionAggregateSql(
  t: ChTables,
  p: {
    area: SqlAreaPlan;
    timestamps: readonly number[];
    filterSql: string;
    codeSql: string;
    codeBeforeSql: string;
    users: boolean;
    contributionTypes: readonly string[] | undefined;
    latest?: boolean;
  },
): ChStatement<ContributionAggregateRow> {
  const ts = p.timestamps;
  const exact = p.contributionTypes !== undefined;
  const sure = `(NOT ci OR interior) AND (NOT pi OR p_interior)${exact ? ' AND NOT (ci AND pi AND geometry_change)' : ''}`;
  const bin = countBelowWithSql('(valid_from + 1)', ts, 'bin_edges', CLICKHOUSE_FLAVOR);
  const d0 = `(
  SELECT *, coalesce(${sure}, 0) AS sure
  FROM ${candidatesSql(t, { ...p, extraWith: bin.withSql, extra: [`materialize(${p.codeSql}) AS g`, `materialize(${p.codeBeforeSql}) AS gb`, `${bin.sql} - 1 AS k`] })}
  WHERE ci OR pi
)`;
  // In `d` every column is named with a 0 suffix, and in the next level with 1: an output column
  // never meets an alias of its own name. `ord` numbers an element's rows in time (latest only),
  // `last` says that its last sure row is its last row (always 1 but for latest).
  const d = p.latest
    ? `(
  SELECT ${CARRIED.map((c, i) => `tupleElement(x, ${i + 1}) AS ${c}0`).join(', ')}, ord, last_sure = last_ord AS last
  FROM (
    SELECT xs, arrayReduce('max', arrayMap((x, i) -> if(tupleElement(x, ${CARRIED.indexOf('sure') + 1}), i, 0), xs, arrayEnumerate(xs))) AS last_sure, length(xs) AS last_ord
    FROM (
      SELECT arraySort(x -> (tupleElement(x, 4), tupleElement(x, 5), tupleElement(x, 6)), groupArray(tuple(${CARRIED.join(', ')}))) AS xs
      FROM ${d0}
      GROUP BY type, id
    )
  )
  ARRAY JOIN xs AS x, arrayEnumerate(xs) AS ord
  WHERE ord >= last_sure
)`
    : `(SELECT ${CARRIED.map((c) => `${c} AS ${c}0`).join(', ')}, CAST(NULL AS Nullable(UInt64)) AS ord, 1 AS last FROM ${d0})`;
  const isSure = '(sure0 AND last)';
  const single = (col: string) => `if(${isSure}, NULL, ${col})`;
  const noGeometry = '(interior0 AND (NOT has_p0 OR p_interior0) AND NOT geometry_change0)';
  return chStatement(
    `SELECT toInt32(k1) AS k, toFloat64(g1) AS g, toFloat64(gb1) AS gb, toInt32(kind1) AS kind,
       ${p.users ? 'toNullable(toFloat64(user1))' : 'CAST(NULL AS Nullable(Float64))'} AS user_id, toFloat64(count()) AS n, toFloat64(min(b1)) AS b,
       toNullable(toFloat64(type1)) AS type, toNullable(toFloat64(id1)) AS id, toNullable(toFloat64(min(valid_from1))) AS valid_from,
       deleted1 AS deleted, m1 AS m, hit1 AS hit, interior1 AS interior,
       p_deleted1 AS p_deleted, p_m1 AS p_m, p_hit1 AS p_hit, p_interior1 AS p_interior,
       tag_change1 AS tag_change, geometry_change1 AS geometry_change,
       toNullable(toFloat64(min(g_rid1))) AS g_rid, toNullable(toFloat64(min(p_rid1))) AS p_rid,
       toNullable(toFloat64(run1)) AS run, toNullable(toFloat64(p_run1)) AS p_run, toNullable(toFloat64(max(ord1))) AS ord
FROM (
  SELECT k0 AS k1, g0 AS g1, gb0 AS gb1, multiIf(ci0 AND NOT pi0, 0, pi0 AND NOT ci0, 1, 2) AS kind1, ${p.users ? 'user_id0' : '0'} AS user1,
         if(${isSure}, -1, rid0) AS b1, ${isSure} AS sure1,
         ${single('type0')} AS type1, ${single('id0')} AS id1, ${single('valid_from0')} AS valid_from1, ${single('deleted0')} AS deleted1,
         ${single('m0')} AS m1, ${single('hit0')} AS hit1, ${single('interior0')} AS interior1,
         ${single('if(has_p0, p_deleted0, NULL)')} AS p_deleted1, ${single('if(has_p0, p_m0, NULL)')} AS p_m1,
         ${single('if(has_p0, p_hit0, NULL)')} AS p_hit1, ${single('if(has_p0, p_interior0, NULL)')} AS p_interior1,
         ${single('tag_change0')} AS tag_change1, ${single('geometry_change0')} AS geometry_change1,
         if(${isSure} OR NOT ci0 OR ${noGeometry}, NULL, rid0) AS g_rid1,
         if(${isSure} OR NOT pi0 OR ${noGeometry}, NULL, p_rid0) AS p_rid1,
         if(${isSure} OR NOT ci0 OR ${noGeometry}, NULL, run0) AS run1,
         if(${isSure} OR NOT pi0 OR ${noGeometry}, NULL, run0 - new_run0) AS p_run1, ${single('ord')} AS ord1
  FROM ${d}
  WHERE NOT ${isSure} OR ${passesTypesSql(p.contributionTypes, '0') ?? '1'}
)
GROUP BY k1, g1, gb1, kind1, user1, sure1, type1, id1, deleted1, m1, hit1, interior1, p_deleted1, p_m1, p_hit1, p_interior1,
         tag_change1, geometry_change1, run1, p_run1`,
    {
      k: 'Int32',
      g: 'Float64',
      gb: 'Float64',
      kind: 'Int32',
      user_id: 'Nullable(Float64)',
      n: 'Float64',
      b: 'Float64',
      type: 'Nullable(Float64)',
      id: 'Nullable(Float64)',
      valid_from: 'Nullable(Float64)',
      deleted: 'Nullable(Bool)',
      m: 'Nullable(Bool)',
      hit: 'Nullable(Bool)',
      interior: 'Nullable(Bool)',
      p_deleted: 'Nullable(Bool)',
      p_m: 'Nullable(Bool)',
      p_hit: 'Nullable(Bool)',
      p_interior: 'Nullable(Bool)',
      tag_change: 'Nullable(Bool)',
      geometry_change: 'Nullable(Bool)',
      g_rid: 'Nullable(Float64)',
      p_rid: 'Nullable(Float64)',
      run: 'Nullable(Float64)',
      p_run: 'Nullable(Float64)',
      ord: 'Nullable(Float64)',
    },
  );
}
