/**
 * What the store keeps of a state's geometry: WKB, bbox, spatial key and the precomputed
 * unclipped measures that the filter's geometry conditions and the aggregations' fast path read.
 */
import { bboxOf, extendBBox } from '../geometry/clip.js';
import { hilbertKey } from '../geometry/hilbert.js';
import { areaOf, lengthOf, perimeterOf, roundnessFrom, shapeCounts, squarenessOf } from '../geometry/measures.js';
import type { Geometry, GeometryCollection } from '../geometry/types.js';
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
export function geometryColumns(
  g: Geometry | null,
  wkb: Uint8Array | null,
  withMeasures: boolean,
  members?: WeakMap<Geometry, MemberMeasures>,
): GeometryColumns {
  if (g === null) return NO_GEOMETRY;
  if (members !== undefined && g.type === 'GeometryCollection') return collectionColumns(g, wkb, withMeasures, members);
  const bbox = geometryBbox(g);
  const spatialKey = spatialKeyOf(bbox);
  const typeCode = GEOMETRY_TYPE_CODE[g.type];
  // One object literal per call (no spreads): this runs once per state, millions of times.
  if (!withMeasures) return unmeasuredColumns(typeCode, wkb, bbox, spatialKey);
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

/**
 * What a collection's columns take from each member: the extent of its coordinates (`extendBBox`
 * from Infinity: a member without coordinates leaves it so), area, length and vertices.
 */
export interface MemberMeasures {
  extent: readonly [number, number, number, number];
  area: number;
  length: number;
  vertices: number;
}

/**
 * `geometryColumns` of a GeometryCollection from its members' measures, each computed once while the
 * member lives (`members`): a relation's states share the member objects that did not change
 * (history/relation-states.ts). The same values, to the bit: a collection's area, length and vertex
 * count are the sums of its members' in member order (measures.ts), its bbox the extent of all their
 * coordinates (`geometryBbox`: minima and maxima, exact in any grouping; null when no member has
 * one), its perimeter, roundness and squareness 0, outers and inners −1.
 */
function collectionColumns(g: GeometryCollection, wkb: Uint8Array | null, withMeasures: boolean, members: WeakMap<Geometry, MemberMeasures>): GeometryColumns {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  let area = 0;
  let length = 0;
  let vertices = 0;
  for (const member of g.geometries) {
    let m = members.get(member);
    if (m === undefined) {
      const extent: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
      extendBBox(extent, member);
      m = { extent, area: areaOf(member), length: lengthOf(member), vertices: shapeCounts(member).vertices };
      members.set(member, m);
    }
    const e = m.extent;
    if (e[0] < x0) x0 = e[0];
    if (e[1] < y0) y0 = e[1];
    if (e[2] > x1) x1 = e[2];
    if (e[3] > y1) y1 = e[3];
    area += m.area;
    length += m.length;
    vertices += m.vertices;
  }
  const bbox: [number, number, number, number] | null = x0 <= x1 && y0 <= y1 ? [x0, y0, x1, y1] : null;
  const spatialKey = spatialKeyOf(bbox);
  const typeCode = GEOMETRY_TYPE_CODE.GeometryCollection;
  if (!withMeasures) return unmeasuredColumns(typeCode, wkb, bbox, spatialKey);
  return { typeCode, wkb, bbox, spatialKey, area, length, perimeter: 0, vertices, outers: -1, inners: -1, roundness: 0, squareness: 0 };
}

/** The Hilbert key of a bbox's centre, the store's spatial order; 0 without a bbox. */
function spatialKeyOf(bbox: [number, number, number, number] | null): number {
  return bbox ? hilbertKey((bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2) : 0;
}

/** A deleted state's columns: its last geometry for spatial search, every measure 0. */
function unmeasuredColumns(typeCode: number, wkb: Uint8Array | null, bbox: [number, number, number, number] | null, spatialKey: number): GeometryColumns {
  return { typeCode, wkb, bbox, spatialKey, area: 0, length: 0, perimeter: 0, vertices: 0, outers: 0, inners: 0, roundness: 0, squareness: null };
}

/** The bbox the store keeps for a geometry (`xmin` … `ymax`): null without one or for an empty geometry. */
export function geometryBbox(g: Geometry | null): [number, number, number, number] | null {
  return g === null || isEmpty(g) ? null : bboxOf(g);
}

function isEmpty(g: Geometry): boolean {
  return g.type === 'GeometryCollection' ? g.geometries.every(isEmpty) : g.coordinates.length === 0;
}
