/**
 * collections.parquet and collections_members.parquet: the relations valid at the instant that
 * are not areas (geometry a GeometryCollection, and not tagged type=multipolygon/boundary, whose
 * failed assemblies also fall back to a collection) and match `filter`; their members at that
 * instant come from `relation_members` (the relation version's member list) joined to the
 * member's state valid at the instant. A member counts when it has a geometry that is not itself
 * a collection, matches `member_filter` and meets the area; a relation with no such member is
 * skipped.
 *
 * - members: one row per (relation, member position), the member's state and geometry (clipped
 *   when `clip`), with collection_osm_id, member_role, member_pos.
 * - collections: per relation, one row per member geometry family — points (MultiPoint), lines
 *   (MultiLineString), areas (MultiPolygon) — collecting its members' (clipped) geometries, with
 *   the relation's state and tags.
 *
 * Rows are ordered by relation id and member position (a sort bounded by the members of
 * non-area relations, a small part of any store), so a relation's members arrive together.
 */
import { checkAborted } from '../statements.js';
import type { CollectionsExtractionRequest } from '../../../query/v2-requests.js';
import type { Geometry, Position } from '../../../geometry/types.js';
import { encodeWkb } from '../../../geometry/wkb.js';
import { streamChunkRows as streamRows } from '../chunk-rows.js';
import type { ParquetRow } from './geoparquet-schema.js';
import { bboxStruct, outputGeometry } from './geometry-output.js';
import {
  areaSql, collectionFilterSql, isInteger, memberFilterSql, setGeometry, stateColumnsSql, stateRow, storeBBox, usersJoin, STATE_COLUMN_COUNT,
  type Emit, type RowContext,
} from './rows-common.js';

export function collectionSql(ctx: RowContext, request: CollectionsExtractionRequest): string {
  const plan = ctx.plan;
  const at = isInteger(request.time.at);
  const memberFilter = request.memberFilter ? memberFilterSql(ctx, request.memberFilter, 'ms') : 'TRUE';
  const withClause = plan.withSql ? `${plan.withSql},\n` : '';
  return `WITH ${withClause}r AS (
  SELECT st.* FROM states st
  WHERE st.type = 2 AND NOT st.deleted AND st.geometry_type = 7
    AND st.valid_from <= ${at} AND st.valid_to > ${at}
    AND ${plan.intersectsSql} AND ${collectionFilterSql(ctx, request.filter, 'st')}
)
SELECT ${stateColumnsSql('r')}, m.pos, m.role, ${stateColumnsSql('ms')}, ms.geometry_type::INTEGER, ms.geometry,
       coalesce(${areaSql(plan.interiorWithSql, 'ms')}, FALSE)
FROM r JOIN relation_members m ON m.relation_id = r.id AND m.version = r.version
JOIN states ms ON ms.type = m.member_type AND ms.id = m.member_id
  AND NOT ms.deleted AND ms.valid_from <= ${at} AND ms.valid_to > ${at} AND ms.geometry_type NOT IN (0, 7)
${usersJoin('r')} ${usersJoin('ms')}
WHERE ${areaSql(plan.intersectsSql, 'ms')} AND ${memberFilter}
ORDER BY r.id, m.pos`;
}

type Family = 'points' | 'lines' | 'polygons';

/** Collects member geometries of one relation by family. */
class Collector {
  points: Position[] = [];
  lines: Position[][] = [];
  polygons: Position[][][] = [];
  clipped = { points: false, lines: false, polygons: false };

  add(g: Geometry, clipped: boolean): void {
    switch (g.type) {
      case 'Point':
        this.points.push(g.coordinates);
        this.clipped.points ||= clipped;
        return;
      case 'MultiPoint':
        this.points.push(...g.coordinates);
        this.clipped.points ||= clipped;
        return;
      case 'LineString':
        this.lines.push(g.coordinates);
        this.clipped.lines ||= clipped;
        return;
      case 'MultiLineString':
        this.lines.push(...g.coordinates);
        this.clipped.lines ||= clipped;
        return;
      case 'Polygon':
        this.polygons.push(g.coordinates);
        this.clipped.polygons ||= clipped;
        return;
      case 'MultiPolygon':
        this.polygons.push(...g.coordinates);
        this.clipped.polygons ||= clipped;
        return;
      case 'GeometryCollection':
        for (const m of g.geometries) this.add(m, clipped);
        return;
    }
  }

  geometries(): [Family, Geometry][] {
    const out: [Family, Geometry][] = [];
    if (this.points.length) out.push(['points', { type: 'MultiPoint', coordinates: this.points }]);
    if (this.lines.length) out.push(['lines', { type: 'MultiLineString', coordinates: this.lines }]);
    if (this.polygons.length) out.push(['polygons', { type: 'MultiPolygon', coordinates: this.polygons }]);
    return out;
  }
}

export async function produceCollections(ctx: RowContext, request: CollectionsExtractionRequest, emit: Emit): Promise<void> {
  const sql = collectionSql(ctx, request);
  const n = STATE_COLUMN_COUNT;
  const members = request.kind === 'collections_members';
  let relation: ParquetRow | null = null;
  let relationId = -1;
  let collector = new Collector();

  async function flushRelation(): Promise<void> {
    if (relation === null) return;
    for (const [family, g] of collector.geometries()) {
      const bbox = bboxStruct(g);
      if (bbox === null) continue;
      const p = emit({ ...relation, tags: relation.tags, geom: encodeWkb(g), geom_type: g.type, bbox, clipped: collector.clipped[family] });
      if (p) await p;
    }
    relation = null;
    collector = new Collector();
  }

  for await (const rows of streamRows(ctx.store, sql, ctx.signal)) {
    for (const r of rows) {
      const m = n + 2; // first member state column
      const g = outputGeometry(ctx.plan, r[m + n + 1] as Uint8Array, r[m + n] as number, storeBBox(r, m)!, r[m + n + 2] as boolean, request.clip, !members);
      if (g === null) continue;
      if (members) {
        const row = stateRow(r, m);
        row.collection_osm_id = BigInt(r[1] as number);
        row.member_pos = r[n] as number;
        row.member_role = r[n + 1] as string;
        const p = emit(setGeometry(row, g, true));
        if (p) await p;
        continue;
      }
      const id = r[1] as number;
      if (id !== relationId) {
        await flushRelation();
        relationId = id;
        relation = stateRow(r, 0);
      }
      collector.add(g.geometry!, g.clipped);
    }
    checkAborted(ctx.signal);
  }
  await flushRelation();
}
