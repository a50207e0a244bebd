/**
 * The version 1 extraction statements in ClickHouse SQL (pure: text only, no I/O): the same rows,
 * columns, order and meaning as the DuckDB statements (src/engines/duckdb/sql/extraction.ts, whose
 * comments describe them), written to what both ClickHouse 18.16 and current servers accept
 * (aggregation.ts says why each difference). Here:
 *
 * - a snapshot's timestamps are an array each state is expanded over (`arrayJoin` of the
 *   timestamps it is valid at), not a join with a VALUES list;
 * - a contribution's version changeset is the loader's `version_changeset` (schema.ts; DuckDB's
 *   `first_value … OVER`), and its previous kept state's facts and geometry are joined by the
 *   loader's `p_rid` (the candidates of aggregation.ts `candidatesSql`);
 * - the id cuts of a type are `quantiles` of its ids (a reservoir of 8,192 sampled ids, merged over
 *   the shards: bounded memory, batches within a few per cent of equal for the batch counts an
 *   extraction has);
 * - the columns are unqualified (`alias` ''), and the result's columns carry a suffix inside and are
 *   renamed outside (`f(x) AS x` would refer to itself), every one cast to its declared read type.
 */
import type { IdBatch } from '../../../query/extraction.js';
import type { SqlAreaPlan } from '../../sql/area.js';
import type {
  CandidateRows,
  ContributionExtractionRow,
  FullHistoryExtractionRow,
  SnapshotExtractionRow,
  TypeRowsRow,
  VersionStateRow,
} from '../../sql/extraction-rows.js';
import { CLICKHOUSE_FLAVOR } from '../../sql/flavor.js';
import { candidatesSql, CONTRIBUTION_FACT_TYPES, previous, type ChTables } from './aggregation.js';
import { chStatement, type ChStatement } from './statement.js';

function integers(xs: readonly number[]): string {
  for (const x of xs) if (!Number.isSafeInteger(x)) throw new RangeError(`not an integer: ${x}`);
  return xs.join(', ');
}

function withClause(withSql: string): string {
  return withSql === '' ? '' : `WITH ${withSql}\n`;
}

/**
 * The geometry columns (suffixed): the WKB, or for a batch of nodes (`points`) the point at the
 * bbox's corner, as DuckDB's `geometryColumns`. The constant NULLs are materialized: a constant
 * column coming back from a shard fails 18.16's Distributed table.
 */
function geometryColumns(points = false): string {
  return points
    ? 'materialize(CAST(NULL AS Nullable(String))) AS geometry1, xmin AS x1, ymin AS y1'
    : 'geometry AS geometry1, materialize(CAST(NULL AS Nullable(Float64))) AS x1, materialize(CAST(NULL AS Nullable(Float64))) AS y1';
}

/** The columns of a snapshot or full-history row as the DuckDB statements read them (in order), each from its suffixed inner column. */
const ROW_TYPES = {
  type: 'Int32',
  id: 'Float64',
  version: 'Int32',
  minor_version: 'Int32',
  changeset: 'Float64',
  valid_from: 'Float64',
} as const;
const ROW_TAIL_TYPES = {
  interior: 'Bool',
  geometry: 'Nullable(Bytes)',
  x: 'Nullable(Float64)',
  y: 'Nullable(Float64)',
  tag_keys: 'Array(String)',
  tag_values: 'Array(String)',
} as const;

/** The inner (suffixed) columns every snapshot and full-history row starts with. */
const ROW_HEAD = `toInt32(type) AS type1, toFloat64(id) AS id1, toInt32(version) AS version1, toInt32(minor_version) AS minor_version1,
         toFloat64(changeset) AS changeset1`;

function renamed(columns: readonly string[]): string {
  return columns.map((c) => `${c}1 AS ${c}`).join(', ');
}

