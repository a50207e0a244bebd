/**
 * The version 2 extraction statements in ClickHouse SQL (pure: text only, no I/O): the same rows,
 * columns (in the same order) and values as the DuckDB statements (src/engines/duckdb/sql/
 * v2-extraction.ts; the rows are described in src/engines/common/parquet/feature-rows.ts,
 * contribution-rows.ts, collection-rows.ts), written
 * to what both ClickHouse 18.16 and current servers accept. What differs, and why:
 *
 * - one JOIN per SELECT (18.16): the users and changesets lookups are each a level of their own
 *   around the scan; both tables are whole on every shard (schema.ts), so these joins are right
 *   wherever they run, and run on the entry node over the rows the shards return;
 * - a relation's member lists are on its shard (`relation_members` is sharded by relation id), so
 *   the relations are joined to them in the query that reads the entry table (each shard joins its
 *   own); the members' states are on their own shards: the relations' member rows (few: the members
 *   of the non-area relations in the area) are computed once and sent to every shard by
 *   `GLOBAL … JOIN`, where each shard joins its own member states;
 * - the columns are named bare (the area plan's and the filter's tests too) and every output column
 *   carries a prefix (`f_`, `c_`, `r_` the relation, `o_` the member): an alias never shadows a
 *   column of the same name (ClickHouse resolves a name to the SELECT's alias first);
 * - booleans are 0/1 (UInt8) and a LEFT JOIN's missing right side is the default value, not NULL:
 *   a user's name is NULL without a users row by a `found` flag, a changeset's tags are empty lists;
 * - the type tag of a relation is read from the parallel tag arrays (`tag_keys`, `tag_values`);
 * - every result column is cast to the type it is read as (RowBinary, `ChRowStatement.types`).
 */
import type { CollectionsExtractionRequest, ContributionsExtractionRequest, FeaturesExtractionRequest } from '../../../query/v2-requests.js';
import {
  collectionFilterSql,
  filterSql,
  isInteger,
  memberFilterSql,
  STATE_COLUMNS,
  type RowContext,
  type StateColumn,
} from '../../common/parquet/rows-common.js';
import type { RowStatement } from '../../common/parquet/v2-extraction.js';
import type { ChReadType } from '../row-binary.js';
import type { ChTables } from './aggregation.js';

/** A statement whose rows are read positionally: the read type of each column, in order. */
export interface ChRowStatement extends RowStatement {
  readonly types: readonly ChReadType[];
}

export function isChRowStatement(st: RowStatement): st is ChRowStatement {
  return 'types' in st;
}

/** The tables the statements read: the scan's and each shard's own `states`, and the database of the others. */
export interface ChParquetTables extends ChTables {
  database: string;
}

/** A state's columns as the scan reads them (all but `user_name`, which the users level adds), and their read types. */
const STATE_SQL: Record<StateColumn, readonly [sql: string, type: ChReadType]> = {
  type: ['toInt32(type)', 'Int32'],
  id: ['toFloat64(id)', 'Float64'],
  valid_from: ['toFloat64(valid_from)', 'Float64'],
  valid_to: ['toFloat64(valid_to)', 'Float64'],
  version: ['version', 'Int32'],
  minor_version: ['minor_version', 'Int32'],
  edits: ['edits', 'Int32'],
  user_id: ['user_id', 'Int32'],
  user_name: ['', 'Nullable(String)'],
  changeset: ['toFloat64(changeset)', 'Float64'],
  tag_keys: ['tag_keys', 'Array(String)'],
  tag_values: ['tag_values', 'Array(String)'],
  xmin: ['xmin', 'Nullable(Float64)'],
  ymin: ['ymin', 'Nullable(Float64)'],
  xmax: ['xmax', 'Nullable(Float64)'],
  ymax: ['ymax', 'Nullable(Float64)'],
};

/** The scan's SELECT items of a state's columns, named `${p}<column>` (no user_name). */
function scanStateSql(p: string): string {
  return STATE_COLUMNS.filter((c) => c !== 'user_name')
    .map((c) => `${STATE_SQL[c][0]} AS ${p}${c}`)
    .join(', ');
}

