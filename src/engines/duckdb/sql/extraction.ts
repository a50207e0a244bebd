/**
 * The extraction SQL shapes in DuckDB's SQL (pure text, no I/O); their rows and parameters, the
 * same on every database, are src/engines/sql/extraction-rows.ts. Every literal is a validated number (timestamps are
 * integers, areas come from sqlDouble, filters from compileSql). The query and the batch plan are
 * src/query/extraction.ts.
 */
import type { SqlAreaPlan } from '../../sql/area.js';
import { SAMPLE_PER_BATCH, type IdBatch } from '../../../query/extraction.js';
import { PREVIOUS_CONTRIBUTION_CTE } from './aggregation.js';
import { statement, type Statement } from '../../sql/statement.js';
import type {
  CandidateRows,
  ContributionExtractionParams,
  ContributionExtractionRow,
  FullHistoryExtractionParams,
  FullHistoryExtractionRow,
  SnapshotExtractionParams,
  SnapshotExtractionRow,
  TypeRowsRow,
  VersionStateRow,
} from '../../sql/extraction-rows.js';

function values(ts: readonly number[]): string {
  for (const t of ts) if (!Number.isSafeInteger(t)) throw new RangeError(`not an integer timestamp: ${t}`);
  return ts.map((t) => `(${t})`).join(', ');
}

/**
 * The geometry columns of an extraction row: the WKB, and a point's x and y. `points`: the rows
 * are nodes (a batch of type 0), whose geometry is the point at their bbox's corner (xmin =
 * xmax, ymin = ymax): read from the bbox columns, the query does not touch the geometry column
 * at all (DuckDB reads it slower, and with memory outside its buffer pool: about 100 MB on the
 * 53.7 M-row synthetic store), and the engine decodes no WKB.
 */
function geometryColumns(points = false): string {
  return points ? 'NULL::BLOB AS geometry, st.xmin AS x, st.ymin AS y' : 'st.geometry, NULL::DOUBLE AS x, NULL::DOUBLE AS y';
}

/**
 * Snapshot extraction: one row per (state valid at a timestamp). Columns: type, id, version,
 * minor version, changeset, start of the state, ts, interior, geometry, x, y (`geometryColumns`),
 * tag keys, tag values. A
 * member-induced state (minor version > 0) reports its version's changeset and start: the engine
 * looks them up with `versionStatesSql`, batch by batch (a join here made DuckDB build its hash
 * table on the side carrying the geometries, which does not fit the streaming instance's memory).
 */
export function snapshotExtractionSql(p: SnapshotExtractionParams): Statement<SnapshotExtractionRow> {
  const ts = p.timestamps;
  return statement(
    `SELECT st.type::INTEGER AS type, st.id::DOUBLE AS id, st.version::INTEGER AS version, st.minor_version::INTEGER AS minor_version,
       st.changeset::DOUBLE AS changeset, st.valid_from::DOUBLE AS valid_from, t.ts::DOUBLE AS ts,
       coalesce(${p.area.interiorSql}, FALSE) AS interior, ${geometryColumns(p.points)}, map_keys(st.tags) AS tag_keys, map_values(st.tags) AS tag_values
FROM states st JOIN (VALUES ${values(ts)}) t(ts) ON st.valid_from <= t.ts AND st.valid_to > t.ts
WHERE NOT st.deleted AND st.valid_from <= ${ts[ts.length - 1]} AND st.valid_to > ${ts[0]}
  AND ${p.area.intersectsSql} AND ${p.filterSql}
ORDER BY st.type, st.id, t.ts`,
    ['type', 'id', 'version', 'minor_version', 'changeset', 'valid_from', 'ts', 'interior', 'geometry', 'x', 'y', 'tag_keys', 'tag_values'],
  );
}

/**
 * Full-history extraction: every state overlapping [t1, t2) that is not a deletion, with its
 * interval clamped to [t1, t2]. Columns: type, id, version, minor version, changeset, from, to,
 * interior, geometry, x, y (`geometryColumns`), tag keys, tag values. A member-induced state reports its version's
 * changeset (looked up as for snapshots).
 */
