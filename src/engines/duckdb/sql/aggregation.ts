/**
 * The SQL shapes in DuckDB's SQL (pure: text only, no I/O); their rows and parameters, the same on
 * every database, are src/engines/sql/aggregation-rows.ts. Every literal is a validated number: filter SQL comes
 * from compileSql (dictionary ids), areas and timestamps from sqlDouble / integers.
 */
import { bboxIntersectsSql, sqlDouble, type SqlAreaPlan } from '../../sql/area.js';
import type { Measure } from '../../../query/model.js';
import { statement, type Statement } from '../../sql/statement.js';
import { countBelowWithSql } from '../../sql/time.js';
import type {
  ContributionAggregateParams,
  ContributionAggregateRow,
  ContributionListParams,
  ContributionListRow,
  GeometryByRowidRow,
  SnapshotBoxesParams,
  SnapshotBoxRow,
  SnapshotParams,
  SnapshotRow,
} from '../../sql/aggregation-rows.js';

export const MEASURE_COLUMN: Record<Measure, string> = { count: '1', length: 'length', area: 'area', perimeter: 'perimeter' };

/** The names of the CTEs holding the rowids placed by their history's bbox and their rows (`placedRows`). */
const PLACED_IDS_CTE = 'placed_ids';
const PLACED_CTE = 'placed_rows';

/**
 * The rows placed by their history's bbox (`SqlAreaPlan.placedRowids`, ascending) as one SQL
 * constant, a BIGINT[] (null when there are none). The rowids are one string split at run time,
 * not a literal list or `IN (…)`: DuckDB binds and rewrites every element of those one by one.
 * Contributions/count over the benchmark's box (184 placed rows, tested three times) spent 12.6 ms
 * preparing its statement, 8.4 ms this way; 10,000 rowids take 35 ms to prepare as a list literal,
 * 41 ms as `IN (…)` and 4 ms split.
 */
function placedListSql(area: SqlAreaPlan): string | null {
  const rowids = area.placedRowids ?? [];
  if (rowids.length === 0) return null;
  for (const r of rowids) if (!Number.isSafeInteger(r) || r < 0) throw new RangeError(`not a rowid: ${r}`);
  return `string_split('${rowids.join(',')}', ',')::BIGINT[]`;
}

/**
 * The placed rows for a statement that reads them as a branch of its own (`UNION ALL`; an OR in
 * the scan's predicate would keep DuckDB from pruning row groups by the bbox columns' zone maps),
 * or null: a CTE `placed_ids` of their rowids and a CTE `placed_rows` of those `states` rows (all
 * columns, and `rid` their rowid). The CTE is MATERIALIZED and tests the rowid alone: DuckDB then
 * reads only the row groups of the rowid range (the store puts rows without bbox first); with the
 * statement's other conditions pushed into the same scan it reads every row group (4-country
 * store: about 2 ms against 10).
 */
function placedRows(area: SqlAreaPlan): string | null {
  const list = placedListSql(area);
  if (list === null) return null;
  const rowids = area.placedRowids!;
  return `${PLACED_IDS_CTE} AS (SELECT unnest(${list}) AS rid),
${PLACED_CTE} AS MATERIALIZED (SELECT *, rowid AS rid FROM states WHERE rowid BETWEEN ${rowids[0]} AND ${rowids[rowids.length - 1]} AND rowid IN (SELECT rid FROM ${PLACED_IDS_CTE}))`;
}

/**
 * SQL: `condition`, or the row of `alias` (with `xmin` and `rid`) is one of the placed rows `list`
 * (`placedListSql`; null: none, `condition` as it is). Placed
 * rows have no bbox, so only the rows without one look into the list (a `CASE`, which DuckDB
 * evaluates per branch on its own rows): the same test as `rid IN (SELECT …)`, which DuckDB plans
 * as a mark join probed by every row (issue 21: contributions/count over the benchmark's box 33.5 →
 * 32.0 ms, its two mark joins gone).
 */
