/**
 * What the store keeps of a state's geometry: WKB, bbox, spatial key and the precomputed
 * unclipped measures that the filter's geometry conditions and the aggregations' fast path read.
 */
import { bboxOf } from '../geometry/clip.js';
import { hilbertKey } from '../geometry/hilbert.js';
import { areaOf, lengthOf, perimeterOf, roundnessFrom, shapeCounts, squarenessOf } from '../geometry/measures.js';
import type { Geometry } from '../geometry/types.js';
import { GEOMETRY_TYPE_CODE, PRECOMPUTED_SQUARENESS_MAX_SEGMENTS } from './schema.js';

export interface GeometryColumns {
  typeCode: number;
  wkb: Uint8Array | null;
  bbox: [number, number, number, number] | null;
  spatialKey: number;
  area: number;
  length: number;
  perimeter: number;
  vertices: number;
  outers: number;
  inners: number;
  roundness: number;
  squareness: number | null;
}

const NO_GEOMETRY: GeometryColumns = {
  typeCode: 0,
  wkb: null,
  bbox: null,
  spatialKey: 0,
  area: 0,
  length: 0,
  perimeter: 0,
  vertices: 0,
  outers: 0,
  inners: 0,
  roundness: 0,
  squareness: null,
};

/**
 * @param wkb the geometry's WKB (the history builder encodes it once, to compare states).
 * @param withMeasures false for deleted states: they keep their last geometry for spatial search, but measure 0.
 */
export function geometryColumns(g: Geometry | null, wkb: Uint8Array | null, withMeasures: boolean): GeometryColumns {
  if (g === null) return NO_GEOMETRY;
  const bbox = geometryBbox(g);
  const spatialKey = bbox ? hilbertKey((bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2) : 0;
  const typeCode = GEOMETRY_TYPE_CODE[g.type];
  // One object literal per call (no spreads): this runs once per state, millions of times.
  if (!withMeasures) {
    return { typeCode, wkb, bbox, spatialKey, area: 0, length: 0, perimeter: 0, vertices: 0, outers: 0, inners: 0, roundness: 0, squareness: null };
  }
  const counts = shapeCounts(g);
  const area = areaOf(g);
  const perimeter = perimeterOf(g);
  return {
    typeCode,
    wkb,
    bbox,
    spatialKey,
    area,
    length: lengthOf(g),
    perimeter,
    vertices: counts.vertices,
    outers: counts.outers,
    inners: counts.inners,
    roundness: roundnessFrom(area, perimeter),
    squareness: squarenessOf(g, PRECOMPUTED_SQUARENESS_MAX_SEGMENTS),
  };
}

/** The bbox the store keeps for a geometry (`xmin` … `ymax`): null without one or for an empty geometry. */
export function geometryBbox(g: Geometry | null): [number, number, number, number] | null {
  return g === null || isEmpty(g) ? null : bboxOf(g);
}

function isEmpty(g: Geometry): boolean {
  return g.type === 'GeometryCollection' ? g.geometries.every(isEmpty) : g.coordinates.length === 0;
}