export function fullHistoryExtractionSql(p: FullHistoryExtractionParams): Statement<FullHistoryExtractionRow> {
  const [t1, t2] = [p.t1, p.t2];
  values([t1, t2]);
  return statement(
    `SELECT st.type::INTEGER AS type, st.id::DOUBLE AS id, st.version::INTEGER AS version, st.minor_version::INTEGER AS minor_version,
       st.changeset::DOUBLE AS changeset, greatest(st.valid_from, ${t1})::DOUBLE AS valid_from, least(st.valid_to, ${t2})::DOUBLE AS valid_to,
       coalesce(${p.area.interiorSql}, FALSE) AS interior, ${geometryColumns(p.points)}, map_keys(st.tags) AS tag_keys, map_values(st.tags) AS tag_values
FROM states st
WHERE NOT st.deleted AND st.valid_from < ${t2} AND st.valid_to > ${t1}
  AND ${p.area.intersectsSql} AND ${p.filterSql}
ORDER BY st.type, st.id, st.valid_from, st.version, st.minor_version`,
    ['type', 'id', 'version', 'minor_version', 'changeset', 'valid_from', 'valid_to', 'interior', 'geometry', 'x', 'y', 'tag_keys', 'tag_values'],
  );
}

/**
 * Contributions extraction: the candidates of query/plan.ts `contributionCandidatesSql` (the kept,
 * not changeset-collapsed states in [t1, t2) that are or follow an "in" state, with the previous
 * kept state's facts), plus
 * what a feature prints: version, the version's changeset, the state's (contribution) changeset,
 * the tags and always both geometries.
 */
export function contributionExtractionSql(p: ContributionExtractionParams): Statement<ContributionExtractionRow> {
  const [t0, t1] = [p.t1, p.t2];
  values([t0, t1]);
  const batch = p.batchSql === undefined ? '' : ` AND ${p.batchSql}`;
  return statement(
    `WITH e AS (
  SELECT DISTINCT type, id FROM states st
  WHERE ${contributionElementsWhere({ area: p.area, t2: t1 })}${batch}
),
a AS (
  SELECT st.*, first_value(st.changeset) OVER (PARTITION BY st.type, st.id, st.version ORDER BY st.minor_version) AS version_changeset
  FROM states st SEMI JOIN e ON st.type = e.type AND st.id = e.id
  WHERE st.valid_from < ${t1}${batch}
),
s AS (
  SELECT st.type, st.id, st.valid_from, st.version, st.minor_version, st.user_id, st.deleted, st.changeset, st.version_changeset,
         coalesce(${p.filterSql}, FALSE) AS m, coalesce(${p.area.intersectsSql}, FALSE) AS hit,
         coalesce(${p.area.interiorSql}, FALSE) AS interior,
         st.tag_change, st.geometry_change, st.tag_kv, st.tag_kv_before, st.geometry, st.tags
  FROM a st
  WHERE NOT st.collapsed
),
${PREVIOUS_CONTRIBUTION_CTE}
SELECT type::INTEGER AS type, id::DOUBLE AS id, valid_from::DOUBLE AS valid_from, user_id::DOUBLE AS user_id,
       deleted, m, hit, interior, p_deleted, p_m, p_hit, p_interior, tag_change, geometry_change,
       tag_kv::DOUBLE[] AS tags, tag_kv_before::DOUBLE[] AS tags_before, geometry AS geom, p_geometry AS p_geom,
       version::INTEGER AS version, version_changeset::DOUBLE AS version_changeset, changeset::DOUBLE AS changeset,
       map_keys(tags) AS tag_keys, map_values(tags) AS tag_values
FROM w
WHERE valid_from >= ${t0}
  AND ((NOT deleted AND m AND hit) OR (p_deleted = FALSE AND p_m AND p_hit))
ORDER BY type, id, valid_from, version, minor_version`,
    [
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
      'geom',
      'p_geom',
      'version',
      'version_changeset',
      'changeset',
      'tag_keys',
      'tag_values',
    ],
  );
}

/**
 * The candidates' condition (alias `st`): not deleted, in time (the envelope of a snapshot's
 * timestamps), in the area, matching the filter.
 */
export function candidatesWhere(p: CandidateRows): string {
  values([p.t1, p.t2]);
  const time = p.kind === 'snapshot' ? `st.valid_from <= ${p.t2} AND st.valid_to > ${p.t1}` : `st.valid_from < ${p.t2} AND st.valid_to > ${p.t1}`;
  return `NOT st.deleted AND ${time} AND ${p.area.intersectsSql} AND ${p.filterSql}`;
}