function orPlacedSql(list: string | null, condition: string, alias: string): string {
  return list === null ? condition : `(CASE WHEN ${alias}.xmin IS NULL THEN ${condition} OR list_contains((${list}), ${alias}.rid) ELSE ${condition} END)`;
}

const SNAPSHOT_COLUMNS = ['f', 'e', 'g', 'v', 'n', 'b'] as const satisfies readonly (keyof SnapshotRow)[];

/**
 * Snapshots in one scan. Per matching state: first = #{t < valid_from}, end = #{t < valid_to}
 * (it counts at the timestamps [first, end)), its group code, and whether it is interior. Interior
 * rows are summed per (first, end, code) with the precomputed measure (b = -1); boundary rows keep
 * their own group (b = rowid), and their geometries are fetched afterwards by rowid
 * (`geometriesByRowidSql`) for exact clipping: reading the geometry column in the scan itself
 * costs even when no row needs it.
 *
 *   SELECT first, end, code, sum(value), count(*), b
 *   FROM (SELECT …, CASE WHEN interior THEN -1 ELSE rowid END AS b FROM states
 *         WHERE NOT deleted AND valid_from <= t_last AND valid_to > t_0 AND <bbox meets area> AND <filter>)
 *   GROUP BY first, end, code, b
 *
 * A state alive between two timestamps but at none (first = end) comes too and the engine skips it:
 * DuckDB pushes a `first < end` test into the scan's filter, ahead of the filter's selective tests,
 * and computes both buckets for every state there (issue 21: v2 features/count monthly 13.9 → 9.4 ms
 * without it, src/engines/sql/aggregation-rows.ts).
 *
 * Rows placed by their history's bbox (`SqlAreaPlan.placedRowids`) join the inner scan as a
 * `UNION ALL` branch of their own, interior.
 */
/** SQL: a state live at some time between the first and the last timestamp (ascending). */
function liveSql(ts: readonly number[]): string {
  return `NOT deleted AND valid_from <= ${ts[ts.length - 1]} AND valid_to > ${ts[0]}`;
}

export function snapshotSql(p: SnapshotParams): Statement<SnapshotRow> {
  const ts = p.timestamps;
  const f = countBelowWithSql('valid_from', ts, 'ts_from');
  const e = countBelowWithSql('valid_to', ts, 'ts_to');
  const placed = placedRows(p.area);
  const ctes = [p.area.withSql, f.withSql, e.withSql, placed ?? ''].filter((x) => x !== '');
  return statement(
    `${
      ctes.length > 0
        ? `WITH ${ctes.join(',\n')}
`
        : ''
    }SELECT f::INTEGER AS f, e::INTEGER AS e, g::DOUBLE AS g, sum(v)::DOUBLE AS v, count(*)::DOUBLE AS n, b::DOUBLE AS b
FROM (
  SELECT ${f.sql} AS f, ${e.sql} AS e, ${p.codeSql} AS g,
         CASE WHEN interior THEN -1 ELSE rid END AS b,
         CASE WHEN interior THEN ${MEASURE_COLUMN[p.measure]} ELSE 0 END AS v
  FROM (
    SELECT *, rowid AS rid, coalesce(${p.area.interiorWithSql}, FALSE) AS interior FROM states
    WHERE ${liveSql(ts)} AND ${p.area.intersectsSql} AND ${p.filterSql}${
      placed
        ? `
    UNION ALL
    SELECT *, TRUE AS interior FROM ${PLACED_CTE}
    WHERE ${liveSql(ts)} AND ${p.filterSql}`
        : ''
    }
  )
)
GROUP BY f, e, g, b`,
    SNAPSHOT_COLUMNS,
  );
}

/**
 * Snapshots over many boxes in one scan (issue 21: `groupBy/boundary` with thousands of boxes ran
 * one scan per box). The boxes are a table joined to the matching states by bbox overlap (DuckDB
 * plans the four inequalities as an inequality join, not a nested loop); a state is interior to
 * the box that contains its bbox, so each row is the `snapshotSql` row of one box, `a` its index.
 * The rows placed by their history's bbox come per box from `placed` (box index, rowid). Only for
 * areas that are their bbox (no grid, not the whole world): a polygon's interior test is its own
 * grid, which does not fit one join.
 */
