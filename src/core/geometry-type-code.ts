/**
 * Geometry type codes: the ISO WKB type numbers, shared by the WKB codec, the store's
 * `geometry_type` column (where 0 means "no geometry") and the filter's SQL compiler.
 */
export const GEOMETRY_TYPE_CODE = {
  None: 0,
  Point: 1,
  LineString: 2,
  Polygon: 3,
  MultiPoint: 4,
  MultiLineString: 5,
  MultiPolygon: 6,
  GeometryCollection: 7,
} as const;

export type GeometryTypeName = Exclude<keyof typeof GEOMETRY_TYPE_CODE, 'None'>;
