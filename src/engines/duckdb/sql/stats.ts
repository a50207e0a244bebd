/**
 * The SQL shapes of the version 2 statistics in DuckDB's SQL (pure: text only, no I/O); their rows
 * and parameters, the same on every database, are src/engines/sql/stats-rows.ts. README.md in this folder
 * ("Version 2 statistics") explains them and every semantic decision.
 *
 * All three shapes scan `states` once and aggregate in SQL. A row is *sure* when its geometry is
 * known to intersect the aoi without looking at it (its bbox lies inside the aoi; or the aoi is a
 * rectangle and the row is a point, whose bbox is the point itself): sure rows are aggregated
 * (b = -1); every other row keeps its own group (b = its rowid, with its element in bt, bi) and
 * the engine fetches its geometry run (`geometryRunsSql`) and one geometry per run
 * (`boundaryGeometriesSql`) for the exact intersection test and, with clip, the measure.
 */
import { OPEN_END } from '../../../store/schema.js';
import type { SqlAreaPlan } from '../../sql/area.js';
import { rowidRangeSql } from './aggregation.js';
import type { StatsMeasure } from '../../../query/stats.js';
import { statement, type Statement } from '../../sql/statement.js';
import { countBelowWithSql } from '../../sql/time.js';
import { V2_FEATURE_GEOMETRY_SQL } from '../../sql/stats-rows.js';
import type {
  ContributionStatsParams,
  ContributionStatsRow,
  CurrentnessParams,
  CurrentnessRow,
  FeatureStatsParams,
  FeatureStatsRow,
  GeometryRunRow,
  RowGeometry,
} from '../../sql/stats-rows.js';

const MEASURE_COLUMN: Record<StatsMeasure, string> = { count: '1', length: 'length', area: 'area' };

/** SQL: the row surely intersects the area (see the file comment). */
function sureSql(area: SqlAreaPlan): string {
  const interior = `coalesce(${area.interiorWithSql}, FALSE)`;
  return area.rect ? `(${interior} OR geometry_type = 1)` : interior;
}

/** The WITH clause of the area's and the time lookups' common table expressions ('' when none). */
function withClause(area: SqlAreaPlan, ...more: string[]): string {
  const ctes = [area.withSql, ...more].filter((x) => x !== '');
  return ctes.length > 0 ? `WITH ${ctes.join(',\n')}\n` : '';
}

function integer(x: number): string {
  if (!Number.isSafeInteger(x)) throw new RangeError(`not an integer: ${x}`);
  return String(x);
}

/**
 * features: per matching state, f = #{t < valid_from}, e = #{t < valid_to} (it is alive at the
 * timestamps [f, e)), its group code g, the precomputed unclipped measure v.
 *
 *   SELECT f, e, g, sum(v), count(*), b FROM (… WHERE NOT deleted AND valid geometry, not a
 *   GeometryCollection, alive in [t_0, t_last], bbox meets the aoi, filter) GROUP BY f, e, g, b
 *
 * Rows alive at no timestamp (f = e) come too and the engine skips them (as in `snapshotSql`: a
 * `WHERE f < e` here put both buckets' computation into the scan's filter, 13.9 against 9.4 ms for
 * features/count monthly over Andorra).
 */
export function featureStatsSql(p: FeatureStatsParams): Statement<FeatureStatsRow> {
  const ts = p.timestamps;
  if (ts.length === 0) throw new RangeError('no timestamps');
  const f = countBelowWithSql('valid_from', ts, 'ts_from');
  const e = countBelowWithSql('valid_to', ts, 'ts_to');
  return statement(
    `${withClause(p.area, f.withSql, e.withSql)}SELECT f::INTEGER AS f, e::INTEGER AS e, g::DOUBLE AS g, sum(v)::DOUBLE AS v, count(*)::DOUBLE AS n, b::DOUBLE AS b,
       min(bt)::INTEGER AS bt, min(bi)::DOUBLE AS bi
FROM (
  SELECT ${f.sql} AS f, ${e.sql} AS e, ${p.codeSql} AS g,
         CASE WHEN ${sureSql(p.area)} THEN -1 ELSE rowid END AS b, ${MEASURE_COLUMN[p.measure]} AS v, type AS bt, id AS bi
  FROM states
  WHERE NOT deleted AND ${V2_FEATURE_GEOMETRY_SQL} AND valid_from <= ${integer(ts[ts.length - 1])} AND valid_to > ${integer(ts[0])}
    AND ${p.area.intersectsSql} AND ${p.filterSql}
)
GROUP BY f, e, g, b`,
    ['f', 'e', 'g', 'v', 'n', 'b', 'bt', 'bi'],
  );
}

/** SQL: the index k of the bin [edges[k], edges[k+1]) holding `col` (rows outside are filtered out), and its CTE. */
function binSql(col: string, edges: readonly number[]): { sql: string; withSql: string } {
  const c = countBelowWithSql(`(${col} + 1)`, edges, 'bin_edges');
  return { sql: `(${c.sql} - 1)`, withSql: c.withSql };
}

function checkEdges(edges: readonly number[]): void {
  if (edges.length < 2) throw new RangeError('at least two bin edges');
  for (let i = 1; i < edges.length; i++) if (!(edges[i] > edges[i - 1])) throw new RangeError('bin edges must ascend');
}

/**
 * currentness: the current states (valid_to = OPEN_END, not deleted, valid geometry, not a
 * GeometryCollection) matching the filter on their tags, with valid_from in [edges_0, edges_last),
 * per bin k of valid_from: sum(v), count(*), per b.
 */