export function snapshotBoxesSql(p: SnapshotBoxesParams): Statement<SnapshotBoxRow> {
  const ts = p.timestamps;
  const f = countBelowWithSql('valid_from', ts, 'ts_from');
  const e = countBelowWithSql('valid_to', ts, 'ts_to');
  const boxes = p.boxes.map((b, i) => `(${i}, ${b.map(sqlDouble).join(', ')})`).join(',\n    ');
  const ctes = [f.withSql, e.withSql, `boxes(a, x0, y0, x1, y1) AS (VALUES ${boxes})`].filter((x) => x !== '');
  for (const [a, rid] of p.placed)
    if (!Number.isSafeInteger(a) || !Number.isSafeInteger(rid) || rid < 0) throw new RangeError(`not a placed row: ${a}, ${rid}`);
  if (p.placed.length > 0) ctes.push(`placed(a, rid) AS (VALUES ${p.placed.map(([a, rid]) => `(${a}, ${rid})`).join(', ')})`);
  const live = liveSql(ts);
  const measure = MEASURE_COLUMN[p.measure];
  return statement(
    `WITH ${ctes.join(',\n')}
SELECT a::INTEGER AS a, f::INTEGER AS f, e::INTEGER AS e, g::DOUBLE AS g, sum(v)::DOUBLE AS v, count(*)::DOUBLE AS n, b::DOUBLE AS b
FROM (
  SELECT boxes.a, s.f, s.e, s.g,
         CASE WHEN s.xmin >= boxes.x0 AND s.xmax <= boxes.x1 AND s.ymin >= boxes.y0 AND s.ymax <= boxes.y1 THEN -1 ELSE s.rid END AS b,
         CASE WHEN s.xmin >= boxes.x0 AND s.xmax <= boxes.x1 AND s.ymin >= boxes.y0 AND s.ymax <= boxes.y1 THEN s.m ELSE 0 END AS v
  FROM (
    SELECT ${f.sql} AS f, ${e.sql} AS e, ${p.codeSql} AS g, rowid AS rid, xmin, ymin, xmax, ymax, ${measure} AS m FROM states
    WHERE ${live} AND ${bboxIntersectsSql(p.bounds)} AND ${p.filterSql}
  ) s
  JOIN boxes ON s.xmax >= boxes.x0 AND s.xmin <= boxes.x1 AND s.ymax >= boxes.y0 AND s.ymin <= boxes.y1${
    p.placed.length > 0
      ? `
  UNION ALL
  SELECT placed.a, ${f.sql} AS f, ${e.sql} AS e, ${p.codeSql} AS g, -1 AS b, ${measure} AS v
  FROM states JOIN placed ON states.rowid = placed.rid
  WHERE ${live} AND ${p.filterSql}`
      : ''
  }
)
WHERE f < e
GROUP BY a, f, e, g, b`,
    ['a', ...SNAPSHOT_COLUMNS],
  );
}

/**
 * `w`: the candidate states `s` (kept states of the elements in range, with m = matches the filter,
 * hit = bbox meets the area, interior) each with its previous kept state's facts and geometry.
 * Shared by the contribution aggregation and the contribution extraction.
 */
export const PREVIOUS_CONTRIBUTION_CTE = `w AS (
  SELECT *, lag(deleted) OVER win AS p_deleted, lag(m) OVER win AS p_m, lag(hit) OVER win AS p_hit,
         lag(interior) OVER win AS p_interior, lag(geometry) OVER win AS p_geometry
  FROM s WINDOW win AS (PARTITION BY type, id ORDER BY valid_from, version, minor_version)
)`;

