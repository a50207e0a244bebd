/**
 * Geometries as plain GeoJSON-shaped objects (lon, lat in degrees). The kernel works on these;
 * WKB is only the storage and wire encoding.
 */
export type Position = [number, number];

export interface Point {
  type: 'Point';
  coordinates: Position;
}
export interface LineString {
  type: 'LineString';
  coordinates: Position[];
}
export interface Polygon {
  type: 'Polygon';
  coordinates: Position[][];
}
export interface MultiPoint {
  type: 'MultiPoint';
  coordinates: Position[];
}
export interface MultiLineString {
  type: 'MultiLineString';
  coordinates: Position[][];
}
export interface MultiPolygon {
  type: 'MultiPolygon';
  coordinates: Position[][][];
}
export interface GeometryCollection {
  type: 'GeometryCollection';
  geometries: Geometry[];
}

export type Geometry = Point | LineString | Polygon | MultiPoint | MultiLineString | MultiPolygon | GeometryCollection;

/** [minLon, minLat, maxLon, maxLat] */
export type BBox = [number, number, number, number];