/**
 * The states that make an element a contribution candidate (alias `st`): a kept state before t2
 * whose bbox meets the area (`e` of `contributionExtractionSql`).
 */
export function contributionElementsWhere(p: { area: SqlAreaPlan; t2: number }): string {
  values([p.t2]);
  return `NOT st.collapsed AND st.valid_from < ${p.t2} AND ${p.area.intersectsSql}`;
}

/**
 * The rows an extraction will sort, per element type, for the rows that meet `where` (alias `st`:
 * `candidatesWhere` or `contributionElementsWhere`): (type, count, their vertices, how many are
 * member-induced states). The engine cuts each type into batches by id (`batchCount`,
 * `idCutsSql`, `idBatches`) and runs the extraction once per batch, in (type, id) order: every
 * batch sorts little, so the stable order (type, id, time) never needs one sort (or one window)
 * of the whole result, which a country- or world-sized extraction cannot hold in a bounded
 * memory, and which delays the first feature until it ends.
 */
export function typeRowsSql(where: string): Statement<TypeRowsRow> {
  return statement(
    `SELECT st.type::INTEGER AS type, count(*)::DOUBLE AS n, sum(st.vertices)::DOUBLE AS vertices,
       count(*) FILTER (WHERE st.minor_version > 0)::DOUBLE AS minor
FROM states st
WHERE ${where}
GROUP BY st.type ORDER BY st.type`,
    ['type', 'n', 'vertices', 'minor'],
  );
}

/**
 * SQL: the ids that cut the candidates of one type into `parts` batches of about equal count: the
 * quantiles of a reservoir sample of their ids (`SAMPLE_PER_BATCH` a batch; bounded memory, one
 * scan). Ids are far from uniform — the synthetic histories tile a region with id offsets —, so
 * equal-width id ranges do not do, and DuckDB's approx_quantile left batches up to 2.2 times
 * their size (a 400 k-row batch of nodes did not fit the streaming instance's sort).
 */
export function idCutsSql(p: { where: string; type: number; parts: number }): Statement<{ cuts: number[] }> {
  if (!Number.isSafeInteger(p.type) || !Number.isSafeInteger(p.parts) || p.parts < 2) throw new RangeError(`bad batch cut: type ${p.type}, ${p.parts} parts`);
  const qs = Array.from({ length: p.parts - 1 }, (_, i) => ((i + 1) / p.parts).toPrecision(17));
  return statement(
    `SELECT quantile_disc(sample.id, [${qs.join(', ')}])::DOUBLE[] AS cuts
FROM (SELECT st.id FROM states st WHERE st.type = ${p.type} AND ${p.where}) sample
USING SAMPLE reservoir(${p.parts * SAMPLE_PER_BATCH} ROWS)`,
    ['cuts'],
  );
}

/** SQL: the rows of one batch (added to the extraction's filter). */
export function batchSql(b: IdBatch, alias = 'st'): string {
  for (const x of [b.type, b.from ?? 0, b.to ?? 0]) if (!Number.isSafeInteger(x)) throw new RangeError(`not an integer: ${x}`);
  const parts = [`${alias}.type = ${b.type}`];
  if (b.from !== undefined) parts.push(`${alias}.id >= ${b.from}`);
  if (b.to !== undefined) parts.push(`${alias}.id < ${b.to}`);
  return `(${parts.join(' AND ')})`;
}

/**
 * SQL: the version's own state (minor version 0) of every member-induced candidate of a batch,
 * as (id, version, changeset, valid_from): what such a state reports as its version's changeset
 * and start. Small (one row per member-induced candidate at most), so the engine holds it in a map.
 */
export function versionStatesSql(p: CandidateRows, batch: IdBatch): Statement<VersionStateRow> {
  return statement(
    `SELECT v.id::DOUBLE AS id, v.version::INTEGER AS version, v.changeset::DOUBLE AS changeset, v.valid_from::DOUBLE AS valid_from
FROM states v
WHERE v.minor_version = 0 AND ${batchSql(batch, 'v')}
  AND (v.id, v.version) IN (SELECT st.id, st.version FROM states st WHERE st.minor_version > 0 AND ${batchSql(batch)} AND ${candidatesWhere(p)})`,
    ['id', 'version', 'changeset', 'valid_from'],
  );
}
