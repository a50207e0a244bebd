/**
 * Geodesic measures of WGS84 lon/lat geometries, reproducing the reference engine's `Geo.java`
 * (OSHDB) formula by formula so that areas and lengths match to the last digits
 * (docs/reference/history-engine-semantics.md §3). All loops read the coordinate arrays in place and allocate nothing.
 */
import type { Geometry, Polygon, Position } from './types.js';

export { squarenessOf, SQUARENESS_MAX_SEGMENTS } from './squareness.js';

/** Mean earth radius (m), used for lengths. */
const EARTH_RADIUS_MEAN = 6371000;
/** WGS84 equatorial radius (m), used for areas. */
const EARTH_RADIUS_EQUATOR = 6378137;
const INVERSE_FLATTENING = 298.257223563;
/** f' = 1 − f. */
const ONE_MINUS_FLATTENING = 1 - 1 / INVERSE_FLATTENING;
/** f'^1.5: turns a WGS84 latitude into the "spherical" one used by the length formula. */
const SPHERE_FACTOR = Math.pow(ONE_MINUS_FLATTENING, 1.5);
/** Java's `Math.toRadians` multiplies by this constant (JDK ≥ 9); so do we, for identical bits. */
const DEGREES_TO_RADIANS = Math.PI / 180;

/**
 * Length in metres (docs/reference/history-engine-semantics.md §3.1): equirectangular approximation per segment on latitudes corrected by
 * `atan(f'^1.5 · tan φ)`. LineString and MultiLineString are measured; GeometryCollections sum their
 * members; points and polygons have length 0 (a polygon's rings are not counted).
 */
export function lengthOf(g: Geometry): number {
  switch (g.type) {
    case 'LineString':
      return lineLength(g.coordinates);
    case 'MultiLineString': {
      let sum = 0;
      for (const line of g.coordinates) sum += lineLength(line);
      return sum;
    }
    case 'GeometryCollection': {
      let sum = 0;
      for (const member of g.geometries) sum += lengthOf(member);
      return sum;
    }
    default:
      return 0;
  }
}

/**
 * Area in square metres (docs/reference/history-engine-semantics.md §3.2): Chamberlain–Duquette ring formula with the reference's WGS84
 * corrections. A polygon is |shell| − Σ|holes|, floored at 0; multipolygons and collections sum their
 * parts; everything else is 0. Ring orientation does not matter.
 */
export function areaOf(g: Geometry): number {
  switch (g.type) {
    case 'Polygon':
      return polygonArea(g.coordinates);
    case 'MultiPolygon': {
      let sum = 0;
      for (const polygon of g.coordinates) sum += polygonArea(polygon);
      return sum;
    }
    case 'GeometryCollection': {
      let sum = 0;
      for (const member of g.geometries) sum += areaOf(member);
      return sum;
    }
    default:
      return 0;
  }
}

/**
 * Perimeter in metres: the length of the boundary (shells and holes) of a Polygon or MultiPolygon,
 * 0 for every other type. Like the reference (`GeometryFilterPerimeter` and the ohsome API's
 * perimeter aggregation test `instanceof Polygonal`), a GeometryCollection is not polygonal and
 * has perimeter 0 even when it contains polygons.
 */
export function perimeterOf(g: Geometry): number {
  if (g.type === 'Polygon') return ringsLength(g.coordinates);
  if (g.type === 'MultiPolygon') {
    let sum = 0;
    for (const polygon of g.coordinates) sum += ringsLength(polygon);
    return sum;
  }
  return 0;
}

/**
 * Polsby–Popper compactness `4π·area / perimeter²` (docs/reference/history-engine-semantics.md §3.3): 1 for a circle; 0 for non-polygonal
 * geometries and for a zero-length boundary.
 */
export function roundnessOf(g: Geometry): number {
  if (g.type !== 'Polygon' && g.type !== 'MultiPolygon') return 0;
  return roundnessFrom(areaOf(g), perimeterOf(g));
}

/**
 * `roundnessOf` from the geometry's `areaOf` and `perimeterOf`, for callers that have both (the
 * import measures every state: computing them again doubled the cost of its polygons' measures).
 * A non-polygonal geometry has perimeter 0, hence roundness 0, as in `roundnessOf`.
 */
export function roundnessFrom(area: number, perimeter: number): number {
  if (perimeter === 0) return 0;
  return (4 * Math.PI * area) / (perimeter * perimeter);
}

/** Counts used by the `geometry.vertices|outers|inners` filters. */
export interface ShapeCounts {
  /** Number of stored coordinates (JTS `getNumPoints`), including each ring's closing coordinate. */
  vertices: number;
  /** Number of polygons (= outer rings) of a Polygon/MultiPolygon; −1 for any other type. */
  outers: number;
  /** Number of holes over all polygons of a Polygon/MultiPolygon; −1 for any other type. */
  inners: number;
}

