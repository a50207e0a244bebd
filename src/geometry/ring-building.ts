/**
 * Joining member ways into closed rings by their end node ids (reference `buildRings`,
 * docs/reference/history-engine-semantics.md §2.5 step 2).
 */
import type { Position } from './types.js';

/** A line of nodes: ids and coordinates in parallel. */
export interface NodeLine {
  ids: number[];
  coords: Position[];
}

export interface JoinedRings {
  /** Closed lines (first id = last id), in the order they were completed. */
  rings: NodeLine[];
  /** How many of the input lines ended up in lines that could not be closed (and were discarded). */
  discardedLines: number;
}

/**
 * Greedy ring building exactly as the reference does it: take the first remaining line; while it
 * is open, scan the remaining lines in order and attach every one whose first or last node id
 * equals the current line's last or first id (checked in the order last→first, first→last,
 * last→last reversed, first→first reversed), dropping the shared node; repeat full scans while
 * something was attached. A line that stays open is discarded with everything attached to it.
 * Empty lines are skipped.
 *
 * The scan is simulated with an index from end node id to line position, so the result is the
 * reference's, but the cost is linear instead of quadratic in the number of lines. Inputs are not
 * modified.
 */
export function joinLinesIntoRings(lines: readonly NodeLine[]): JoinedRings {
  const index = new EndpointIndex(lines);
  const used = new Uint8Array(lines.length);
  const rings: NodeLine[] = [];
  let discardedLines = 0;

  for (let start = 0; start < lines.length; start++) {
    if (used[start] || lines[start].ids.length === 0) continue;
    used[start] = 1;
    const current = new GrowingLine(lines[start]);
    let joinedCount = 1;
    let closed = current.firstId() === current.lastId();
    let attachedInPass = true;
    while (!closed && attachedInPass) {
      attachedInPass = false;
      let position = 0;
      for (;;) {
        const next = index.nextMatch(current.firstId(), current.lastId(), position, used);
        if (next < 0) break;
        used[next] = 1;
        current.attach(lines[next]);
        joinedCount++;
        attachedInPass = true;
        position = next + 1;
        if (current.firstId() === current.lastId()) {
          closed = true;
          break;
        }
      }
    }
    if (closed) rings.push(current.toLine());
    else discardedLines += joinedCount;
  }
  return { rings, discardedLines };
}

/** For each end node id, the positions (ascending) of the non-empty lines starting or ending there. */
class EndpointIndex {
  private readonly byNode = new Map<number, number[]>();

  constructor(lines: readonly NodeLine[]) {
    for (let i = 0; i < lines.length; i++) {
      const ids = lines[i].ids;
      if (ids.length === 0) continue;
      this.add(ids[0], i);
      if (ids[ids.length - 1] !== ids[0]) this.add(ids[ids.length - 1], i);
    }
  }

  private add(nodeId: number, position: number): void {
    const list = this.byNode.get(nodeId);
    if (list) list.push(position);
    else this.byNode.set(nodeId, [position]);
  }

  /** The lowest unused position ≥ `from` of a line with an end at `a` or `b`; −1 if none. */
  nextMatch(a: number, b: number, from: number, used: Uint8Array): number {
    const x = this.firstFrom(a, from, used);
    const y = a === b ? -1 : this.firstFrom(b, from, used);
    if (x < 0) return y;
    if (y < 0) return x;
    return Math.min(x, y);
  }

  private firstFrom(nodeId: number, from: number, used: Uint8Array): number {
    const list = this.byNode.get(nodeId);
    if (!list) return -1;
    for (const p of list) if (p >= from && !used[p]) return p;
    return -1;
  }
}

/**
 * A line that grows at both ends without quadratic copying: prepended nodes are kept reversed in
 * `front`, appended ones in `back`.
 */
class GrowingLine {
  private readonly frontIds: number[] = [];
  private readonly frontCoords: Position[] = [];
  private readonly backIds: number[];
  private readonly backCoords: Position[];

  constructor(first: NodeLine) {
    this.backIds = first.ids.slice();
    this.backCoords = first.coords.slice();
  }

  firstId(): number {
    return this.frontIds.length > 0 ? this.frontIds[this.frontIds.length - 1] : this.backIds[0];
  }

  lastId(): number {
    return this.backIds[this.backIds.length - 1];
  }

  /** Attaches `what` at the matching end, in the reference's case order. */
  attach(what: NodeLine): void {
    const first = this.firstId();
    const last = this.lastId();
    const whatFirst = what.ids[0];
    const whatLast = what.ids[what.ids.length - 1];
    const n = what.ids.length;
    if (last === whatFirst) this.append(what, 1, n, false);
    else if (first === whatLast) this.prepend(what, 0, n - 1, false);
    else if (last === whatLast) this.append(what, 0, n - 1, true);
    else this.prepend(what, 1, n, true); // first === whatFirst
  }

  /** Appends what[from, to) at the end, reversed if asked. */
  private append(what: NodeLine, from: number, to: number, reversed: boolean): void {
    if (reversed) {
      for (let i = to - 1; i >= from; i--) this.pushBack(what, i);
    } else {
      for (let i = from; i < to; i++) this.pushBack(what, i);
    }
  }

  /** Puts what[from, to) before the start (so that it reads in order, or reversed if asked). */
  private prepend(what: NodeLine, from: number, to: number, reversed: boolean): void {
    if (reversed) {
      for (let i = from; i < to; i++) this.pushFront(what, i);
    } else {
      for (let i = to - 1; i >= from; i--) this.pushFront(what, i);
    }
  }

  private pushBack(what: NodeLine, i: number): void {
    this.backIds.push(what.ids[i]);
    this.backCoords.push(what.coords[i]);
  }

  private pushFront(what: NodeLine, i: number): void {
    this.frontIds.push(what.ids[i]);
    this.frontCoords.push(what.coords[i]);
  }

  toLine(): NodeLine {
    return {
      ids: this.frontIds.reverse().concat(this.backIds),
      coords: this.frontCoords.reverse().concat(this.backCoords),
    };
  }
}
