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
  const seenAt = new Map<number, number>();
  for (;;) {
    seenAt.clear();
    let split = false;
    const ids = rest.ids;
    for (let position = 0; position < ids.length; position++) {
      const earlier = seenAt.get(ids[position]);
      if (earlier !== undefined) {
        (pieces ??= []).push(slice(rest, earlier, position + 1));
        rest = {
          ids: ids.slice(0, earlier).concat(ids.slice(position)),
          coords: rest.coords.slice(0, earlier).concat(rest.coords.slice(position)),
        };
        split = true;
        break;
      }
      if (position > 0) seenAt.set(ids[position], position);
    }
    if (!split) break;
  }
  if (pieces === null) return null;
  pieces.push(rest);
  return pieces;
}

function slice(line: NodeLine, from: number, to: number): NodeLine {
  return { ids: line.ids.slice(from, to), coords: line.coords.slice(from, to) };
}