/** Snapshot extraction (DuckDB's `snapshotExtractionSql`): one row per state and timestamp it is valid at. */
export function snapshotExtractionSql(
  t: ChTables,
  p: { area: SqlAreaPlan; timestamps: readonly number[]; filterSql: string; points?: boolean },
): ChStatement<SnapshotExtractionRow> {
  const ts = p.timestamps;
  const types = { ...ROW_TYPES, ts: 'Float64', ...ROW_TAIL_TYPES } as const;
  return chStatement(
    `SELECT ${renamed(Object.keys(types))}
FROM (
  ${withClause(p.area.withSql)}  SELECT ${ROW_HEAD}, toFloat64(valid_from) AS valid_from1,
         toFloat64(arrayJoin(arrayFilter(x -> valid_from <= x AND valid_to > x, ${CLICKHOUSE_FLAVOR.bigintList(`[${integers(ts)}]`)}))) AS ts1,
         coalesce(${p.area.interiorWithSql}, 0) AS interior1, ${geometryColumns(p.points)}, tag_keys AS tag_keys1, tag_values AS tag_values1
  FROM ${t.entry}
  WHERE NOT deleted AND valid_from <= ${ts[ts.length - 1]} AND valid_to > ${ts[0]}
    AND ${p.area.intersectsSql} AND ${p.filterSql}
)
ORDER BY type1, id1, ts1`,
    types,
  );
}

/** Full-history extraction (DuckDB's `fullHistoryExtractionSql`): the states overlapping [t1, t2), clamped to it. */
export function fullHistoryExtractionSql(
  t: ChTables,
  p: { area: SqlAreaPlan; t1: number; t2: number; filterSql: string; points?: boolean },
): ChStatement<FullHistoryExtractionRow> {
  const [t1, t2] = [p.t1, p.t2];
  integers([t1, t2]);
  const types = { ...ROW_TYPES, valid_to: 'Float64', ...ROW_TAIL_TYPES } as const;
  return chStatement(
    `SELECT ${renamed(Object.keys(types))}
FROM (
  ${withClause(p.area.withSql)}  SELECT ${ROW_HEAD}, toFloat64(greatest(valid_from, ${t1})) AS valid_from1, toFloat64(least(valid_to, ${t2})) AS valid_to1,
         valid_from AS start1, coalesce(${p.area.interiorWithSql}, 0) AS interior1, ${geometryColumns(p.points)},
         tag_keys AS tag_keys1, tag_values AS tag_values1
  FROM ${t.entry}
  WHERE NOT deleted AND valid_from < ${t2} AND valid_to > ${t1}
    AND ${p.area.intersectsSql} AND ${p.filterSql}
)
ORDER BY type1, id1, start1, version1, minor_version1`,
    types,
  );
}

const CONTRIBUTION_TYPES = {
  ...CONTRIBUTION_FACT_TYPES,
  geom: 'Nullable(Bytes)',
  p_geom: 'Nullable(Bytes)',
  version: 'Int32',
  version_changeset: 'Float64',
  changeset: 'Float64',
  tag_keys: 'Array(String)',
  tag_values: 'Array(String)',
} as const;

/**
 * Contributions extraction (DuckDB's `contributionExtractionSql`): the contribution candidates
 * (aggregation.ts `candidatesSql`, the kept states in [t1, t2) that are or follow an "in" state,
 * with the previous kept state's facts and geometry), plus what a feature prints.
 */
export function contributionExtractionSql(
  t: ChTables,
  p: { area: SqlAreaPlan; t1: number; t2: number; filterSql: string; batchSql?: string },
): ChStatement<ContributionExtractionRow> {
  integers([p.t1, p.t2]);
  const candidates = candidatesSql(t, {
    area: p.area,
    timestamps: [p.t1, p.t2],
    filterSql: p.filterSql,
    extra: ['tag_kv', 'tag_kv_before', 'geometry', 'version_changeset', 'changeset', 'tag_keys', 'tag_values'],
    prevColumns: ['geometry'],
    ...(p.batchSql === undefined ? {} : { batchSql: p.batchSql }),
  });
  return chStatement(
    `SELECT ${renamed(Object.keys(CONTRIBUTION_TYPES))}
FROM (
  SELECT toInt32(type) AS type1, toFloat64(id) AS id1, toFloat64(valid_from) AS valid_from1, toFloat64(user_id) AS user_id1,
         deleted AS deleted1, m AS m1, hit AS hit1, interior AS interior1, ${previous('p_deleted')} AS p_deleted1, ${previous('p_m')} AS p_m1,
         ${previous('p_hit')} AS p_hit1, ${previous('p_interior')} AS p_interior1, tag_change AS tag_change1, geometry_change AS geometry_change1,
         arrayMap(x -> toFloat64(x), tag_kv) AS tags1, arrayMap(x -> toFloat64(x), tag_kv_before) AS tags_before1,
         geometry AS geom1, ${previous('p_geometry')} AS p_geom1, toInt32(version) AS version1, toFloat64(version_changeset) AS version_changeset1,
         toFloat64(changeset) AS changeset1, tag_keys AS tag_keys1, tag_values AS tag_values1, minor_version AS minor_version1
  FROM ${candidates}
  WHERE ci OR pi
)
ORDER BY type1, id1, valid_from1, version1, minor_version1`,
    CONTRIBUTION_TYPES,
  );
}

