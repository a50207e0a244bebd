/**
 * Intersection of a geometry with a bbox or a (multi)polygon, as the reference's JTS
 * `intersection` gives it (docs/reference/history-engine-semantics.md §2.8): points are kept when inside or on the boundary; lines
 * are cut into the pieces inside (a LineString may become a MultiLineString); polygons are
 * intersected with polygon-clipping. Empty results are null.
 *
 * Lower-dimensional leftovers follow JTS where they are all that remains: a line only touching
 * the area gives its touching point(s), a polygon only touching it gives the shared boundary
 * lines or points. Mixed results (a polygon piece plus a separate touching edge) keep only the
 * full-dimensional part, where JTS would return a GeometryCollection.
 */
import { someWkbVertex } from './wkb-vertices.js';
import polygonClipping from 'polygon-clipping';
import { prepareArea, type PreparedArea } from './clip-area.js';
import { clipLineToArea, clipLineToBBox, type LinePieces } from './clip-lines.js';
import { Location } from './ring-index.js';
import { bboxesIntersect, bboxWithin } from './ring-predicates.js';
import type { BBox, Geometry, MultiPolygon, Polygon, Position } from './types.js';

/** [minLon, minLat, maxLon, maxLat] over all coordinates; null for an empty geometry. */
export function bboxOf(g: Geometry): BBox | null {
  const box: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  extendBBox(box, g);
  return box[0] <= box[2] && box[1] <= box[3] ? box : null;
}

/** Widens `box` ([minLon, minLat, maxLon, maxLat], Infinity and −Infinity to start) by every coordinate of `g`. */
export function extendBBox(box: BBox, g: Geometry): void {
  switch (g.type) {
    case 'Point':
      extendByPositions(box, [g.coordinates]);
      return;
    case 'LineString':
    case 'MultiPoint':
      extendByPositions(box, g.coordinates);
      return;
    case 'Polygon':
    case 'MultiLineString':
      for (const list of g.coordinates) extendByPositions(box, list);
      return;
    case 'MultiPolygon':
      for (const polygon of g.coordinates) for (const ring of polygon) extendByPositions(box, ring);
      return;
    case 'GeometryCollection':
      for (const member of g.geometries) extendBBox(box, member);
      return;
  }
}

function extendByPositions(box: BBox, list: Position[]): void {
  for (const p of list) {
    if (p[0] < box[0]) box[0] = p[0];
    if (p[0] > box[2]) box[2] = p[0];
    if (p[1] < box[1]) box[1] = p[1];
    if (p[1] > box[3]) box[3] = p[1];
  }
}

/** What a clip target offers the dispatcher: its extent, point test, line cutter and polygon form. */
interface ClipTarget {
  bbox: BBox;
  containsPoint(p: Position): boolean;
  clipLine(line: Position[]): LinePieces;
  /** Coordinates for polygon-clipping, for a subject within the given bbox. */
  polygonNear(box: BBox): polygonClipping.Polygon | polygonClipping.MultiPolygon;
  /** Does the target contain everything within this bbox? (Then a geometry is kept as it is.) */
  coversBBox(box: BBox): boolean;
  /** Can we be sure, cheaply, that these polygons lie in the target (so they are kept as they are)? */
  covers(polygons: Position[][][], box: BBox): boolean;
}

/**
 * Intersection with the closed bbox [minLon, minLat, maxLon, maxLat]; the reference builds the
 * ring (min,min)→(max,min)→(max,max)→(min,max)→start from it. An inverted bbox intersects nothing.
 */
export function clipToBBox(g: Geometry, bbox: BBox): Geometry | null {
  const [minX, minY, maxX, maxY] = bbox;
  if (!(minX <= maxX && minY <= maxY)) return null;
  const target: ClipTarget = {
    bbox,
    containsPoint: (p) => p[0] >= minX && p[0] <= maxX && p[1] >= minY && p[1] <= maxY,
    clipLine: (line) => clipLineToBBox(line, bbox),
    polygonNear: () => [
      [
        [minX, minY],
        [maxX, minY],
        [maxX, maxY],
        [minX, maxY],
        [minX, minY],
      ],
    ],
    coversBBox: (box) => bboxWithin(box, bbox),
    covers: (_polygons, box) => bboxWithin(box, bbox),
  };
  return clipWith(g, target);
}

