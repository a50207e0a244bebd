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
import type { CollectionsExtractionRequest, ExtractionRecord } from '../../../query/v2-requests.js';
import type { Geometry, Position } from '../../../geometry/types.js';
import { encodeWkb } from '../../../geometry/wkb.js';
import { bboxStruct, clipOutcomes, outputGeometry } from './geometry-output.js';
import { columnsAt, setGeometry, stateRecord, storeBBox, STATE_COLUMNS, STATE_COLUMN_COUNT, type RowContext } from './rows-common.js';

/** A row: the relation's state, the member's place, the member's state, the member's geometry. */
const RELATION = columnsAt(STATE_COLUMNS);
export const MEMBER_PLACE_COLUMNS = ['pos', 'role'] as const;
const PLACE = columnsAt(MEMBER_PLACE_COLUMNS, STATE_COLUMN_COUNT);
const MEMBER = columnsAt(STATE_COLUMNS, STATE_COLUMN_COUNT + MEMBER_PLACE_COLUMNS.length);
export const MEMBER_GEOMETRY_COLUMNS = ['geometry_type', 'geometry', 'interior'] as const;
const GEOMETRY = columnsAt(MEMBER_GEOMETRY_COLUMNS, STATE_COLUMN_COUNT + MEMBER_PLACE_COLUMNS.length + STATE_COLUMN_COUNT);

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

/** The records, one batch per batch of rows (DuckDB: a chunk; a relation's collections in the batch of its last member). */
export async function* collectionRecords(ctx: RowContext, request: CollectionsExtractionRequest): AsyncGenerator<ExtractionRecord[], void, undefined> {
  const members = request.kind === 'collections_members';
  let relation: ExtractionRecord | null = null;
  let relationId = -1;
  let collector = new Collector();

  function addRelation(batch: ExtractionRecord[]): void {
    if (relation === null) return;
    for (const [family, g] of collector.geometries()) {
      const bbox = bboxStruct(g);
      if (bbox === null) continue;
      batch.push({ ...relation, tags: relation.tags, geom: encodeWkb(g), geom_type: g.type, bbox, clipped: collector.clipped[family] });
    }
    relation = null;
    collector = new Collector();
  }

  for await (const rows of ctx.db.rows(ctx.db.collections(ctx, request), ctx.signal)) {
    const batch: ExtractionRecord[] = [];
    const outcomes = await clipOutcomes(ctx.clipper, rows, GEOMETRY.geometry, GEOMETRY.interior, ctx.signal);
    for (const r of rows) {
      const turn = ctx.pause?.();
      if (turn) {
        await turn;
        checkAborted(ctx.signal);
      }
      const g = outputGeometry(
        ctx.plan,
        r[GEOMETRY.geometry] as Uint8Array,
        r[GEOMETRY.geometry_type] as number,
        storeBBox(r, MEMBER)!,
        r[GEOMETRY.interior] as boolean,
        request.clip,
        !members,
        outcomes,
      );
      if (g === null) continue;
      if (members) {
        const row = stateRecord(r, MEMBER);
        row.collection_osm_id = BigInt(r[RELATION.id] as number);
        row.member_pos = r[PLACE.pos] as number;
        row.member_role = r[PLACE.role] as string;
        batch.push(setGeometry(row, g, true));
        continue;
      }
      const id = r[RELATION.id] as number;
      if (id !== relationId) {
        addRelation(batch);
        relationId = id;
        relation = stateRecord(r, RELATION);
      }
      collector.add(g.geometry!, g.clipped);
    }
    checkAborted(ctx.signal);
    if (batch.length > 0) yield batch;
  }
  const last: ExtractionRecord[] = [];
  addRelation(last);
  if (last.length > 0) yield last;
}
