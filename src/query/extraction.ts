/**
 * Extraction (v1 §4.4) as the engine sees it: the query, the features it produces, and the SQL
 * shapes (pure text, no I/O). Every literal is a validated number (timestamps are integers, areas
 * come from sqlDouble, filters from compileSql). Rows always come back in a stable order: by type,
 * id, then time (snapshot timestamp, state start or contribution time).
 */
import type { Filter } from '../filter/index.js';
import type { Geometry } from '../geometry/types.js';
import type { AreaPlan } from './area-plan.js';
import { PREVIOUS_CONTRIBUTION_CTE } from './plan.js';
import type { AreaOfInterest } from './model.js';

export type ExtractionKind = 'snapshot' | 'fullHistory' | 'contributions' | 'latestContributions';

export interface ExtractionQuery {
  kind: ExtractionKind;
  areas: AreaOfInterest[];
  /** Epoch seconds: snapshot timestamps (ascending), or exactly [t1, t2] for the other kinds. */
  timestamps: number[];
  filter: Filter;
  /** true: geometries are clipped to the union of the areas; false: whole geometries (membership still uses the clip). */
  clipGeometry: boolean;
  /** Aborts the query: the DuckDB statement is interrupted and the iterator rejects with the reason. */
  signal?: AbortSignal;
}

/** One extracted feature before formatting. Times are epoch seconds. */
export interface ExtractedFeature {
  /** 0 node, 1 way, 2 relation. */
  type: number;
  id: number;
  /** Null only for contribution deletions. */
  geometry: Geometry | null;
  /** The tags of the state (empty for contribution deletions). */
  tags: [string, string][];
  version: number;
  /** Changeset of the element's version in force. */
  changeset: number;
  /** snapshot: the timestamp; fullHistory: clamped start; contributions: the contribution time. */
  time: number;
  /** snapshot: the start of the version in force (@lastEdit); fullHistory: clamped end. */
  time2?: number;
  /** Contributions only. */
  contribution?: { changeset: number; creation: boolean; deletion: boolean; tagChange: boolean; geometryChange: boolean };
}

function values(ts: readonly number[]): string {
  for (const t of ts) if (!Number.isSafeInteger(t)) throw new RangeError(`not an integer timestamp: ${t}`);
  return ts.map((t) => `(${t})`).join(', ');
}

/**
 * Snapshot extraction: one row per (state valid at a timestamp). Columns: type, id, version,
 * changeset and start of the version in force (a member-induced state reports its version's),
 * ts, interior, geometry, tag keys, tag values.
 */
export function snapshotExtractionSql(p: { area: AreaPlan; timestamps: readonly number[]; filterSql: string }): string {
  const ts = p.timestamps;
  return `WITH c AS NOT MATERIALIZED (
  SELECT st.type, st.id, st.version, st.minor_version, st.valid_from, st.changeset, t.ts,
         coalesce(${p.area.interiorSql}, FALSE) AS interior, st.geometry, st.tags
  FROM states st JOIN (VALUES ${values(ts)}) t(ts) ON st.valid_from <= t.ts AND st.valid_to > t.ts
  WHERE NOT st.deleted AND st.valid_from <= ${ts[ts.length - 1]} AND st.valid_to > ${ts[0]}
    AND ${p.area.intersectsSql} AND ${p.filterSql}
),
${VERSION_CTE}
SELECT c.type::INTEGER AS type, c.id::DOUBLE AS id, c.version::INTEGER AS version,
       coalesce(v.changeset, c.changeset)::DOUBLE AS changeset, coalesce(v.valid_from, c.valid_from)::DOUBLE AS valid_from,
       c.ts::DOUBLE AS ts, c.interior, c.geometry, map_keys(c.tags) AS tag_keys, map_values(c.tags) AS tag_values
FROM c ${VERSION_JOIN}
ORDER BY c.type, c.id, c.ts`;
}

/**
 * The version's own state (minor_version 0) of the member-induced states in `c`. `c` is referenced
 * twice, so it is declared NOT MATERIALIZED: materialising its geometries and tag maps costs more
 * than evaluating its (cheap, zone-map pruned) scan twice.
 */
const VERSION_CTE = `v AS (
  SELECT type, id, version, changeset, valid_from FROM states
  WHERE minor_version = 0 AND (type, id, version) IN (SELECT type, id, version FROM c WHERE minor_version > 0)
)`;
const VERSION_JOIN = 'LEFT JOIN v ON c.minor_version > 0 AND c.type = v.type AND c.id = v.id AND c.version = v.version';

/**
 * Full-history extraction: every state overlapping [t1, t2) that is not a deletion, with its
 * interval clamped to [t1, t2]. Columns: type, id, version, changeset, from, to, interior, geometry,
 * tag keys, tag values. `changeset` is the version's own changeset (minor states inherit it).
 */
