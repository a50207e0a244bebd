/**
 * The version 2 statistics statements in ClickHouse SQL (pure: text only, no I/O): the same rows,
 * columns and meaning as the DuckDB statements (src/engines/duckdb/sql/stats.ts, whose comments
 * describe them), written to what both ClickHouse 18.16 and current servers accept. What differs,
 * and why (as for the aggregation statements, aggregation.ts):
 *
 * - no common table expressions: the area's and the bins' constant lists are named in the WITH of
 *   the SELECT that reads them (SqlFlavor);
 * - a state's row id is the loader's `rid` (DuckDB's rowid);
 * - the scan reads `tables.entry` (the Distributed table on a cluster) and the outer query groups
 *   the shards' rows; the inner columns carry a 0 suffix (ClickHouse resolves a name to an alias of
 *   the same query first, so `toInt32(f) AS f` would refer to itself), and constant columns are
 *   `materialize`d (a constant coming back from a shard fails 18.16);
 * - no window functions: the geometry run is the loader's `run` column (schema.ts);
 * - every result column is cast to the type its reader declares (RowBinary, `ChStatement`).
 */
import { OPEN_END } from '../../../store/schema.js';
import type { StatsMeasure } from '../../../query/stats.js';
import type { SqlAreaPlan } from '../../sql/area.js';
import { CLICKHOUSE_FLAVOR } from '../../sql/flavor.js';
import { V2_FEATURE_GEOMETRY_SQL, type ContributionStatsRow, type CurrentnessRow, type FeatureStatsRow, type GeometryRunRow } from '../../sql/stats-rows.js';
import { countBelowWithSql } from '../../sql/time.js';
import type { ChTables } from './aggregation.js';
import { chStatement, type ChStatement } from './statement.js';

const MEASURE_COLUMN: Record<StatsMeasure, string> = { count: '1', length: 'length', area: 'area' };

function withClause(...items: string[]): string {
  const present = items.filter((x) => x !== '');
  return present.length > 0 ? `WITH ${present.join(', ')}\n  ` : '';
}

function integer(x: number): string {
  if (!Number.isSafeInteger(x)) throw new RangeError(`not an integer: ${x}`);
  return String(x);
}

/** SQL: the row surely intersects the area (DuckDB's `sureSql`). */
function sureSql(area: SqlAreaPlan): string {
  const interior = `coalesce(${area.interiorWithSql}, 0)`;
  return area.rect ? `(${interior} OR geometry_type = 1)` : interior;
}

/** The inner columns every scan carries: b0 (-1 for a sure row, else its rid) and the element (bt0, bi0). */
function boundaryColumns(area: SqlAreaPlan): string {
  return `if(${sureSql(area)}, -1, rid) AS b0, type AS bt0, id AS bi0`;
}

/** The outer columns of `boundaryColumns`. */
const BOUNDARY_OUT = 'toFloat64(b0) AS b, toInt32(min(bt0)) AS bt, toFloat64(min(bi0)) AS bi';

/** SQL: the index k of the bin [edges[k], edges[k+1]) holding `col`, and its WITH items (DuckDB's `binSql`). */
function binSql(col: string, edges: readonly number[]): { sql: string; withSql: string } {
  const c = countBelowWithSql(`(${col} + 1)`, edges, 'bin_edges', CLICKHOUSE_FLAVOR);
  return { sql: `(${c.sql} - 1)`, withSql: c.withSql };
}

function checkEdges(edges: readonly number[]): void {
  if (edges.length < 2) throw new RangeError('at least two bin edges');
  for (let i = 1; i < edges.length; i++) if (!(edges[i] > edges[i - 1])) throw new RangeError('bin edges must ascend');
}

/** features (DuckDB's `featureStatsSql`). */
export function featureStatsSql(
  t: ChTables,
  p: { area: SqlAreaPlan; timestamps: readonly number[]; filterSql: string; codeSql: string; measure: StatsMeasure },
): ChStatement<FeatureStatsRow> {
  const ts = p.timestamps;
  if (ts.length === 0) throw new RangeError('no timestamps');
  const f = countBelowWithSql('valid_from', ts, 'ts_from', CLICKHOUSE_FLAVOR);
  const e = countBelowWithSql('valid_to', ts, 'ts_to', CLICKHOUSE_FLAVOR);
  return chStatement(
    `SELECT toInt32(f0) AS f, toInt32(e0) AS e, toFloat64(g0) AS g, toFloat64(sum(v0)) AS v, toFloat64(count()) AS n, ${BOUNDARY_OUT}
FROM (
  ${withClause(p.area.withSql, f.withSql, e.withSql)}SELECT ${f.sql} AS f0, ${e.sql} AS e0, materialize(${p.codeSql}) AS g0,
         materialize(toFloat64(${MEASURE_COLUMN[p.measure]})) AS v0, ${boundaryColumns(p.area)}
  FROM ${t.entry}
  WHERE NOT deleted AND ${V2_FEATURE_GEOMETRY_SQL} AND valid_from <= ${integer(ts[ts.length - 1])} AND valid_to > ${integer(ts[0])}
    AND ${p.area.intersectsSql} AND ${p.filterSql}
)
WHERE f0 < e0
GROUP BY f0, e0, g0, b0`,
    { f: 'Int32', e: 'Int32', g: 'Float64', v: 'Float64', n: 'Float64', b: 'Float64', bt: 'Int32', bi: 'Float64' },
  );
}