/**
 * The contribution candidates, shared by the aggregation and the list. `s0`: one scan of the kept
 * (not collapsed) states up to the end of the range of the elements in scope (`elementScopeSql`)
 * whose extent meets the area (`SqlAreaPlan.elementKeySql`: every state of an element with a state
 * meeting the area passes it, so DuckDB skips the row groups of other elements), each with m
 * (matches the filter), hit (bbox meets the area), interior, the `carried` columns (`derived` ones
 * are computed per state first; only those the statement reads: each costs in the materialized
 * rows and the self join) and the stored geometry run (`geometry_run`, a maximal sequence of an
 * element's kept states with the same WKB: a new one starts at a creation, a deletion, or a
 * geometry change, so one state per (type, id, run) stands for all). `e`: the elements of `s0`
 * with a state "in" by the SQL facts (not deleted, matching, hit); `s`: their rows of `s0` — a
 * candidate row is kept only when it or its previous kept state is "in", so the other elements'
 * histories need not be joined (issue 21: with the v1 scope alone, the never-tagged nodes were 4/5
 * of the windowed rows of contributions/count over Andorra). `c`: the states in [t_0, t_last), each
 * with its previous kept state's facts and rowid (p_rid), and ci / pi: "in" now / before by the
 * SQL facts. The previous kept state is the one with `edits - 1`, found by a self join of the
 * materialized `s`: a window (lag over (type, id) by valid_from) sorted every candidate timeline,
 * 49 of contributions/count's 100 ms over Andorra; the join takes 7 (issue 21,
 * src/store/geometry-run.ts). Returns the WITH clause up to and including `c`.
 *
 * `e` comes from `s0`, not from a scan of its own by the area's bbox: an element with an "in" state
 * has all its states in `s0` (the scope and the extent are the same on every state of an element),
 * so the rows are the same, and the table is read once. Contributions/count over the benchmark's
 * box: 32.0 → 25.9 ms (the second scan read 281,457 rows for `e`, and the semi join probed the
 * 308,449 rows of the element extent's scan; `s0` keeps 67,543 of them); with `building=*`,
 * `highway=*` and a small box 6–20 % less too. Without the scope in `s0` it was slower (the
 * never-tagged nodes near the box). Rows placed by their history's bbox
 * (`SqlAreaPlan.placedRowids`) are hit and interior in `s0` (`orPlacedSql`), so they bring their
 * elements into `e` as well.
 */
function contributionCandidatesSql(p: {
  area: SqlAreaPlan;
  timestamps: readonly number[];
  filterSql: string;
  elementScopeSql: string;
  extraWith?: string;
  derived?: string;
  carried: readonly string[];
}): string {
  const ts = p.timestamps;
  const t0 = ts[0];
  const t1 = ts[ts.length - 1];
  const placed = placedListSql(p.area);
  const orPlaced = (condition: string) => orPlacedSql(placed, condition, 'st');
  const ctes = [p.area.withSql, p.extraWith ?? ''].filter((x) => x !== '');
  return `WITH ${ctes.map((c) => `${c},\n`).join('')}s0 AS MATERIALIZED (
  SELECT st.rid, st.type, st.id, st.valid_from, st.edits, st.deleted,
         coalesce(${p.filterSql}, FALSE) AS m, ${orPlaced(`coalesce(${p.area.intersectsSql}, FALSE)`)} AS hit,
         ${orPlaced(`coalesce(${p.area.interiorWithSql}, FALSE)`)} AS interior,
         st.tag_change, st.geometry_change,${p.carried.map((c) => ` st.${c},`).join('')}
         (st.deleted OR st.is_creation OR st.geometry_change) AS new_run, st.geometry_run AS run
  FROM (SELECT *, rowid AS rid${p.derived ? `, ${p.derived}` : ''} FROM states) st
  WHERE NOT st.collapsed AND st.valid_from < ${t1} AND ${p.elementScopeSql}${p.area.elementKeySql ? ` AND ${p.area.elementKeySql}` : ''}
),
e AS (SELECT type, id FROM s0 WHERE NOT deleted AND m AND hit GROUP BY type, id),
s AS MATERIALIZED (SELECT * FROM s0 SEMI JOIN e USING (type, id)),
c AS (
  SELECT s.*, p.deleted AS p_deleted, p.m AS p_m, p.hit AS p_hit, p.interior AS p_interior, p.rid AS p_rid,
         (NOT s.deleted AND s.m AND s.hit) AS ci, coalesce(p.deleted = FALSE AND p.m AND p.hit, FALSE) AS pi
  FROM s LEFT JOIN s p ON p.type = s.type AND p.id = s.id AND p.edits = s.edits - 1
  WHERE s.valid_from >= ${t0}
)`;
}

