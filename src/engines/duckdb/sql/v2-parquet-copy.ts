/**
 * The statements of the engine-side GeoParquet writer (../parquet/copy-writer.ts), pure text: for
 * a features or contributions request, the boundary rows to clip in TypeScript, and the SELECT
 * that DuckDB's COPY writes — the file's columns, by name, with the values the record producers
 * give (src/engines/common/parquet/feature-rows.ts, contribution-rows.ts): the same WHERE as
 * ./v2-extraction.ts, interior rows as stored, boundary rows through the temporary table of their
 * clipped geometries (a boundary row not in it does not meet the area and is left out).
 */
import { GEOMETRY_TYPE_NAME } from '../../common/parquet/geometry-output.js';
import { filterSql, isInteger, type RowContext } from '../../common/parquet/rows-common.js';
import type { ContributionsExtractionRequest, FeaturesExtractionRequest } from '../../../query/v2-requests.js';
import { OPEN_END } from '../../../store/schema.js';
import { usersJoin } from './v2-extraction.js';

/** The columns of the temporary table of clipped boundary rows (`geom` NULL: the row keeps its stored geometry). */
export const CLIP_TABLE_COLUMNS = 'rid BIGINT, geom BLOB, geom_type VARCHAR, xmin DOUBLE, ymin DOUBLE, xmax DOUBLE, ymax DOUBLE, clipped BOOLEAN';

export interface CopyStatements {
  /** The boundary rows: rid (the state's rowid), geometry_type, geometry, xmin, ymin, xmax, ymax. */
  boundary: string;
  /** The file's rows, its columns named and in the order of `columns`. */
  select(clipTable: string, columns: readonly string[]): string;
}

const TYPE_NAMES = `[${GEOMETRY_TYPE_NAME.slice(1)
  .map((n) => (n === null ? 'NULL' : `'${n}'`))
  .join(', ')}]`;

function micros(seconds: string): string {
  return `make_timestamp(${seconds}::BIGINT * 1000000)`;
}

/** The state columns of the files (COMMON_HEAD and tags), by name. */
function stateOutput(): Record<string, string> {
  return {
    osm_type: `['node', 'way', 'relation'][st.type::INTEGER + 1]`,
    osm_id: 'st.id::BIGINT',
    edit_timestamp: micros('st.valid_from'),
    valid_to_timestamp: `CASE WHEN st.valid_to >= ${OPEN_END} THEN NULL ELSE ${micros('st.valid_to')} END`,
    version: 'st.version::INTEGER',
    minor_version: 'st.minor_version::INTEGER',
    edits: 'st.edits::INTEGER',
    user_id: 'st.user_id::INTEGER',
    user_name: 'u_st.name',
    changeset_id: 'st.changeset::BIGINT',
    tags: 'st.tags',
  };
}

/** bbox, geom_type, geom, clipped: the stored geometry unless the clip table has the row's clipped one. */
function geometryOutput(): Record<string, string> {
  const stored = 'c.geom IS NULL';
  return {
    bbox: `CASE WHEN ${stored} THEN {'xmin': st.xmin::DOUBLE, 'ymin': st.ymin::DOUBLE, 'xmax': st.xmax::DOUBLE, 'ymax': st.ymax::DOUBLE}
      ELSE {'xmin': c.xmin, 'ymin': c.ymin, 'xmax': c.xmax, 'ymax': c.ymax} END`,
    geom_type: `CASE WHEN ${stored} THEN coalesce(${TYPE_NAMES}[st.geometry_type::INTEGER], 'GeometryCollection') ELSE c.geom_type END`,
    geom: `CASE WHEN ${stored} THEN st.geometry ELSE c.geom END`,
    clipped: 'coalesce(c.clipped, FALSE)',
  };
}

function selectColumns(sql: Record<string, string>, columns: readonly string[]): string {
  return columns
    .map((c) => {
      const e = sql[c];
      if (e === undefined) throw new Error(`no SQL for the GeoParquet column ${c}`);
      return `${e} AS ${c}`;
    })
    .join(',\n  ');
}

function statements(ctx: RowContext, where: string, joins: string, output: Record<string, string>): CopyStatements {
  const plan = ctx.plan;
  const withClause = plan.withSql ? `WITH ${plan.withSql}\n` : '';
  const interior = `coalesce(${plan.interiorWithSql}, FALSE)`;
  return {
    boundary: `${withClause}SELECT st.rowid AS rid, st.geometry_type::INTEGER AS geometry_type, st.geometry, st.xmin, st.ymin, st.xmax, st.ymax
FROM states st
WHERE ${where} AND NOT ${interior}`,
    // In the store's order (spatial, then by element and time): the same request gives the same
    // bytes, and the row groups' bbox statistics follow the file's rows. Without the ORDER BY the
    // rows came in the order of DuckDB's threads: the hash joins and the COPY's file rotation each
    // drop the scan's order (8 runs of one COPY wrote 3 different files).
    select: (clipTable, columns) => `${withClause}SELECT ${selectColumns(output, columns)}
FROM states st ${usersJoin('st')} ${joins} LEFT JOIN ${clipTable} c ON c.rid = st.rowid
WHERE ${where} AND (${interior} OR c.rid IS NOT NULL)
ORDER BY st.rowid`,
  };
}

export function featureCopySql(ctx: RowContext, request: FeaturesExtractionRequest): CopyStatements {
  const time =
    'at' in request.time
      ? `st.valid_from <= ${isInteger(request.time.at)} AND st.valid_to > ${isInteger(request.time.at)}`
      : `st.valid_to > ${isInteger(request.time.start)} AND st.valid_from < ${isInteger(request.time.end)}`;
  const where = `NOT st.deleted AND st.geometry_type NOT IN (0, 7) AND ${time}
  AND ${ctx.plan.intersectsSql} AND ${filterSql(ctx, request.filter, 'st')}`;
  return statements(ctx, where, '', { ...stateOutput(), ...geometryOutput() });
}

export function contributionCopySql(ctx: RowContext, request: ContributionsExtractionRequest): CopyStatements {
  const { start, end } = request.time;
  // The record producer skips a state without a bbox (contribution-rows.ts).
  const where = `NOT st.collapsed AND st.valid_from >= ${isInteger(start)} AND st.valid_from < ${isInteger(end)} AND st.xmin IS NOT NULL
  AND ${ctx.plan.intersectsSql} AND ${filterSql(ctx, request.filter, 'st', 'currentOrBefore')}`;
  const output = {
    ...stateOutput(),
    ...geometryOutput(),
    changeset_tags: 'coalesce(cs.tags, MAP([]::VARCHAR[], []::VARCHAR[]))',
    contribution_type: `CASE WHEN st.deleted THEN 'DELETION' WHEN st.is_creation THEN 'CREATION'
      WHEN st.tag_change AND st.geometry_change THEN 'TAG_GEOMETRY' WHEN st.tag_change THEN 'TAG'
      WHEN st.geometry_change THEN 'GEOMETRY' ELSE '' END`,
    tags: 'CASE WHEN st.deleted THEN st.tags_before ELSE st.tags END',
    tags_before: 'st.tags_before',
  };
  return statements(ctx, where, 'LEFT JOIN changesets cs ON cs.id = st.changeset', output);
}