export function fullHistoryExtractionSql(p: { area: AreaPlan; t1: number; t2: number; filterSql: string }): string {
  const [t1, t2] = [p.t1, p.t2];
  values([t1, t2]);
  return `WITH c AS NOT MATERIALIZED (
  SELECT st.type, st.id, st.version, st.minor_version, st.valid_from, st.valid_to, st.changeset,
         coalesce(${p.area.interiorSql}, FALSE) AS interior, st.geometry, st.tags
  FROM states st
  WHERE NOT st.deleted AND st.valid_from < ${t2} AND st.valid_to > ${t1}
    AND ${p.area.intersectsSql} AND ${p.filterSql}
),
${VERSION_CTE}
SELECT c.type::INTEGER AS type, c.id::DOUBLE AS id, c.version::INTEGER AS version,
       coalesce(v.changeset, c.changeset)::DOUBLE AS changeset,
       greatest(c.valid_from, ${t1})::DOUBLE AS valid_from, least(c.valid_to, ${t2})::DOUBLE AS valid_to,
       c.interior, c.geometry, map_keys(c.tags) AS tag_keys, map_values(c.tags) AS tag_values
FROM c ${VERSION_JOIN}
ORDER BY c.type, c.id, c.valid_from, c.version, c.minor_version`;
}

/**
 * Contributions extraction: the candidates of query/plan.ts `contributionCandidatesSql` (the kept,
 * not changeset-collapsed states in [t1, t2) that are or follow an "in" state, with the previous
 * kept state's facts), plus
 * what a feature prints: version, the version's changeset, the state's (contribution) changeset,
 * the tags and always both geometries.
 */
export function contributionExtractionSql(p: { area: AreaPlan; t1: number; t2: number; filterSql: string }): string {
  const [t0, t1] = [p.t1, p.t2];
  values([t0, t1]);
  return `WITH e AS (
  SELECT DISTINCT type, id FROM states st
  WHERE NOT st.collapsed AND st.valid_from < ${t1} AND ${p.area.intersectsSql}
),
a AS (
  SELECT st.*, first_value(st.changeset) OVER (PARTITION BY st.type, st.id, st.version ORDER BY st.minor_version) AS version_changeset
  FROM states st SEMI JOIN e ON st.type = e.type AND st.id = e.id
  WHERE st.valid_from < ${t1}
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
ORDER BY type, id, valid_from, version, minor_version`;
}

/**
 * The rows a snapshot or full-history extraction will sort, per element type: (type, min id, max id,
 * count). The engine cuts each type's id range into batches of about `BATCH_ROWS` rows and runs
 * the extraction once per batch, in (type, id) order: every batch sorts little, so the stable order
 * (type, id, time) never needs one sort of the whole result (which a country- or world-sized
 * extraction cannot hold in a bounded memory, and which delays the first feature until it ends).
 */
export function extractionBatchesSql(p: { area: AreaPlan; kind: 'snapshot' | 'fullHistory'; t1: number; t2: number; filterSql: string }): string {
  values([p.t1, p.t2]);
  const time = p.kind === 'snapshot' ? `st.valid_from <= ${p.t2} AND st.valid_to > ${p.t1}` : `st.valid_from < ${p.t2} AND st.valid_to > ${p.t1}`;
  return `SELECT st.type::INTEGER AS type, min(st.id)::DOUBLE AS lo, max(st.id)::DOUBLE AS hi, count(*)::DOUBLE AS n
FROM states st
WHERE NOT st.deleted AND ${time} AND ${p.area.intersectsSql} AND ${p.filterSql}
GROUP BY st.type ORDER BY st.type`;
}

/** About how many candidate rows one extraction batch sorts. */
export const BATCH_ROWS = 250_000;

export interface IdBatch {
  type: number;
  lo: number;
  hi: number;
}

/**
 * Cuts each type's [lo, hi] into ceil(n / batchRows) ranges of equal width, ascending (ids are not
 * uniform, so a batch may hold more or fewer rows; the engine's sort spills what does not fit).
 */
export function idBatches(stats: readonly { type: number; lo: number; hi: number; n: number }[], batchRows = BATCH_ROWS): IdBatch[] {
  const out: IdBatch[] = [];
  for (const { type, lo, hi, n } of [...stats].sort((a, b) => a.type - b.type)) {
    const k = Math.max(1, Math.ceil(n / batchRows));
    const width = Math.ceil((hi - lo + 1) / k);
    for (let from = lo; from <= hi; from += width) out.push({ type, lo: from, hi: Math.min(hi, from + width - 1) });
  }
  return out;
}

/** SQL: the rows of one batch (added to the extraction's filter). */
export function batchSql(b: IdBatch, alias = 'st'): string {
  for (const x of [b.type, b.lo, b.hi]) if (!Number.isSafeInteger(x)) throw new RangeError(`not an integer: ${x}`);
  return `(${alias}.type = ${b.type} AND ${alias}.id BETWEEN ${b.lo} AND ${b.hi})`;
}