const stateNames = (p: string) => STATE_COLUMNS.map((c) => `${p}${c}`);
const STATE_TYPES: readonly ChReadType[] = STATE_COLUMNS.map((c) => STATE_SQL[c][1]);

/** A geometry's columns (geometry_type, geometry, interior), as the DuckDB statements' and read the same. */
function scanGeometrySql(ctx: RowContext, p: string): string {
  return `toInt32(geometry_type) AS ${p}geometry_type, geometry AS ${p}geometry, toUInt8(coalesce(${ctx.plan.interiorWithSql}, 0)) AS ${p}interior`;
}
const GEOMETRY_TYPES: readonly ChReadType[] = ['Int32', 'Nullable(Bytes)', 'Bool'];

function withClause(sql: string): string {
  return sql ? `WITH ${sql}\n` : '';
}

/**
 * The rows of `inner` with the name of the user `${p}user_id` as `${p}user_name` (NULL without a
 * users row, as DuckDB's LEFT JOIN), its columns `columns` in order (`${p}user_name` among them).
 * `users` is whole on every shard: the join runs on the node that gathers `inner`'s rows.
 */
function withUserName(database: string, inner: string, columns: readonly string[], p: string): string {
  const select = columns.map((c) => (c === `${p}user_name` ? `if(${p}u_found = 1, ${p}u_name, NULL) AS ${c}` : c));
  return `SELECT ${select.join(', ')}
FROM (
${inner}
) AS ${p}s
ANY LEFT JOIN (SELECT id AS ${p}user_id, name AS ${p}u_name, toUInt8(1) AS ${p}u_found FROM ${database}.users) AS ${p}u USING ${p}user_id`;
}

/** features.parquet (DuckDB's `featureSql`). */
export function featureSql(t: ChParquetTables, ctx: RowContext, request: FeaturesExtractionRequest): ChRowStatement {
  const plan = ctx.plan;
  const time =
    'at' in request.time
      ? `valid_from <= ${isInteger(request.time.at)} AND valid_to > ${isInteger(request.time.at)}`
      : `valid_to > ${isInteger(request.time.start)} AND valid_from < ${isInteger(request.time.end)}`;
  const scan = `${withClause(plan.withSql)}SELECT ${scanStateSql('f_')}, ${scanGeometrySql(ctx, 'f_')}
FROM ${t.entry}
WHERE NOT deleted AND geometry_type NOT IN (0, 7) AND ${time}
  AND ${plan.intersectsSql} AND ${filterSql(ctx, request.filter, '')}`;
  const columns = [...stateNames('f_'), 'f_geometry_type', 'f_geometry', 'f_interior'];
  return { text: withUserName(t.database, scan, columns, 'f_'), types: [...STATE_TYPES, ...GEOMETRY_TYPES] };
}

/** After the state's columns and its geometry's: the change flags, the tags before and the changeset's tags (DuckDB's CONTRIBUTION_COLUMNS). */
const CONTRIBUTION_MORE = ['deleted', 'is_creation', 'tag_change', 'geometry_change'] as const;

/**
 * contributions.parquet (DuckDB's `contributionSql`). The changesets' tags are joined on the entry
 * node after the users (a state's changeset is on no particular shard; the table is whole on each).
 */