/**
 * Both sides interior and no geometry change: the classification needs no geometry ("in" is the
 * SQL facts, and the geometry did not change), so none is read.
 */
const NEEDS_NO_GEOMETRY = '(interior AND coalesce(p_interior, TRUE) AND NOT geometry_change)';

const CONTRIBUTION_LIST_COLUMNS = [
  'type',
  'id',
  'valid_from',
  'user_id',
  'deleted',
  'm',
  'hit',
  'interior',
  'p_deleted',
  'p_m',
  'p_hit',
  'p_interior',
  'tag_change',
  'geometry_change',
  'tags',
  'tags_before',
  'g_rid',
  'p_rid',
  'run',
  'p_run',
] as const satisfies readonly (keyof ContributionListRow)[];

/**
 * Contributions as a list, in (type, id, time) order: every candidate state
 * (`contributionCandidatesSql`) that is or was "in" by the SQL facts, with what `classifyWith`
 * needs: the facts of both sides, the store's flags, the tags after and before, and the rowids and
 * geometry runs of the sides whose geometries must be read (g_rid, p_rid: NULL when the side is
 * not "in" or no geometry is needed). Geometries are not shipped: the engine reads one
 * representative per run (`boundaryGeometriesSql`, through the boundary cache). (contributions/
 * latest/count does not use the list: it aggregates like the counts, `latest`.)
 */
export function contributionListSql(p: ContributionListParams): Statement<ContributionListRow> {
  return statement(
    `${contributionCandidatesSql({ ...p, carried: ['version', 'minor_version', 'user_id', 'tag_kv', 'tag_kv_before'] })}
SELECT type::INTEGER AS type, id::DOUBLE AS id, valid_from::DOUBLE AS valid_from, user_id::DOUBLE AS user_id,
       deleted, m, hit, interior, p_deleted, p_m, p_hit, p_interior, tag_change, geometry_change,
       tag_kv::DOUBLE[] AS tags, tag_kv_before::DOUBLE[] AS tags_before,
       (CASE WHEN NOT ci OR ${NEEDS_NO_GEOMETRY} THEN NULL ELSE rid END)::DOUBLE AS g_rid,
       (CASE WHEN NOT pi OR ${NEEDS_NO_GEOMETRY} THEN NULL ELSE p_rid END)::DOUBLE AS p_rid,
       run::DOUBLE AS run, (run - new_run::INTEGER)::DOUBLE AS p_run
FROM c
WHERE ci OR pi
ORDER BY type, id, valid_from, version, minor_version`,
    CONTRIBUTION_LIST_COLUMNS,
  );
}

/** Contribution types as SQL over the sure rows' flags (`ci`, `pi`: in now / before), or null for "every type". */
function passesTypesSql(types: readonly string[] | undefined): string | null {
  if (types === undefined) return null;
  const parts = types.map((t) =>
    t === 'creation' ? '(ci AND NOT pi)' : t === 'deletion' ? '(pi AND NOT ci)' : t === 'tagChange' ? '(ci AND pi AND tag_change)' : 'FALSE',
  );
  return parts.length === 0 ? 'FALSE' : `(${parts.join(' OR ')})`;
}

/** A group code that is a number, the same for every row (no groupBy). */
const INTEGER_LITERAL = /^-?\d+$/;

