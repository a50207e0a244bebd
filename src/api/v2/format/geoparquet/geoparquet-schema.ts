/**
 * The columns of the four GeoParquet files of version 2 extraction and their `geo` metadata
 * (GeoParquet 1.1). Column names follow the documented data model of the reference
 * (`docs/source/reference/data_model.rst`, docs/reference/v2-reference-and-contributions-format.md §4.3), not its code snapshot:
 * see docs/v2-parquet.md.
 */
import type { SchemaElement } from 'hyparquet';
import type { BBoxStruct, ExtractionRecord, WrittenGeometries } from '../../../../query/v2-requests.js';

export type ParquetKind = 'features' | 'collections' | 'collections_members' | 'contributions';

/** One output row: the engine's record (query/v2-requests.ts); which fields a file has depends on its kind (columnsOf). */
export type ParquetRow = ExtractionRecord;

export type ColumnName = keyof ParquetRow;

const utf8 = (name: string, optional = false): SchemaElement => ({
  name,
  type: 'BYTE_ARRAY',
  converted_type: 'UTF8',
  logical_type: { type: 'STRING' },
  repetition_type: optional ? 'OPTIONAL' : 'REQUIRED',
});
const int32 = (name: string): SchemaElement => ({ name, type: 'INT32', repetition_type: 'REQUIRED' });
const int64 = (name: string): SchemaElement => ({ name, type: 'INT64', repetition_type: 'REQUIRED' });
const timestamp = (name: string, optional: boolean): SchemaElement => ({
  name,
  type: 'INT64',
  converted_type: 'TIMESTAMP_MICROS',
  logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' },
  repetition_type: optional ? 'OPTIONAL' : 'REQUIRED',
});
const stringMap = (name: string): SchemaElement[] => [
  { name, repetition_type: 'REQUIRED', converted_type: 'MAP', logical_type: { type: 'MAP' }, num_children: 1 },
  { name: 'key_value', repetition_type: 'REPEATED', num_children: 2 },
  utf8('key'),
  utf8('value', true),
];
/** GeoParquet's recommended field order (readers address the fields by name). */
const bbox: SchemaElement[] = [
  { name: 'bbox', repetition_type: 'OPTIONAL', num_children: 4 },
  { name: 'xmin', type: 'DOUBLE', repetition_type: 'REQUIRED' },
  { name: 'ymin', type: 'DOUBLE', repetition_type: 'REQUIRED' },
  { name: 'xmax', type: 'DOUBLE', repetition_type: 'REQUIRED' },
  { name: 'ymax', type: 'DOUBLE', repetition_type: 'REQUIRED' },
];

/** Schema fragments by column (a column may be a group: several elements). */
const ELEMENTS: Record<ColumnName, SchemaElement[]> = {
  osm_type: [utf8('osm_type')],
  osm_id: [int64('osm_id')],
  edit_timestamp: [timestamp('edit_timestamp', false)],
  valid_to_timestamp: [timestamp('valid_to_timestamp', true)],
  version: [int32('version')],
  minor_version: [int32('minor_version')],
  edits: [int32('edits')],
  user_id: [int32('user_id')],
  user_name: [utf8('user_name', true)],
  changeset_id: [int64('changeset_id')],
  changeset_tags: stringMap('changeset_tags'),
  contribution_type: [utf8('contribution_type')],
  tags: stringMap('tags'),
  tags_before: stringMap('tags_before'),
  bbox,
  geom_type: [utf8('geom_type', true)],
  geom: [{ name: 'geom', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' }],
  clipped: [{ name: 'clipped', type: 'BOOLEAN', repetition_type: 'REQUIRED' }],
  collection_osm_id: [int64('collection_osm_id')],
  member_role: [utf8('member_role')],
  member_pos: [int32('member_pos')],
};

const COMMON_HEAD: ColumnName[] = [
  'osm_type',
  'osm_id',
  'edit_timestamp',
  'valid_to_timestamp',
  'version',
  'minor_version',
  'edits',
  'user_id',
  'user_name',
  'changeset_id',
];

/** The columns of a file, in order. */
export function columnsOf(kind: ParquetKind): ColumnName[] {
  switch (kind) {
    case 'features':
    case 'collections':
      return [...COMMON_HEAD, 'tags', 'bbox', 'geom_type', 'geom', 'clipped'];
    case 'collections_members':
      return ['collection_osm_id', 'member_role', 'member_pos', ...COMMON_HEAD, 'tags', 'bbox', 'geom_type', 'geom', 'clipped'];
    case 'contributions':
      return [...COMMON_HEAD, 'changeset_tags', 'contribution_type', 'tags', 'tags_before', 'bbox', 'geom_type', 'geom'];
  }
}

/** The Parquet schema (root first) of a file. */
export function parquetSchemaOf(kind: ParquetKind): SchemaElement[] {
  const columns = columnsOf(kind);
  return [{ name: 'schema', num_children: columns.length }, ...columns.flatMap((c) => ELEMENTS[c])];
}

/** Columns with min/max statistics (readers skip row groups by them); the others skip the cost. */
export const STATISTICS_COLUMNS = new Set<ColumnName>([
  'osm_id',
  'edit_timestamp',
  'valid_to_timestamp',
  'changeset_id',
  'user_id',
  'bbox',
  'collection_osm_id',
]);

/** WKB type names GeoParquet accepts in `geometry_types`. */
const GEOMETRY_TYPES = new Set(['Point', 'LineString', 'Polygon', 'MultiPoint', 'MultiLineString', 'MultiPolygon', 'GeometryCollection']);

/**
 * Collects what the `geo` metadata reports about the written rows: the geometry types actually
 * written and the extent of their bounding boxes.
 */
export class GeoMetadataCollector {
  private readonly types = new Set<string>();
  private xmin = Infinity;
  private ymin = Infinity;
  private xmax = -Infinity;
  private ymax = -Infinity;

  add(geomType: string | null, b: BBoxStruct | null): void {
    if (geomType !== null && GEOMETRY_TYPES.has(geomType)) this.types.add(geomType);
    if (b === null) return;
    if (b.xmin < this.xmin) this.xmin = b.xmin;
    if (b.ymin < this.ymin) this.ymin = b.ymin;
    if (b.xmax > this.xmax) this.xmax = b.xmax;
    if (b.ymax > this.ymax) this.ymax = b.ymax;
  }

  /**
   * The `geo` key's JSON. `crs` is omitted: GeoParquet defines a missing crs as OGC:CRS84
   * (lon/lat WGS84), which is exactly our coordinates; the reference's EPSG:4326 PROJJSON would
   * declare lat/lon axis order. An empty file has no `bbox` (never ±Infinity).
   */
  toJson(): string {
    const column: Record<string, unknown> = {
      encoding: 'WKB',
      geometry_types: [...this.types].sort(),
      covering: { bbox: { xmin: ['bbox', 'xmin'], ymin: ['bbox', 'ymin'], xmax: ['bbox', 'xmax'], ymax: ['bbox', 'ymax'] } },
    };
    if (this.xmin <= this.xmax) column.bbox = [this.xmin, this.ymin, this.xmax, this.ymax];
    return JSON.stringify({ version: '1.1.0', primary_column: 'geom', columns: { geom: column } });
  }
}

/** The `geo` key's JSON from what an engine-side writer reports it wrote: the same as the collector's over the same rows. */
export function geoMetadataOf(written: WrittenGeometries): string {
  const geo = new GeoMetadataCollector();
  for (const t of written.geometryTypes) geo.add(t, null);
  geo.add(null, written.bbox);
  return geo.toJson();
}