export function contributionSql(t: ChParquetTables, ctx: RowContext, request: ContributionsExtractionRequest): ChRowStatement {
  const plan = ctx.plan;
  const { start, end } = request.time;
  const flags = CONTRIBUTION_MORE.map((c) => `${c} AS c_${c}`).join(', ');
  const scan = `${withClause(plan.withSql)}SELECT ${scanStateSql('c_')}, ${scanGeometrySql(ctx, 'c_')}, ${flags},
       tag_keys_before AS c_tags_before_keys, tag_values_before AS c_tags_before_values, changeset AS c_cs
FROM ${t.entry}
WHERE NOT collapsed AND valid_from >= ${isInteger(start)} AND valid_from < ${isInteger(end)}
  AND ${plan.intersectsSql} AND ${filterSql(ctx, request.filter, '', 'currentOrBefore')}`;
  const columns = [
    ...stateNames('c_'),
    'c_geometry_type',
    'c_geometry',
    'c_interior',
    ...CONTRIBUTION_MORE.map((c) => `c_${c}`),
    'c_tags_before_keys',
    'c_tags_before_values',
  ];
  const named = withUserName(t.database, scan, [...columns, 'c_cs'], 'c_');
  return {
    text: `SELECT ${columns.join(', ')}, c_changeset_tag_keys, c_changeset_tag_values
FROM (
${named}
) AS c_n
ANY LEFT JOIN (SELECT id AS c_cs, tag_keys AS c_changeset_tag_keys, tag_values AS c_changeset_tag_values FROM ${t.database}.changesets) AS c_c USING c_cs`,
    types: [...STATE_TYPES, ...GEOMETRY_TYPES, 'Bool', 'Bool', 'Bool', 'Bool', 'Array(String)', 'Array(String)', 'Array(String)', 'Array(String)'],
  };
}

/** The relation's `type` tag ('' when it has none) in the parallel tag arrays. */
export const TYPE_TAG_SQL = "arrayElement(tag_values, indexOf(tag_keys, 'type'))";

/**
 * collections.parquet and collections_members.parquet (DuckDB's `collectionSql`): the relation's
 * state, the member's place, the member's state and geometry, by relation id and member position.
 *
 * 1. On each shard, its relations valid at the instant that pass the filter joined to their member
 *    lists (the shard's own `relation_members`, read only for those relation versions); the
 *    relation's user name added on the entry node.
 * 2. Those rows, keyed by the member's (type, id), sent to every shard (`GLOBAL ALL INNER JOIN`),
 *    joined to the member's state valid at the instant that has a geometry, meets the area and
 *    passes the member filter; the member's user name added on the entry node, then the order.
 */
export function collectionSql(t: ChParquetTables, ctx: RowContext, request: CollectionsExtractionRequest): ChRowStatement {
  const plan = ctx.plan;
  const at = isInteger(request.time.at);
  const memberFilter = request.memberFilter ? memberFilterSql(ctx, request.memberFilter, '') : '1';
  const relation = `type = 2 AND NOT deleted AND geometry_type = 7 AND valid_from <= ${at} AND valid_to > ${at}
    AND ${plan.intersectsSql} AND ${collectionFilterSql(ctx, request.filter, '')}`;
  const relations = `SELECT ${scanStateSql('r_')}, m_pos, m_role, m_type, m_id
FROM ${t.entry}
ALL INNER JOIN (
  SELECT relation_id AS id, version, pos AS m_pos, role AS m_role, member_type AS m_type, member_id AS m_id
  FROM ${t.database}.relation_members
  WHERE (relation_id, version) IN (SELECT id, version FROM ${t.local} WHERE ${relation})
) AS m USING (id, version)
WHERE ${relation}`;
  const memberRows = withUserName(t.database, relations, [...stateNames('r_'), 'm_pos', 'm_role', 'm_type AS type', 'm_id AS id'], 'r_');
  const members = `${withClause(plan.withSql)}SELECT ${stateNames('r_').join(', ')}, m_pos, m_role, ${scanStateSql('o_')}, ${scanGeometrySql(ctx, 'o_')}
FROM ${t.entry}
GLOBAL ALL INNER JOIN (
${memberRows}
) AS r USING (type, id)
WHERE NOT deleted AND valid_from <= ${at} AND valid_to > ${at} AND geometry_type NOT IN (0, 7)
  AND ${plan.intersectsSql} AND ${memberFilter}`;
  const columns = [...stateNames('r_'), 'm_pos', 'm_role', ...stateNames('o_'), 'o_geometry_type', 'o_geometry', 'o_interior'];
  return {
    text: `${withUserName(t.database, members, columns, 'o_')}
ORDER BY r_id, m_pos`,
    types: [...STATE_TYPES, 'Int32', 'String', ...STATE_TYPES, ...GEOMETRY_TYPES],
  };
}
