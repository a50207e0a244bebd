/**
 * The SQL shapes (pure: text only, no I/O). Every literal is a validated number: filter SQL comes
 * from compileSql (dictionary ids), areas and timestamps from sqlDouble / integers.
 */
import type { AreaPlan } from './area-plan.js';
import type { Measure } from './model.js';
import { countBelowSql } from './time-plan.js';

export const MEASURE_COLUMN: Record<Measure, string> = { count: '1', length: 'length', area: 'area', perimeter: 'perimeter' };

/**
 * Snapshots in one scan. Per matching state: first = #{t < valid_from}, end = #{t < valid_to}
 * (it counts at the timestamps [first, end)), its group code, and whether it is interior. Interior
 * rows are summed per (first, end, code) with the precomputed measure; boundary rows keep their
 * own group (b = rowid) and bring their geometry back for exact clipping.
 *
 *   SELECT first, end, code, sum(value), count(*), any_value(geom)
 *   FROM (SELECT …, CASE WHEN interior THEN -1 ELSE rowid END AS b FROM states
 *         WHERE NOT deleted AND valid_from <= t_last AND valid_to > t_0 AND <bbox meets area> AND <filter>)
 *   WHERE first < end GROUP BY first, end, code, b
 */
export function snapshotSql(p: { area: AreaPlan; timestamps: readonly number[]; filterSql: string; codeSql: string; measure: Measure }): string {
  const ts = p.timestamps;
  return `SELECT f::INTEGER AS f, e::INTEGER AS e, g::DOUBLE AS g, sum(v)::DOUBLE AS v, count(*)::DOUBLE AS n, any_value(geom) AS geom
FROM (
  SELECT ${countBelowSql('valid_from', ts)} AS f, ${countBelowSql('valid_to', ts)} AS e, ${p.codeSql} AS g,
         CASE WHEN interior THEN -1 ELSE rid END AS b,
         CASE WHEN interior THEN ${MEASURE_COLUMN[p.measure]} ELSE 0 END AS v,
         CASE WHEN interior THEN NULL ELSE geometry END AS geom
  FROM (
    SELECT *, rowid AS rid, coalesce(${p.area.interiorSql}, FALSE) AS interior FROM states
    WHERE NOT deleted AND valid_from <= ${ts[ts.length - 1]} AND valid_to > ${ts[0]}
      AND ${p.area.intersectsSql} AND ${p.filterSql}
  )
)
WHERE f < e
GROUP BY f, e, g, b`;
}

/**
 * Contributions. The elements with a kept state whose bbox meets the area; their kept (NOT
 * collapsed) states up to the end of the range, each with its previous kept state's facts (lag
 * over (type, id) by valid_from); the states in [t_0, t_last) where the state or its predecessor
 * could be "in" (not deleted, matching, bbox meeting the area). Geometries come back only when a
 * side is a boundary row; TypeScript (contributions.ts) clips and classifies.
 */
export function contributionSql(p: { area: AreaPlan; timestamps: readonly number[]; filterSql: string }): string {
  const ts = p.timestamps;
  const t0 = ts[0];
  const t1 = ts[ts.length - 1];
  return `WITH e AS (
  SELECT DISTINCT type, id FROM states st
  WHERE NOT st.collapsed AND st.valid_from < ${t1} AND ${p.area.intersectsSql}
),
s AS (
  SELECT st.type, st.id, st.valid_from, st.version, st.minor_version, st.user_id, st.deleted,
         coalesce(${p.filterSql}, FALSE) AS m, coalesce(${p.area.intersectsSql}, FALSE) AS hit,
         coalesce(${p.area.interiorSql}, FALSE) AS interior,
         st.tag_change, st.geometry_change, st.tag_kv, st.tag_kv_before, st.geometry
  FROM states st SEMI JOIN e ON st.type = e.type AND st.id = e.id
  WHERE NOT st.collapsed AND st.valid_from < ${t1}
),
w AS (
  SELECT *, lag(deleted) OVER win AS p_deleted, lag(m) OVER win AS p_m, lag(hit) OVER win AS p_hit,
         lag(interior) OVER win AS p_interior, lag(geometry) OVER win AS p_geometry
  FROM s WINDOW win AS (PARTITION BY type, id ORDER BY valid_from, version, minor_version)
)
SELECT type::INTEGER AS type, id::DOUBLE AS id, valid_from::DOUBLE AS valid_from, user_id::DOUBLE AS user_id,
       deleted, m, hit, interior, p_deleted, p_m, p_hit, p_interior, tag_change, geometry_change,
       tag_kv::DOUBLE[] AS tags, tag_kv_before::DOUBLE[] AS tags_before,
       CASE WHEN interior AND coalesce(p_interior, TRUE) AND NOT geometry_change THEN NULL ELSE geometry END AS geom,
       CASE WHEN interior AND coalesce(p_interior, TRUE) AND NOT geometry_change THEN NULL ELSE p_geometry END AS p_geom
FROM w
WHERE valid_from >= ${t0}
  AND ((NOT deleted AND m AND hit) OR (p_deleted = FALSE AND p_m AND p_hit))
ORDER BY type, id, valid_from, version, minor_version`;
}
