/**
 * Merging inner rings that share segments (node-id pairs, direction-free) into one ring without
 * the shared segments, reference `mergeTouchingRings` (docs/reference/history-engine-semantics.md §2.5 step 4).
 */
import type { NodeLine } from './ring-building.js';

/**
 * Merges touching rings as the reference does: rings are visited in order; the first segment of
 * a ring that an earlier (possibly already merged) ring owns triggers one merge of the two
 * (both are cut open at that segment, then the shared segments adjacent to the cut are shaved
 * off and the halves joined); the merged ring takes over the segments. Returns the remaining
 * rings; inputs are not modified.
 */
export function mergeTouchingRings(rings: readonly NodeLine[]): NodeLine[] {
  const owners = new SegmentOwners();
  const result: MutableRing[] = [];
  for (const input of rings) {
    let ring: MutableRing = { ids: input.ids.slice(), coords: input.coords.slice() };
    let merged = false;
    const fresh: Array<[number, number]> = [];
    for (let k = 1; k < ring.ids.length; k++) {
      const a = ring.ids[k - 1];
      const b = ring.ids[k];
      const target = owners.get(a, b);
      if (target === undefined) {
        fresh.push([a, b]);
        continue;
      }
      owners.releaseAllOf(target);
      const targetOpen = cutAtSegment(target, a, b);
      const ringOpen = cutAtSegment(ring, a, b);
      const joined = joinHalves(targetOpen, ringOpen);
      target.ids = joined.ids;
      target.coords = joined.coords;
      ring = target;
      merged = true;
      break;
    }
    if (merged) {
      for (let k = 1; k < ring.ids.length; k++) owners.set(ring.ids[k - 1], ring.ids[k], ring);
    } else {
      result.push(ring);
      for (const [a, b] of fresh) owners.set(a, b, ring);
    }
  }
  return result;
}

/** Rings are replaced in place when merged into, so the owner map keeps pointing at them. */
interface MutableRing {
  ids: number[];
  coords: NodeLine['coords'];
}

/**
 * Which ring owns each segment. Keyed by (smaller id, larger id) in nested maps, since two
 * 64-bit-ish ids do not fit one number key.
 */
class SegmentOwners {
  private readonly byLow = new Map<number, Map<number, MutableRing>>();

  get(a: number, b: number): MutableRing | undefined {
    return this.byLow.get(Math.min(a, b))?.get(Math.max(a, b));
  }

  set(a: number, b: number, ring: MutableRing): void {
    const low = Math.min(a, b);
    let inner = this.byLow.get(low);
    if (!inner) this.byLow.set(low, (inner = new Map()));
    inner.set(Math.max(a, b), ring);
  }

  /**
   * Forgets every segment owned by a ring equal to `ring`. The reference removes by list
   * equality (same nodes in the same order), not identity, which matters for duplicated rings.
   */
  releaseAllOf(ring: MutableRing): void {
    for (const [low, inner] of this.byLow) {
      for (const [high, owner] of inner) if (sameRing(owner, ring)) inner.delete(high);
      if (inner.size === 0) this.byLow.delete(low);
    }
  }
}

function sameRing(x: MutableRing, y: MutableRing): boolean {
  if (x === y) return true;
  if (x.ids.length !== y.ids.length) return false;
  for (let i = 0; i < x.ids.length; i++) {
    if (x.ids[i] !== y.ids[i] || x.coords[i][0] !== y.coords[i][0] || x.coords[i][1] !== y.coords[i][1]) return false;
  }
  return true;
}

/**
 * Reference `cutAtSegment`: drops the closing node and rotates the ring so that its two open ends
 * are the nodes of segment {a, b}. Example: (A,B,C,D,E,F,A) cut at (B,C) → (C,D,E,F,A,B).
 */
function cutAtSegment(ring: MutableRing, a: number, b: number): MutableRing {
  const ids = ring.ids.slice(1);
  const coords = ring.coords.slice(1);
  const m = ids.length;
  for (let shift = 0; shift < m; shift++) {
    const first = ids[shift];
    const last = ids[(shift + m - 1) % m];
    if ((first === a && last === b) || (first === b && last === a)) {
      return { ids: ids.slice(shift).concat(ids.slice(0, shift)), coords: coords.slice(shift).concat(coords.slice(0, shift)) };
    }
  }
  throw new Error('cut segment not found in ring');
}

/**
 * Reference `mergeSegmentsToRing`: orients both open lines oppositely, shaves off the shared
 * segments next to the joint at either end, and joins them into one closed ring.
 */
function joinHalves(target: MutableRing, source: MutableRing): MutableRing {
  let sIds = source.ids;
  let sCoords = source.coords;
  if (target.ids[0] === sIds[0]) {
    sIds = sIds.slice().reverse();
    sCoords = sCoords.slice().reverse();
  }
  const tIds = target.ids;
  let sStart = 0;
  let sEnd = sIds.length; // exclusive
  let tStart = 0;
  let tEnd = tIds.length; // exclusive
  while (sEnd - sStart > 1 && tEnd - tStart > 1 && sIds[sStart] === tIds[tEnd - 1] && sIds[sStart + 1] === tIds[tEnd - 2]) {
    sStart++;
    tEnd--;
  }
  while (sEnd - sStart > 1 && tEnd - tStart > 1 && sIds[sEnd - 1] === tIds[tStart] && sIds[sEnd - 2] === tIds[tStart + 1]) {
    sEnd--;
    tStart++;
  }
  sStart++; // the source's first node repeats the target's last one
  return {
    ids: tIds.slice(tStart, tEnd).concat(sIds.slice(sStart, sEnd)),
    coords: target.coords.slice(tStart, tEnd).concat(sCoords.slice(sStart, sEnd)),
  };
}