/** Intersection with a Polygon or MultiPolygon (boundary included). */
export function clipToPolygon(g: Geometry, area: Polygon | MultiPolygon): Geometry | null {
  const prepared = prepareArea(area);
  const target: ClipTarget = {
    bbox: prepared.bbox,
    containsPoint: (p) => prepared.locate(p) !== Location.Outside,
    clipLine: (line) => clipLineToArea(line, prepared),
    polygonNear: (box) => prepared.coordinatesNear(box),
    coversBBox: () => false,
    covers: (polygons, box) => areaCovers(prepared, polygons, box),
  };
  return clipWith(g, target);
}

/** All rings of the polygons lie in the area, and no hole of the area comes near them. */
function areaCovers(area: PreparedArea, polygons: Position[][][], box: BBox): boolean {
  if (!bboxWithin(box, area.bbox) || area.hasHoleNear(box)) return false;
  for (const polygon of polygons) {
    for (const ring of polygon) if (!clipLineToArea(ring, area).allKept) return false;
  }
  return true;
}

function clipWith(g: Geometry, target: ClipTarget): Geometry | null {
  const box = bboxOf(g);
  if (box === null || !bboxesIntersect(box, target.bbox)) return null;
  if (target.coversBBox(box)) return g;
  switch (g.type) {
    case 'Point':
      return target.containsPoint(g.coordinates) ? g : null;
    case 'MultiPoint':
      return pointsResult(g.coordinates.filter((p) => target.containsPoint(p)));
    case 'LineString':
      return linesResult([target.clipLine(g.coordinates)]);
    case 'MultiLineString':
      return linesResult(g.coordinates.map((line) => target.clipLine(line)));
    case 'Polygon':
      return polygonsResult(g, [g.coordinates], box, target);
    case 'MultiPolygon':
      return polygonsResult(g, g.coordinates, box, target);
    case 'GeometryCollection': {
      const geometries: Geometry[] = [];
      for (const member of g.geometries) {
        const clipped = clipWith(member, target);
        if (clipped !== null) geometries.push(clipped);
      }
      return geometries.length > 0 ? { type: 'GeometryCollection', geometries } : null;
    }
  }
}

function polygonsResult(g: Polygon | MultiPolygon, polygons: Position[][][], box: BBox, target: ClipTarget): Geometry | null {
  if (target.covers(polygons, box)) return g;
  const result = polygonClipping.intersection(polygons, target.polygonNear(box)) as Position[][][];
  if (result.length === 1) return { type: 'Polygon', coordinates: result[0] };
  if (result.length > 1) return { type: 'MultiPolygon', coordinates: result };
  // Interiors do not meet: what is left is where the boundaries touch.
  return linesResult(polygons.flatMap((polygon) => polygon.map((ring) => target.clipLine(ring))));
}

function linesResult(pieces: LinePieces[]): Geometry | null {
  const lines = pieces.flatMap((p) => p.lines);
  if (lines.length === 1) return { type: 'LineString', coordinates: lines[0] };
  if (lines.length > 1) return { type: 'MultiLineString', coordinates: lines };
  return pointsResult(pieces.flatMap((p) => p.touches));
}

/** Distinct points as Point or MultiPoint; null if none. */
function pointsResult(points: Position[]): Geometry | null {
  const distinct: Position[] = [];
  const seen = new Set<string>();
  for (const p of points) {
    const key = `${p[0]},${p[1]}`;
    if (!seen.has(key)) {
      seen.add(key);
      distinct.push(p);
    }
  }
  if (distinct.length === 0) return null;
  if (distinct.length === 1) return { type: 'Point', coordinates: distinct[0] };
  return { type: 'MultiPoint', coordinates: distinct };
}

/** The same test on WKB bytes, without decoding them (src/geometry/wkb-vertices.ts). */
export function wkbVertexStrictlyInsideTest(area: BBox | Polygon | MultiPolygon): (wkb: Uint8Array) => boolean {
  if (Array.isArray(area)) {
    const [minX, minY, maxX, maxY] = area;
    const inside = (x: number, y: number) => x > minX && x < maxX && y > minY && y < maxY;
    return (wkb) => someWkbVertex(wkb, inside);
  }
  const prepared = prepareArea(area);
  const [minX, minY, maxX, maxY] = prepared.bbox;
  const inside = (x: number, y: number) => x > minX && x < maxX && y > minY && y < maxY && prepared.locate([x, y]) === Location.Inside;
  return (wkb) => someWkbVertex(wkb, inside);
}