/**
 * The group codes of the aggregate's output as SQL: the carried columns `g` and `gb`, grouped by
 * (`groupBy`, the GROUP BY's prefix), or constants written into every row (no groupBy; '').
 */
interface GroupCodes {
  g: string;
  gb: string;
  groupBy: string;
}

const CONTRIBUTION_AGGREGATE_COLUMNS = [
  'k',
  'g',
  'gb',
  'kind',
  'user_id',
  'n',
  'b',
  'type',
  'id',
  'valid_from',
  'deleted',
  'm',
  'hit',
  'interior',
  'p_deleted',
  'p_m',
  'p_hit',
  'p_interior',
  'tag_change',
  'geometry_change',
  'g_rid',
  'p_rid',
  'run',
  'p_run',
  'ord',
] as const satisfies readonly (keyof ContributionAggregateRow)[];

/**
 * Contributions aggregated in SQL. The candidate rows of `contributionCandidatesSql`; a row is *sure*
 * when no side needs clipping: each side that is "in" by the SQL facts (not deleted, matching,
 * bbox meeting the area) is interior, so clipping is the identity and in(side) is exact; with
 * `contributionTypes`, also not a geometry change between two "in" sides (a row the types filter
 * on is classified exactly; groupBy/contributionType takes a sure row's flags from its group code). Sure rows passing the types are counted per (interval, code after, code
 * before, kind[, user]) — kind 0 creation, 1 deletion, 2 change — with b = -1; the other rows
 * are *single* (b ≥ 0) with the columns `classifyContribution` needs, counted (n) per group of
 * rows that classify alike (`singleGroups`, b its smallest rowid; for latest, `ord` its last row's).
 *
 * The group codes are computed per state (g over the state's tags, gb over the previous
 * contribution's, `tag_kv_before`), so the join carries no tag lists; constant codes (no groupBy)
 * and the user (users/count only) are not carried at all: every column the candidate rows carry
 * costs (issue 21: without them, contributions/count's statement took 0.82–0.85 of the time).
 *
 * Output columns: k, g, gb, kind, user_id, n, b, then (boundary rows only) type, id,
 * valid_from, deleted, m, hit, interior, p_deleted, p_m, p_hit, p_interior, tag_change,
 * geometry_change, g_rid, p_rid (rowids of the states whose geometries are needed), run,
 * p_run: the geometry run of the state and of its predecessor (one representative per run is read
 * through the boundary cache), ord (latest only: the row's place among its element's candidates).
 */
