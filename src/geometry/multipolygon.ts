/**
 * Multipolygon assembly from the member ways of a `type=multipolygon|boundary` relation at one
 * moment, following the reference's `getMultiPolygonGeometry` (docs/reference/history-engine-semantics.md §2.5) plus three repairs
 * that make valid OSM multipolygons come out as valid polygons (see `AssemblyOptions`).
 */
import { anyOuterRingsOverlapPartially, evenOddArea } from './overlapping-outers.js';
import { isRing, MINIMUM_RING_SIZE, splitPinchedRings } from './pinched-rings.js';
import { joinLinesIntoRings, type NodeLine } from './ring-building.js';
import { RingIndex } from './ring-index.js';
import type { RingPairCache } from './ring-pair-cache.js';
import { reclassifyNestedOuters } from './ring-nesting.js';
import { forEachIntersectingPair, polygonContainsRing, ringBBox } from './ring-predicates.js';
import { mergeTouchingRings } from './touching-rings.js';
import type { MultiPolygon, Polygon, Position } from './types.js';

/** One visible member way: its resolved visible nodes' ids and coordinates, in parallel. */
export interface MemberLine {
  nodeIds: number[];
  coords: Position[];
}

export interface AssembledMultipolygon {
  /** null when no closed outer ring could be built: the caller falls back to a GeometryCollection. */
  geometry: Polygon | MultiPolygon | null;
  /** What was wrong with the data (open rings, degenerate rings, stray inner rings); empty if nothing. */
  problems: string[];
}

export interface AssemblyOptions {
  /**
   * false (default): apply three repairs the reference lacks, so that valid OSM multipolygons give
   * valid polygons (osm-testdata grid cases 766, 776–779):
   * - pinched *inner* rings are split like outer ones (pieces nested an odd number of times
   *   become islands);
   * - if outer rings overlap partially, the result is the even–odd area of all rings
   *   (`evenOddArea`, osm-testdata cases 775, 778);
   * - otherwise outer rings lying inside another outer ring are reinterpreted by even–odd
   *   nesting (`reclassifyNestedOuters`), instead of overlapping polygons counted twice.
   * All three only change results where the reference's polygon is invalid.
   * true: reproduce the reference exactly, defects included.
   */
  exactReference?: boolean;
  /**
   * Answers of ring-pair tests from earlier calls, reused when the same rings come again (the
   * states of one relation); results are the same with or without it.
   */
  cache?: RingPairCache;
}

/**
 * Builds the (multi)polygon of a multipolygon relation:
 * 1. joins outer and inner member lines into rings by end node ids (lines that cannot be closed
 *    are discarded and reported);
 * 2. splits pinched outer rings, turning pieces nested an odd number of times into holes
 *    (repair: the same for inner rings);
 * 3. merges inner rings that share segments;
 * 4. drops rings with fewer than 4 coordinates;
 * 5. (repair) takes the even–odd area of all rings if outer rings overlap partially, else
 *    reinterprets outer rings nested in other outer rings by even–odd depth;
 * 6. one outer ring → Polygon with every inner ring as a hole (not checked, like the reference);
 *    several → MultiPolygon where each outer gets the inner rings it contains (an inner ring
 *    contained by no outer is dropped; one contained by two is used twice).
 * Inputs are not modified; Position tuples are shared with them.
 */
export function assembleMultipolygon(outer: readonly MemberLine[], inner: readonly MemberLine[], options: AssemblyOptions = {}): AssembledMultipolygon {
  const problems: string[] = [];
  const outerJoin = joinLinesIntoRings(outer.map(toNodeLine));
  const innerJoin = joinLinesIntoRings(inner.map(toNodeLine));
  if (outerJoin.discardedLines > 0) problems.push(`${outerJoin.discardedLines} outer way(s) do not form a closed ring and were left out`);
  if (innerJoin.discardedLines > 0) problems.push(`${innerJoin.discardedLines} inner way(s) do not form a closed ring and were left out`);
  const degenerate = countDegenerate(outerJoin.rings) + countDegenerate(innerJoin.rings);
  if (degenerate > 0) problems.push(`${degenerate} ring(s) with fewer than ${MINIMUM_RING_SIZE} nodes were left out`);

  const outerSplit = splitPinchedRings(outerJoin.rings);
  let outerRings = outerSplit.kept;
  let innerRings = innerJoin.rings;
  if (!options.exactReference) {
    const innerSplit = splitPinchedRings(innerRings);
    innerRings = innerSplit.kept;
    outerRings = outerRings.concat(innerSplit.flipped);
  }
  innerRings = mergeTouchingRings(innerRings.concat(outerSplit.flipped));

  let outers = outerRings.filter(isRing).map((ring) => ring.coords);
  let inners = innerRings.filter(isRing).map((ring) => ring.coords);
  if (!options.exactReference) {
    if (anyOuterRingsOverlapPartially(outers, options.cache)) {
      const evenOdd = evenOddOrProblem(outers.concat(inners), problems);
      if (evenOdd !== undefined) return { geometry: evenOdd, problems };
    }
    ({ outers, inners } = reclassifyNestedOuters(outers, inners));
  }

  if (outers.length === 0) {
    problems.push('no closed outer ring');
    return { geometry: null, problems };
  }
  if (outers.length === 1) return { geometry: { type: 'Polygon', coordinates: [outers[0], ...inners] }, problems };
  return { geometry: withHolesAssigned(outers, inners, problems), problems };
}

/**
 * The even–odd area of the rings; undefined (carry on as the reference would) if the boolean
 * operation fails, which must not stop an import.
 */
function evenOddOrProblem(rings: Position[][], problems: string[]): Polygon | MultiPolygon | null | undefined {
  try {
    const geometry = evenOddArea(rings);
    if (geometry === null) problems.push('the overlapping outer rings cancel out');
    return geometry;
  } catch (error) {
    problems.push(`overlapping outer rings could not be resolved (${(error as Error).message})`);
    return undefined;
  }
}

function toNodeLine(member: MemberLine): NodeLine {
  return { ids: member.nodeIds, coords: member.coords };
}

function countDegenerate(rings: readonly NodeLine[]): number {
  let n = 0;
  for (const ring of rings) if (!isRing(ring)) n++;
  return n;
}

/**
 * Several outer rings: each becomes a polygon with the inner rings it contains (reference
 * `constructMultipolygonPart`; candidates are found by bbox, as the reference's STRtree does).
 */
function withHolesAssigned(outers: Position[][], inners: Position[][], problems: string[]): MultiPolygon {
  const candidates: number[][] = outers.map(() => []);
  const boxes = outers.map(ringBBox).concat(inners.map(ringBBox));
  forEachIntersectingPair(boxes, (i, j) => {
    // Pairs are (lower index, higher index); outers come first.
    if (i < outers.length && j >= outers.length) candidates[i].push(j - outers.length);
  });
  const used = new Uint8Array(inners.length);
  const polygons = outers.map((shell, o) => {
    const rings: Position[][] = [shell];
    if (candidates[o].length === 0) return rings;
    const shellIndex = new RingIndex(shell);
    for (const i of candidates[o].sort((a, b) => a - b)) {
      if (polygonContainsRing(shellIndex, inners[i])) {
        rings.push(inners[i]);
        used[i] = 1;
      }
    }
    return rings;
  });
  let stray = 0;
  for (const u of used) if (!u) stray++;
  if (stray > 0) problems.push(`${stray} inner ring(s) lie in no outer ring and were left out`);
  return { type: 'MultiPolygon', coordinates: polygons };
}
