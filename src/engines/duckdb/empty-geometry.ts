/**
 * The states of ways and relations whose geometry is empty (not deleted), each with the bbox of
 * its element's whole history and what the filter looks at (`EmptyGeometryState`,
 * src/query/empty-placement.ts). The reference places such an element by that bbox (its OSH
 * entity's bbox): when the bbox lies inside the query area the element is neither clipped nor
 * dropped, so an empty geometry still counts (src/query/README.md, "Elements without geometry").
 *
 * The history bbox is the union of the bboxes of
 * - a relation: every state of every node and way member of any of its versions (relation members
 *   are never resolved, as in the reference);
 * - a way: its own states (the positions its nodes had while it referenced them; the reference's
 *   OSH way also holds the versions a node had before or after, which the store does not keep).
 * An element none of whose members ever had a position has no history bbox and is left out here
 * (the whole-world area counts it, see area-plan.ts).
 *
 * The store is read-only while an engine uses it, so the list (and its rowids) is read once per
 * engine, when the server makes its engines (`SqlQueryEngine.preload`). Every state listed belongs
 * to an element whose extent is the whole world, whose rows the store writes after all others
 * (src/store/element-extent.ts):
 * the placed branch of a statement (src/query/plan.ts) reads the last row groups only. `withm`
 * carries the type so that its LEFT JOIN is an equi-join: with `ev.type = 2` in the ON clause
 * DuckDB chose a blockwise nested-loop join, 16 of the 17.8 s of a server's first contributions
 * request at ×40 (38,000 states against 190,200 relation versions). The 4-country benchmark file: 950
 * states listed (1,801 rows without bbox, deleted ones included), 0.9–1.2 s to read on a machine
 * loaded far beyond its two cores.
 *
 * This file is DuckDB's statement; its rows become `EmptyGeometryState`s in
 * src/engines/common/empty-geometry.ts (`emptyGeometryStatesOf`), whatever database wrote them.
 */
/** The states without geometry that a query may place (before the history bbox is known), on `states`' columns. */
export const EMPTY_GEOMETRY_WHERE = 'NOT deleted AND xmin IS NULL AND type > 0';

export const EMPTY_GEOMETRY_STATES_SQL = `WITH ev AS (
  SELECT rowid AS rid, * FROM states WHERE ${EMPTY_GEOMETRY_WHERE}
),
el AS (SELECT DISTINCT type, id FROM ev),
mem AS (
  SELECT DISTINCT rm.relation_id AS rid, rm.member_type AS type, rm.member_id AS id
  FROM relation_members rm SEMI JOIN el ON el.type = 2 AND el.id = rm.relation_id
  WHERE rm.member_type < 2
),
parts AS (
  SELECT 2 AS type, mem.rid AS id, st.xmin, st.ymin, st.xmax, st.ymax
  FROM states st JOIN mem ON st.type = mem.type AND st.id = mem.id
  WHERE st.xmin IS NOT NULL
  UNION ALL
  SELECT st.type, st.id, st.xmin, st.ymin, st.xmax, st.ymax
  FROM states st SEMI JOIN el ON el.type = 1 AND st.type = 1 AND st.id = el.id
  WHERE st.xmin IS NOT NULL
),
hb AS (SELECT type, id, min(xmin) AS x0, min(ymin) AS y0, max(xmax) AS x1, max(ymax) AS y1 FROM parts GROUP BY type, id),
withm AS (
  SELECT DISTINCT 2::UTINYINT AS type, rm.relation_id AS id, rm.version FROM relation_members rm SEMI JOIN el ON el.type = 2 AND el.id = rm.relation_id
)
SELECT ev.rid::DOUBLE AS rowid, ev.type::INTEGER AS type, ev.id::DOUBLE AS id, ev.version::INTEGER AS version,
       (ev.type = 1 OR withm.id IS NOT NULL) AS members,
       hb.x0, hb.y0, hb.x1, hb.y1,
       ev.changeset::DOUBLE AS changeset, map_keys(ev.tags) AS k, map_values(ev.tags) AS v,
       map_keys(ev.tags_before) AS kb, map_values(ev.tags_before) AS vb, ev.geometry_type::INTEGER AS geometry_type,
       ev.area, ev.length, ev.perimeter, ev.vertices, ev.outers, ev.inners, ev.roundness, ev.squareness
FROM ev JOIN hb ON hb.type = ev.type AND hb.id = ev.id
LEFT JOIN withm ON withm.type = ev.type AND withm.id = ev.id AND withm.version = ev.version
ORDER BY ev.rid`;
