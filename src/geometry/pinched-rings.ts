/**
 * Splitting rings that pass through the same node twice (figure-8s, rings folding back to form
 * a "fake" hole), reference `splitPinchedRings` (docs/reference/history-engine-semantics.md §2.5 step 3).
 */
import type { NodeLine } from './ring-building.js';
import { RingIndex } from './ring-index.js';
import { ringCoveredBy } from './ring-predicates.js';

/** Fewer coordinates than this cannot form a ring (JTS `LinearRing.MINIMUM_VALID_SIZE`). */
export const MINIMUM_RING_SIZE = 4;

export interface SplitRings {
  /** Unpinched rings in their places, then the split-off pieces that keep the role. */
  kept: NodeLine[];
  /** Pieces covered by an odd number of the other pieces of their ring: they change role. */
  flipped: NodeLine[];
}

/**
 * Splits every pinched ring at its repeated node ids and sorts the pieces by nesting: a piece
 * covered by an even number of the other pieces keeps the ring's role, an odd number flips it
 * (for outer rings: the piece becomes a hole). Pieces too short to be rings are kept, like the
 * reference (they are dropped later with all short rings).
 */
export function splitPinchedRings(rings: readonly NodeLine[]): SplitRings {
  const kept: NodeLine[] = [];
  const additional: NodeLine[] = [];
  const flipped: NodeLine[] = [];
  for (const ring of rings) {
    const pieces = splitAtRepeatedNodes(ring);
    if (pieces === null) {
      kept.push(ring);
      continue;
    }
    const indexes = pieces.map((piece) => (isRing(piece) ? new RingIndex(piece.coords) : null));
    pieces.forEach((piece, i) => {
      let coveredBy = 0;
      for (let j = 0; j < pieces.length; j++) {
        const other = indexes[j];
        if (j !== i && other !== null && indexes[i] !== null && ringCoveredBy(piece.coords, other)) coveredBy++;
      }
      (coveredBy % 2 === 0 ? additional : flipped).push(piece);
    });
  }
  return { kept: kept.concat(additional), flipped };
}

export function isRing(line: NodeLine): boolean {
  return line.coords.length >= MINIMUM_RING_SIZE;
}

/**
 * Reference `splitPinchedRing`: repeatedly finds the first node id seen twice (the start node is
 * not memorised, as it always closes the ring), cuts the loop between both occurrences off as a
 * piece and continues with the rest. Returns null if the ring has no repeated node, otherwise the
 * split-off pieces followed by the remaining ring.
 */
function splitAtRepeatedNodes(ring: NodeLine): NodeLine[] | null {
  let pieces: NodeLine[] | null = null;
  let rest = ring;
  for (;;) {
    const ids = rest.ids;
    const position = firstRepeatedNode(ids);
    if (position < 0) break;
    const earlier = repeatedAt;
    (pieces ??= []).push(slice(rest, earlier, position + 1));
    rest = {
      ids: ids.slice(0, earlier).concat(ids.slice(position)),
      coords: rest.coords.slice(0, earlier).concat(rest.coords.slice(position)),
    };
  }
  if (pieces === null) return null;
  pieces.push(rest);
  return pieces;
}

/**
 * The scratch table of `firstRepeatedNode` (node id → position, open addressing), shared by every
 * scan: a slot is in use when its stamp is the current scan's, so no scan clears it. A Map per ring
 * was a third of the multipolygon assembly's allocations at import (347 of 1,141 MB on the
 * four-country file), each ring's growing hash table.
 */
let tableBits = 10;
let tableIds = new Float64Array(1 << tableBits);
let tablePositions = new Int32Array(1 << tableBits);
let tableStamps = new Uint32Array(1 << tableBits);
let scanStamp = 0;
/** The earlier position of the id `firstRepeatedNode` found repeated. */
let repeatedAt = -1;

/**
 * The first position whose node id occurs at an earlier position other than 0 (the start node is
 * not memorised: it closes the ring), with that earlier position in `repeatedAt`; −1 if none.
 */
function firstRepeatedNode(ids: readonly number[]): number {
  const n = ids.length;
  while (1 << tableBits < 2 * n) tableBits++;
  if (tableIds.length !== 1 << tableBits) {
    tableIds = new Float64Array(1 << tableBits);
    tablePositions = new Int32Array(1 << tableBits);
    tableStamps = new Uint32Array(1 << tableBits);
    scanStamp = 0;
  }
  if (scanStamp === 0xffffffff) {
    tableStamps.fill(0);
    scanStamp = 0;
  }
  const stamp = ++scanStamp;
  const mask = (1 << tableBits) - 1;
  const shift = 32 - tableBits;
  for (let position = 0; position < n; position++) {
    const id = ids[position];
    // Fibonacci hashing of the id's low and high 32 bits (ids are integers, possibly above 2^32).
    let slot = Math.imul((id | 0) ^ Math.imul((id / 4294967296) | 0, 0x85ebca6b), 0x9e3779b1) >>> shift;
    for (;;) {
      if (tableStamps[slot] !== stamp) {
        if (position > 0) {
          tableStamps[slot] = stamp;
          tableIds[slot] = id;
          tablePositions[slot] = position;
        }
        break;
      }
      if (tableIds[slot] === id) {
        repeatedAt = tablePositions[slot];
        return position;
      }
      slot = (slot + 1) & mask;
    }
  }
  return -1;
}

function slice(line: NodeLine, from: number, to: number): NodeLine {
  return { ids: line.ids.slice(from, to), coords: line.coords.slice(from, to) };
}
