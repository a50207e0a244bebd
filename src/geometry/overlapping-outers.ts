/**
 * Repair (not in the reference): outer rings that partially overlap. The reference emits them as
 * separate polygons, so the overlap counts twice; libosmium and the osm-testdata grid (cases 775,
 * 778) read the rings by the even–odd rule instead, which is what we do in that case.
 */
import polygonClipping from 'polygon-clipping';
import { RingIndex } from './ring-index.js';
import { ringFingerprint, type RingPairCache } from './ring-pair-cache.js';
import { forEachIntersectingPair, locateLine, ringBBox } from './ring-predicates.js';
import type { MultiPolygon, Polygon, Position } from './types.js';

/**
 * Do any two outer rings overlap partially: interiors intersect, but neither lies within the
 * other? (Touching rings, nested rings and duplicates do not count.) `cache` keeps the answer
 * per pair of rings for the next call (the states of one relation share most of their rings).
 */
export function anyOuterRingsOverlapPartially(outers: Position[][], cache?: RingPairCache): boolean {
  if (outers.length < 2) return false;
  const indexes: Array<RingIndex | undefined> = [];
  const indexOf = (i: number): RingIndex => (indexes[i] ??= new RingIndex(outers[i]));
  const fingerprints: Array<string | undefined> = [];
  const fingerprintOf = (i: number): string => (fingerprints[i] ??= ringFingerprint(outers[i]));
  const overlapping = (i: number, j: number): boolean => crossesInto(outers[i], indexOf(j)) || crossesInto(outers[j], indexOf(i));
  let overlap = false;
  forEachIntersectingPair(outers.map(ringBBox), (i, j) => {
    if (cache === undefined) {
      overlap = overlapping(i, j);
    } else {
      const cached = cache.get(outers[i], fingerprintOf(i), outers[j], fingerprintOf(j));
      overlap = cached ?? overlapping(i, j);
      if (cached === undefined) cache.set(outers[i], fingerprintOf(i), outers[j], fingerprintOf(j), overlap);
    }
    return overlap;
  });
  return overlap;
}

/** Does `ring` have points both strictly inside and outside `other`? */
function crossesInto(ring: Position[], other: RingIndex): boolean {
  const where = locateLine(ring, other);
  return where.anyInside && where.anyOutside;
}

/**
 * The area covered by an odd number of the given rings (even–odd rule over all of them), as a
 * Polygon or MultiPolygon; null if it is empty. Computed with polygon-clipping's xor.
 */
export function evenOddArea(rings: Position[][]): Polygon | MultiPolygon | null {
  if (rings.length === 0) return null;
  const [first, ...rest] = rings.map((ring): polygonClipping.Polygon => [ring]);
  const result = polygonClipping.xor(first, ...rest) as Position[][][];
  if (result.length === 0) return null;
  if (result.length === 1) return { type: 'Polygon', coordinates: result[0] };
  return { type: 'MultiPolygon', coordinates: result };
}