/** currentness (DuckDB's `currentnessSql`). */
export function currentnessSql(
  t: ChTables,
  p: { area: SqlAreaPlan; edges: readonly number[]; filterSql: string; measure: StatsMeasure; codeSql?: string },
): ChStatement<CurrentnessRow> {
  const ed = p.edges;
  checkEdges(ed);
  const bin = binSql('valid_from', ed);
  return chStatement(
    `SELECT toInt32(k0) AS k, toFloat64(g0) AS g, toFloat64(sum(v0)) AS v, toFloat64(count()) AS n, ${BOUNDARY_OUT}
FROM (
  ${withClause(p.area.withSql, bin.withSql)}SELECT ${bin.sql} AS k0, materialize(${p.codeSql ?? '-1'}) AS g0,
         materialize(toFloat64(${MEASURE_COLUMN[p.measure]})) AS v0, ${boundaryColumns(p.area)}
  FROM ${t.entry}
  WHERE valid_to = ${OPEN_END} AND NOT deleted AND ${V2_FEATURE_GEOMETRY_SQL}
    AND valid_from >= ${integer(ed[0])} AND valid_from < ${integer(ed[ed.length - 1])}
    AND ${p.area.intersectsSql} AND ${p.filterSql}
)
GROUP BY k0, g0, b0`,
    { k: 'Int32', g: 'Float64', v: 'Float64', n: 'Float64', b: 'Float64', bt: 'Int32', bi: 'Float64' },
  );
}

/** contributions and contributors (DuckDB's `contributionStatsSql`). */
export function contributionStatsSql(
  t: ChTables,
  p: { area: SqlAreaPlan; edges: readonly number[]; filterSql: string; users: boolean; codeSql?: string; codeBeforeSql?: string },
): ChStatement<ContributionStatsRow> {
  const ed = p.edges;
  checkEdges(ed);
  const bin = binSql('valid_from', ed);
  const g = p.codeSql === undefined ? '-1' : `if(deleted, -1, ${p.codeSql})`;
  return chStatement(
    `SELECT toInt32(k0) AS k, ${p.users ? 'toNullable(toFloat64(u0))' : 'CAST(NULL AS Nullable(Float64))'} AS u, toFloat64(g0) AS g, toFloat64(gb0) AS gb,
       toFloat64(count()) AS n, ${BOUNDARY_OUT}
FROM (
  ${withClause(p.area.withSql, bin.withSql)}SELECT ${bin.sql} AS k0, ${p.users ? 'user_id' : 'materialize(0)'} AS u0, materialize(${g}) AS g0,
         materialize(${p.codeBeforeSql ?? '-1'}) AS gb0, ${boundaryColumns(p.area)}
  FROM ${t.entry}
  WHERE NOT collapsed AND geometry_type <> 0 AND valid_from >= ${integer(ed[0])} AND valid_from < ${integer(ed[ed.length - 1])}
    AND ${p.area.intersectsSql} AND ${p.filterSql}
)
GROUP BY k0, u0, g0, gb0, b0`,
    { k: 'Int32', u: 'Nullable(Float64)', g: 'Float64', gb: 'Float64', n: 'Float64', b: 'Float64', bt: 'Int32', bi: 'Float64' },
  );
}

/**
 * The geometry runs of the kept states of the given elements (DuckDB's `geometryRunsSql`): the
 * loader's `run`, which starts a run at every deleted state rather than only at a deletion (the
 * DuckDB statement's `is_deletion`), so its runs are the same or finer: the states of one run still
 * share their WKB.
 */
export function geometryRunsSql(t: ChTables, elements: readonly (readonly [number, number])[]): ChStatement<GeometryRunRow> {
  for (const [ty, id] of elements) if (!Number.isSafeInteger(ty) || !Number.isSafeInteger(id)) throw new RangeError(`not an element: ${ty}/${id}`);
  const list = elements.length > 0 ? elements.map(([ty, id]) => `(${ty}, ${id})`).join(', ') : '(255, -1)';
  return chStatement(
    `SELECT r0 AS r, run0 AS run, type0 AS type, id0 AS id FROM (
  SELECT toFloat64(rid) AS r0, toFloat64(run) AS run0, toInt32(type) AS type0, toFloat64(id) AS id0
  FROM ${t.entry}
  WHERE NOT collapsed AND (type, id) IN (${list})
)`,
    { r: 'Float64', run: 'Float64', type: 'Int32', id: 'Float64' },
  );
}