/** The candidates' condition (DuckDB's `candidatesWhere`), on unqualified columns. */
export function candidatesWhere(p: CandidateRows): string {
  integers([p.t1, p.t2]);
  const time = p.kind === 'snapshot' ? `valid_from <= ${p.t2} AND valid_to > ${p.t1}` : `valid_from < ${p.t2} AND valid_to > ${p.t1}`;
  return `NOT deleted AND ${time} AND ${p.area.intersectsSql} AND ${p.filterSql}`;
}

/** The states that make an element a contribution candidate (DuckDB's `contributionElementsWhere`), on unqualified columns. */
export function contributionElementsWhere(p: { area: SqlAreaPlan; t2: number }): string {
  integers([p.t2]);
  return `NOT collapsed AND valid_from < ${p.t2} AND ${p.area.intersectsSql}`;
}

/** SQL: the rows of one batch (DuckDB's `batchSql`), on unqualified columns. */
export function batchSql(b: IdBatch): string {
  integers([b.type, b.from ?? 0, b.to ?? 0]);
  const parts = [`type = ${b.type}`];
  if (b.from !== undefined) parts.push(`id >= ${b.from}`);
  if (b.to !== undefined) parts.push(`id < ${b.to}`);
  return `(${parts.join(' AND ')})`;
}

/** The rows an extraction will sort, per element type (DuckDB's `typeRowsSql`). */
export function typeRowsSql(t: ChTables, where: string): ChStatement<TypeRowsRow> {
  return chStatement(
    `SELECT type1 AS type, n1 AS n, vertices1 AS vertices, minor1 AS minor
FROM (
  SELECT toInt32(type) AS type1, toFloat64(count()) AS n1, toFloat64(sum(vertices)) AS vertices1, toFloat64(countIf(minor_version > 0)) AS minor1
  FROM ${t.entry}
  WHERE ${where}
  GROUP BY type
)
ORDER BY type1`,
    { type: 'Int32', n: 'Float64', vertices: 'Float64', minor: 'Float64' },
  );
}

/**
 * The ids that cut the candidates of one type into `parts` batches of about equal count (DuckDB's
 * `idCutsSql`): `quantiles` samples 8,192 ids (bounded memory), not `SAMPLE_PER_BATCH` a batch; no
 * cut when there are no rows (NaN).
 */
export function idCutsSql(t: ChTables, p: { where: string; type: number; parts: number }): ChStatement<{ cuts: number[] }> {
  if (!Number.isSafeInteger(p.type) || !Number.isSafeInteger(p.parts) || p.parts < 2) throw new RangeError(`bad batch cut: type ${p.type}, ${p.parts} parts`);
  const qs = Array.from({ length: p.parts - 1 }, (_, i) => ((i + 1) / p.parts).toPrecision(17));
  return chStatement(
    `SELECT arrayFilter(x -> NOT isNaN(x), arrayMap(x -> toFloat64(x), quantiles(${qs.join(', ')})(id))) AS cuts
FROM ${t.entry}
WHERE type = ${p.type} AND ${p.where}`,
    { cuts: 'Array(Float64)' },
  );
}

/**
 * The version's own state (minor version 0) of every member-induced candidate of a batch (DuckDB's
 * `versionStatesSql`). The `IN` subquery reads each shard's own states: an element's states are
 * all on one shard.
 */
export function versionStatesSql(t: ChTables, p: CandidateRows, batch: IdBatch): ChStatement<VersionStateRow> {
  return chStatement(
    `SELECT id1 AS id, version1 AS version, changeset1 AS changeset, valid_from1 AS valid_from
FROM (
  SELECT toFloat64(id) AS id1, toInt32(version) AS version1, toFloat64(changeset) AS changeset1, toFloat64(valid_from) AS valid_from1
  FROM ${t.entry}
  WHERE minor_version = 0 AND ${batchSql(batch)}
    AND (id, version) IN (SELECT id, version FROM ${t.local} WHERE minor_version > 0 AND ${batchSql(batch)} AND ${candidatesWhere(p)})
)`,
    { id: 'Float64', version: 'Int32', changeset: 'Float64', valid_from: 'Float64' },
  );
}
