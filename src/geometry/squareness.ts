/**
 * Rectilinearity ("squareness") after Žunić & Rosin, as the reference computes it on geographic
 * coordinates (`Geo.squareness`, docs/reference/history-engine-semantics.md §3.3). It is O(segments²): for the bearing of every
 * segment, every line is rotated by that bearing and its L1 length measured; the minimum L1
 * length is compared with the L2 length.
 */
import type { Geometry, Position } from './types.js';

/** Beyond this many segments `squarenessOf` declines (returns null) instead of spending O(n²). */
export const SQUARENESS_MAX_SEGMENTS = 2000;

const DEGREES_TO_RADIANS = Math.PI / 180;

/**
 * Squareness of a Polygon (all rings), MultiPolygon (all rings of all parts) or LineString;
 * 0 for every other type (MultiLineString and GeometryCollection included, as in the reference).
 * Returns null when the geometry has more than `maxSegments` segments.
 *
 * Reference quirk kept: a supported geometry without any segment (e.g. an empty polygon) never
 * lowers the minimum L1 length from `Double.MAX_VALUE`, which yields `−π/(4−π)` ≈ −3.66.
 */
export function squarenessOf(g: Geometry, maxSegments: number = SQUARENESS_MAX_SEGMENTS): number | null {
  const lines = linesOf(g);
  if (lines === null) return 0;
  let segments = 0;
  for (const line of lines) segments += Math.max(0, line.length - 1);
  if (segments > maxSegments) return null;
  return squarenessOfLines(lines);
}

function linesOf(g: Geometry): Position[][] | null {
  switch (g.type) {
    case 'Polygon':
      return g.coordinates;
    case 'MultiPolygon':
      return g.coordinates.flat();
    case 'LineString':
      return [g.coordinates];
    default:
      return null;
  }
}

/** A line with what every rotation of it needs, computed once. */
interface PreparedLine {
  coords: Position[];
  centroidLon: number;
  centroidLat: number;
  cosCentroidLat: number;
  inverseCosCentroidLat: number;
}

function squarenessOfLines(lines: Position[][]): number {
  const prepared = lines.map(prepareLine);
  let minLengthL1 = Number.MAX_VALUE;
  for (const line of lines) {
    for (let j = 1; j < line.length; j++) {
      const angle = bearingRadians(line[j - 1], line[j]);
      const cosA = Math.cos(angle);
      const sinA = Math.sin(angle);
      let lengthL1 = 0;
      for (const other of prepared) lengthL1 += rotatedLengthL1(other, cosA, sinA);
      if (lengthL1 < minLengthL1) minLengthL1 = lengthL1;
    }
  }
  let lengthL2 = 0;
  for (const line of lines) lengthL2 += lengthL2Of(line);
  if (minLengthL1 === 0) return 0;
  return (4 / (4 - Math.PI)) * (lengthL2 / minLengthL1 - Math.PI / 4);
}

function prepareLine(coords: Position[]): PreparedLine {
  const [centroidLon, centroidLat] = lineCentroid(coords);
  const cosCentroidLat = Math.cos((centroidLat * Math.PI) / 180);
  return { coords, centroidLon, centroidLat, cosCentroidLat, inverseCosCentroidLat: 1 / cosCentroidLat };
}

/**
 * JTS `LineString.getCentroid()`: segment midpoints weighted by planar segment length; the first
 * point when the line has zero length.
 */
function lineCentroid(coords: Position[]): Position {
  let sumX = 0;
  let sumY = 0;
  let totalLength = 0;
  for (let i = 0; i < coords.length - 1; i++) {
    const a = coords[i];
    const b = coords[i + 1];
    const dx = a[0] - b[0];
    const dy = a[1] - b[1];
    const segmentLength = Math.sqrt(dx * dx + dy * dy);
    if (segmentLength === 0) continue;
    totalLength += segmentLength;
    sumX += segmentLength * ((a[0] + b[0]) / 2);
    sumY += segmentLength * ((a[1] + b[1]) / 2);
  }
  if (totalLength > 0) return [sumX / totalLength, sumY / totalLength];
  return coords.length > 0 ? [coords[0][0], coords[0][1]] : [0, 0];
}

/** Reference `Geo.bearingRadians`: initial bearing on the sphere, in [0, 2π). */
function bearingRadians(from: Position, to: Position): number {
  const x1 = (from[0] * Math.PI) / 180;
  const x2 = (to[0] * Math.PI) / 180;
  const y1 = (from[1] * Math.PI) / 180;
  const y2 = (to[1] * Math.PI) / 180;
  const y = Math.sin(x2 - x1) * Math.cos(y2);
  const x = Math.cos(y1) * Math.sin(y2) - Math.sin(y1) * Math.cos(y2) * Math.cos(x2 - x1);
  return (Math.atan2(y, x) + 2 * Math.PI) % (2 * Math.PI);
}

/**
 * Reference `gridAlignedLengthL1` + `lengthOfL1`: rotate the line about its centroid (x scaled by
 * cos(centroid latitude) while rotating) and sum Manhattan segment lengths in radians. Rotated
 * coordinates are computed on the fly instead of into a copied array.
 */
function rotatedLengthL1(line: PreparedLine, cosA: number, sinA: number): number {
  const { coords, centroidLon, centroidLat, cosCentroidLat, inverseCosCentroidLat } = line;
  const n = coords.length;
  if (n < 2) return 0;
  let dist = 0;
  let prevLon = 0;
  let prevLat = 0;
  for (let i = 0; i < n; i++) {
    const shiftedX = (coords[i][0] - centroidLon) * cosCentroidLat;
    const shiftedY = coords[i][1] - centroidLat;
    const rotatedX = shiftedX * cosA - shiftedY * sinA;
    const rotatedY = shiftedX * sinA + shiftedY * cosA;
    const thisLon = (rotatedX * inverseCosCentroidLat + centroidLon) * DEGREES_TO_RADIANS;
    const thisLat = (rotatedY + centroidLat) * DEGREES_TO_RADIANS;
    if (i > 0) {
      const deltaLon = (thisLon - prevLon) * Math.cos((thisLat + prevLat) / 2);
      dist += Math.abs(deltaLon) + Math.abs(thisLat - prevLat);
    }
    prevLon = thisLon;
    prevLat = thisLat;
  }
  return dist;
}

/** Reference `lengthOfL2`: equirectangular length in radians on uncorrected latitudes. */
function lengthL2Of(coords: Position[]): number {
  const n = coords.length;
  if (n < 2) return 0;
  let dist = 0;
  let prevLon = coords[0][0] * DEGREES_TO_RADIANS;
  let prevLat = coords[0][1] * DEGREES_TO_RADIANS;
  for (let i = 1; i < n; i++) {
    const thisLon = coords[i][0] * DEGREES_TO_RADIANS;
    const thisLat = coords[i][1] * DEGREES_TO_RADIANS;
    const deltaLon = (thisLon - prevLon) * Math.cos((thisLat + prevLat) / 2);
    const deltaLat = thisLat - prevLat;
    dist += Math.sqrt(deltaLon * deltaLon + deltaLat * deltaLat);
    prevLon = thisLon;
    prevLat = thisLat;
  }
  return dist;
}