export function contributionAggregateSql(p: ContributionAggregateParams): Statement<ContributionAggregateRow> {
  const ts = p.timestamps;
  const types = passesTypesSql(p.contributionTypes);
  // latest: per element, `ord` (the state's `edits`) orders its candidate rows; rows before its last sure row cannot be
  // its latest contribution and are dropped; when the last sure row is its last row, that row is
  // the latest contribution and stays sure (aggregated); otherwise every remaining row of the
  // element is single, and the engine picks the last one that classifies as a contribution.
  // The last sure and last rows per element come from a GROUP BY joined back: with two windows
  // partitioned by element, latest/count/groupBy/contributionType's statement took 136 ms, with
  // the join 88 ms (alternated runs, the same rows; issue 21).
  const latestRows = `(
  SELECT d0.* REPLACE (sure AND coalesce(lr.last_sure = lr.last_ord, FALSE) AS sure), d0.edits AS ord
  FROM d0 JOIN (SELECT type, id, max(CASE WHEN sure THEN edits END) AS last_sure, max(edits) AS last_ord FROM d0 GROUP BY type, id) lr
    ON lr.type = d0.type AND lr.id = d0.id
  WHERE d0.edits >= coalesce(lr.last_sure, 0)
)`;
  const exact = types !== null;
  const sure = `(NOT ci OR interior) AND (NOT pi OR p_interior)${exact ? ' AND NOT (ci AND pi AND geometry_change)' : ''}`;
  const bin = countBelowWithSql('(valid_from + 1)', ts, 'bin_edges');
  const kind = 'CASE WHEN ci AND NOT pi THEN 0 WHEN pi AND NOT ci THEN 1 ELSE 2 END';
  const user = p.users ? 'user_id::DOUBLE' : 'NULL::DOUBLE';
  // Constant group codes (no groupBy) are written into the output, not carried through every candidate row.
  const constant = INTEGER_LITERAL.test(p.codeSql) && INTEGER_LITERAL.test(p.codeBeforeSql);
  const codes: GroupCodes = constant ? { g: p.codeSql, gb: p.codeBeforeSql, groupBy: '' } : { g: 'g', gb: 'gb', groupBy: 'g, gb, ' };
  const carried = [...(p.users ? ['user_id'] : []), ...(constant ? [] : ['g', 'gb'])];
  // Sure rows are counted per group in a narrow aggregate; single rows (b = their rowid, each its
  // own group) pass unaggregated with their facts. One GROUP BY over both carried 18 columns of
  // CASE WHEN sure THEN NULL … and any_value(…) through every sure row (issue 21: 70 of users/count's 230 ms).
  return statement(
    `${contributionCandidatesSql({ ...p, extraWith: bin.withSql, derived: constant ? undefined : `${p.codeSql} AS g, ${p.codeBeforeSql} AS gb`, carried })},
d0 AS${p.latest ? ' MATERIALIZED' : ''} (
  SELECT *, coalesce(${sure}, FALSE) AS sure${p.latest ? '' : ', NULL::BIGINT AS ord'} FROM c WHERE ci OR pi
),
d AS MATERIALIZED (SELECT *, (${bin.sql} - 1)::INTEGER AS k, ${kind} AS kind FROM ${p.latest ? latestRows : 'd0'})
SELECT k, ${codes.g}::DOUBLE AS g, ${codes.gb}::DOUBLE AS gb, kind::INTEGER AS kind, ${user} AS user_id, count(*)::DOUBLE AS n, -1::DOUBLE AS b,
       NULL::INTEGER AS type, NULL::DOUBLE AS id, NULL::DOUBLE AS valid_from, NULL::BOOLEAN AS deleted,
       NULL::BOOLEAN AS m, NULL::BOOLEAN AS hit, NULL::BOOLEAN AS interior,
       NULL::BOOLEAN AS p_deleted, NULL::BOOLEAN AS p_m, NULL::BOOLEAN AS p_hit, NULL::BOOLEAN AS p_interior,
       NULL::BOOLEAN AS tag_change, NULL::BOOLEAN AS geometry_change,
       NULL::DOUBLE AS g_rid, NULL::DOUBLE AS p_rid, NULL::DOUBLE AS run, NULL::DOUBLE AS p_run, NULL::DOUBLE AS ord
FROM d
WHERE sure AND ${types ?? 'TRUE'}
GROUP BY k, ${codes.groupBy}kind${p.users ? ', user_id' : ''}
UNION ALL
${singleGroups(p.users, p.latest === true, codes)}`,
    CONTRIBUTION_AGGREGATE_COLUMNS,
  );
}

/**
 * The rows of `d` that are not sure, counted (n) per group of rows alike in everything the
 * classification reads: the interval, group codes, kind and user; the element and the facts of
 * both sides; the store's flags; and the geometry run of each side whose geometry is read. Such
 * rows classify alike (`classifyWith` sees the same facts and the same geometries: one state per
 * run stands for it), so one classification counts them all. b, g_rid and p_rid are the group's
 * smallest rowids: the run's representative is the smallest rowid asked for (`RunRepresentatives`),
 * the same as for the rows one by one. A border relation with many tag-only versions gives one group
 * per interval and run: contributions/count over the benchmark's box ships 3,564 groups for 6,934 rows.
 * contributions/latest takes each element's last row that classifies as a contribution: rows that
 * classify alike stand or fall together, so a group's last row (`ord`, the largest) is the one
 * that may be picked, and its interval and group codes are the group's.
 *
 */