export function currentnessSql(p: CurrentnessParams): Statement<CurrentnessRow> {
  const ed = p.edges;
  checkEdges(ed);
  const bin = binSql('valid_from', ed);
  return statement(
    `${withClause(p.area, bin.withSql)}SELECT k::INTEGER AS k, g::DOUBLE AS g, sum(v)::DOUBLE AS v, count(*)::DOUBLE AS n, b::DOUBLE AS b, min(bt)::INTEGER AS bt, min(bi)::DOUBLE AS bi
FROM (
  SELECT ${bin.sql} AS k, ${p.codeSql ?? '-1'} AS g, CASE WHEN ${sureSql(p.area)} THEN -1 ELSE rowid END AS b, ${MEASURE_COLUMN[p.measure]} AS v, type AS bt, id AS bi
  FROM states
  WHERE valid_to = ${OPEN_END} AND NOT deleted AND ${V2_FEATURE_GEOMETRY_SQL}
    AND valid_from >= ${integer(ed[0])} AND valid_from < ${integer(ed[ed.length - 1])}
    AND ${p.area.intersectsSql} AND ${p.filterSql}
)
GROUP BY k, g, b`,
    ['k', 'g', 'v', 'n', 'b', 'bt', 'bi'],
  );
}

/**
 * contributions/contributors: the kept (NOT collapsed) states of any status with valid_from in
 * [edges_0, edges_last), a geometry (any type, valid or not; a deletion keeps its last one) whose
 * bbox meets the aoi, and the filter (compiled for current OR previous tags). Per (bin k,
 * [user_id,] b): count(*). With `users`, the user id is a grouping column (distinct users are
 * counted by the engine after the boundary rows are decided).
 */
export function contributionStatsSql(p: ContributionStatsParams): Statement<ContributionStatsRow> {
  const ed = p.edges;
  checkEdges(ed);
  const bin = binSql('valid_from', ed);
  const g = p.codeSql === undefined ? '-1' : `CASE WHEN deleted THEN -1 ELSE ${p.codeSql} END`;
  return statement(
    `${withClause(p.area, bin.withSql)}SELECT k::INTEGER AS k, ${p.users ? 'user_id::DOUBLE' : 'NULL::DOUBLE'} AS u, g::DOUBLE AS g, gb::DOUBLE AS gb, count(*)::DOUBLE AS n, b::DOUBLE AS b,
       min(bt)::INTEGER AS bt, min(bi)::DOUBLE AS bi
FROM (
  SELECT ${bin.sql} AS k, ${p.users ? 'user_id' : 'NULL'} AS user_id, ${g} AS g, ${p.codeBeforeSql ?? '-1'} AS gb, CASE WHEN ${sureSql(p.area)} THEN -1 ELSE rowid END AS b, type AS bt, id AS bi
  FROM states
  WHERE NOT collapsed AND geometry_type <> 0 AND valid_from >= ${integer(ed[0])} AND valid_from < ${integer(ed[ed.length - 1])}
    AND ${p.area.intersectsSql} AND ${p.filterSql}
)
GROUP BY k, user_id, g, gb, b`,
    ['k', 'u', 'g', 'gb', 'n', 'b', 'bt', 'bi'],
  );
}

/**
 * The geometry runs of the kept states of the given elements: (rowid, run). A run is a maximal
 * sequence of an element's kept (not collapsed) states with the same WKB: a new one starts at a
 * creation, a deletion or a geometry change (the change flags compare a state with the previous
 * kept state, by WKB bytes), so one state per (type, id, run) stands for all. Collapsed states are
 * not listed (their flags compare them with the previous kept state, not their neighbours): each
 * stands for itself. Reads no geometry, so the many versions of a big relation on the aoi's edge
 * cost one geometry fetch instead of hundreds. The run is the store's `geometry_run`
 * (src/store/geometry-run.ts), no window.
 */
export function geometryRunsSql(elements: readonly (readonly [number, number])[]): Statement<GeometryRunRow> {
  for (const [t, id] of elements) if (!Number.isSafeInteger(t) || !Number.isSafeInteger(id)) throw new RangeError(`not an element: ${t}/${id}`);
  const list = elements.length > 0 ? elements.map(([t, id]) => `(${t}, ${id})`).join(',') : '(-1, -1)';
  return statement(
    `SELECT s.rowid::DOUBLE AS r, s.geometry_run::DOUBLE AS run, s.type::INTEGER AS type, s.id::DOUBLE AS id
FROM states s SEMI JOIN (VALUES ${list}) e(type, id) ON s.type = e.type AND s.id = e.id
WHERE NOT s.collapsed`,
    ['r', 'run', 'type', 'id'],
  );
}

/**
 * The geometries of the given rows (one representative per geometry run): (rowid, wkb). The rowid
 * range lets DuckDB skip row groups (`rowidRangeSql`); no aoi condition, so that the engine may
 * keep the WKB for later requests over other areas.
 */
export function boundaryGeometriesSql(rowids: readonly number[]): Statement<RowGeometry> {
  for (const r of rowids) if (!Number.isSafeInteger(r) || r < 0) throw new RangeError(`not a rowid: ${r}`);
  return statement(
    `SELECT rowid::DOUBLE AS r, geometry FROM states WHERE ${rowidRangeSql(rowids)} AND rowid IN (${rowids.length > 0 ? rowids.join(',') : '-1'})`,
    ['r', 'geometry'],
  );
}