/**
 * Vertex and ring counts with the reference's conventions (docs/reference/history-engine-semantics.md §1 metric definitions):
 * outers/inners are −1 for anything that is not a Polygon or MultiPolygon (so no integer range
 * matches them), GeometryCollections included.
 */
export function shapeCounts(g: Geometry): ShapeCounts {
  const vertices = vertexCount(g);
  if (g.type === 'Polygon') return { vertices, outers: 1, inners: holeCount(g.coordinates) };
  if (g.type === 'MultiPolygon') {
    let inners = 0;
    for (const polygon of g.coordinates) inners += holeCount(polygon);
    return { vertices, outers: g.coordinates.length, inners };
  }
  return { vertices, outers: -1, inners: -1 };
}

function vertexCount(g: Geometry): number {
  switch (g.type) {
    case 'Point':
      return isEmptyPosition(g.coordinates) ? 0 : 1;
    case 'LineString':
    case 'MultiPoint':
      return g.coordinates.length;
    case 'Polygon':
    case 'MultiLineString':
      return sumLengths(g.coordinates);
    case 'MultiPolygon': {
      let n = 0;
      for (const polygon of g.coordinates) n += sumLengths(polygon);
      return n;
    }
    case 'GeometryCollection': {
      let n = 0;
      for (const member of g.geometries) n += vertexCount(member);
      return n;
    }
  }
}

function isEmptyPosition(p: Position): boolean {
  return p.length < 2 || Number.isNaN(p[0]);
}

function sumLengths(lists: Position[][]): number {
  let n = 0;
  for (const list of lists) n += list.length;
  return n;
}

function holeCount(polygon: Polygon['coordinates']): number {
  return polygon.length > 1 ? polygon.length - 1 : 0;
}

/** Total length of a list of rings (a polygon's boundary). */
function ringsLength(rings: Position[][]): number {
  let sum = 0;
  for (const ring of rings) sum += lineLength(ring);
  return sum;
}

/** Reference `Geo.lengthOf(Coordinate[])`. */
function lineLength(coords: Position[]): number {
  const n = coords.length;
  if (n < 2) return 0;
  let dist = 0;
  let prevLon = coords[0][0] * DEGREES_TO_RADIANS;
  let prevLat = Math.atan(SPHERE_FACTOR * Math.tan(coords[0][1] * DEGREES_TO_RADIANS));
  for (let i = 1; i < n; i++) {
    const c = coords[i];
    const thisLon = c[0] * DEGREES_TO_RADIANS;
    const thisLat = Math.atan(SPHERE_FACTOR * Math.tan(c[1] * DEGREES_TO_RADIANS));
    let deltaLon = thisLon - prevLon;
    const deltaLat = thisLat - prevLat;
    deltaLon *= Math.cos((thisLat + prevLat) / 2);
    dist += Math.sqrt(deltaLon * deltaLon + deltaLat * deltaLat);
    prevLon = thisLon;
    prevLat = thisLat;
  }
  return dist * EARTH_RADIUS_MEAN;
}

function polygonArea(rings: Position[][]): number {
  if (rings.length === 0) return 0;
  let area = Math.abs(ringArea(rings[0]));
  for (let i = 1; i < rings.length; i++) area -= Math.abs(ringArea(rings[i]));
  return Math.max(0, area);
}

/**
 * Reference `Geo.ringArea`: signed area of a closed ring (closing coordinate included). The sum
 * runs over all n indices with wrap-around exactly as the reference does (which, the ring being
 * closed, visits the closing vertex twice), then scales by a radius factor taken at the middle
 * latitude of the ring's envelope.
 */
function ringArea(coords: Position[]): number {
  const n = coords.length;
  if (n <= 2) return 0;
  let sum = 0;
  let minLat = Infinity;
  let maxLat = -Infinity;
  for (let i = 0; i < n; i++) {
    let lower: number;
    let middle: number;
    let upper: number;
    if (i === n - 2) {
      lower = n - 2;
      middle = n - 1;
      upper = 0;
    } else if (i === n - 1) {
      lower = n - 1;
      middle = 0;
      upper = 1;
    } else {
      lower = i;
      middle = i + 1;
      upper = i + 2;
    }
    const lat = coords[middle][1];
    // WGS84 → spherical latitude: sin(atan(f'·tan φ)) without the atan.
    const x = ONE_MINUS_FLATTENING * Math.tan(lat * DEGREES_TO_RADIANS);
    const sinLat = x / Math.sqrt(x * x + 1.0);
    sum += (coords[upper][0] - coords[lower][0]) * DEGREES_TO_RADIANS * sinLat;
    const ownLat = coords[i][1];
    if (ownLat < minLat) minLat = ownLat;
    if (ownLat > maxLat) maxLat = ownLat;
  }
  const midLat = (maxLat + minLat) / 2;
  const cosMid = Math.cos(midLat * DEGREES_TO_RADIANS);
  return sum * (0.5 * EARTH_RADIUS_EQUATOR * EARTH_RADIUS_EQUATOR * (1 - (1 / INVERSE_FLATTENING) * (cosMid * cosMid)));
}