function singleGroups(users: boolean, latest: boolean, codes: GroupCodes): string {
  return `SELECT k, ${codes.g}::DOUBLE, ${codes.gb}::DOUBLE, kind::INTEGER, ${users ? 'user_id::DOUBLE' : 'NULL::DOUBLE'}, count(*)::DOUBLE, min(rid)::DOUBLE,
       type::INTEGER, id::DOUBLE, min(valid_from)::DOUBLE, deleted, m, hit, interior, p_deleted, p_m, p_hit, p_interior, tag_change, geometry_change,
       min(g_rid)::DOUBLE, min(p_rid)::DOUBLE, g_run::DOUBLE, p_run::DOUBLE, ${latest ? 'max(ord)' : 'NULL'}::DOUBLE
FROM (
  SELECT *, CASE WHEN g_rid IS NULL THEN NULL ELSE run END AS g_run, CASE WHEN p_rid IS NULL THEN NULL ELSE run - new_run::INTEGER END AS p_run
  FROM (SELECT * REPLACE (CASE WHEN NOT pi OR ${NEEDS_NO_GEOMETRY} THEN NULL ELSE p_rid END AS p_rid),
               CASE WHEN NOT ci OR ${NEEDS_NO_GEOMETRY} THEN NULL ELSE rid END AS g_rid
        FROM d WHERE NOT sure)
)
GROUP BY k, ${codes.groupBy}kind${users ? ', user_id' : ''}, type, id, deleted, m, hit, interior, p_deleted, p_m, p_hit, p_interior, tag_change, geometry_change, g_run, p_run`;
}

/**
 * `rowid BETWEEN min AND max` of a rowid list: lets DuckDB skip the row groups outside the range
 * (a bare `rowid IN (…)` or a semi join scans the geometry column of every row group the other
 * filters keep: 57 ms for 7 rows on the 4-country store, 5 ms with the range).
 */
export function rowidRangeSql(rowids: readonly number[], prefix = ''): string {
  if (rowids.length === 0) return 'FALSE';
  let lo = rowids[0];
  let hi = rowids[0];
  for (const r of rowids) {
    if (r < lo) lo = r;
    if (r > hi) hi = r;
  }
  return `${prefix}rowid BETWEEN ${lo} AND ${hi}`;
}

/**
 * The geometries of the given states (by rowid), each distinct geometry once: rows (rowid, gid,
 * NULL) map a state to its geometry id, rows (NULL, gid, wkb) give each geometry. Boundary
 * states of long-lived elements (country relations) repeat the same large geometry over many
 * states; this ships and clips it once. The rowids as a literal `IN` list within their range
 * (`rowidRangeSql`): DuckDB then reads the geometry of the listed rows only (issue 21: a semi join
 * with the list, under the area's bbox test, read the bbox columns and the geometry of every row
 * of the range, 116,676 rows for the 73 of (b)'s border polygon: 34–72 ms; now 4–6 ms). Every
 * state asked for meets the area (it came from a scan that tests it), so no area test is needed.
 */
export function geometriesByRowidSql(rowids: readonly number[]): Statement<GeometryByRowidRow> {
  for (const r of rowids) if (!Number.isSafeInteger(r) || r < 0) throw new RangeError(`not a rowid: ${r}`);
  return statement(
    `WITH g AS (
  SELECT rowid AS r, geometry FROM states WHERE ${rowidRangeSql(rowids)} AND rowid IN (${rowids.length > 0 ? rowids.join(',') : '-1'})
),
d AS (SELECT geometry, row_number() OVER () AS gid FROM (SELECT DISTINCT geometry FROM g WHERE geometry IS NOT NULL))
SELECT g.r::DOUBLE AS r, d.gid::DOUBLE AS gid, NULL::BLOB AS geometry FROM g JOIN d ON g.geometry = d.geometry
UNION ALL
SELECT NULL::DOUBLE, gid::DOUBLE, geometry FROM d`,
    ['r', 'gid', 'geometry'],
  );
}
