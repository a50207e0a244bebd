/**
 * Cutting polylines to a bbox or a prepared area. The kept parts are those in the closed area
 * (boundary included, as JTS `intersection` keeps them); consecutive kept pieces are joined into
 * runs. Positions where a line only touches the area are reported separately, so that callers can
 * return them when nothing else is left (JTS returns a Point for a line touching a polygon).
 */
import type { PreparedArea } from './clip-area.js';
import { Location } from './ring-index.js';
import type { BBox, Position } from './types.js';

export interface LinePieces {
  /** Runs of kept line, each with ≥ 2 positions. */
  lines: Position[][];
  /** Positions where the line meets the area without a kept piece there. */
  touches: Position[];
  /** Whether the whole line was kept (nothing of it lies outside). */
  allKept: boolean;
}

/** Collects runs: a piece continues the current run if it starts where the run ends. */
class RunCollector {
  readonly result: LinePieces = { lines: [], touches: [], allKept: true };
  private run: Position[] | null = null;

  /** Adds the piece from → to (`from` is the run's current end if it continues). */
  piece(from: Position, to: Position, continuesRun: boolean): void {
    if (this.run === null || !continuesRun) {
      this.end();
      this.run = [from];
    }
    this.run.push(to);
  }

  touch(p: Position): void {
    this.result.touches.push(p);
  }

  end(): void {
    if (this.run !== null && this.run.length >= 2) this.result.lines.push(this.run);
    this.run = null;
  }
}

/** Liang–Barsky clipping of each segment to the closed bbox. */
export function clipLineToBBox(line: Position[], bbox: BBox): LinePieces {
  const runs = new RunCollector();
  const [minX, minY, maxX, maxY] = bbox;
  if (line.length === 1) {
    const p = line[0];
    if (p[0] >= minX && p[0] <= maxX && p[1] >= minY && p[1] <= maxY) runs.touch(p);
  }
  const range = new Float64Array(2); // [t0, t1] of the visible part of the current segment
  let continuing = false;
  for (let i = 1; i < line.length; i++) {
    const a = line[i - 1];
    const b = line[i];
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    range[0] = 0;
    range[1] = 1;
    const visible = narrow(range, -dx, a[0] - minX) && narrow(range, dx, maxX - a[0]) && narrow(range, -dy, a[1] - minY) && narrow(range, dy, maxY - a[1]);
    if (!visible) {
      runs.result.allKept = false;
      runs.end();
      continuing = false;
      continue;
    }
    const t0 = range[0];
    const t1 = range[1];
    const from = t0 === 0 ? a : pointAt(a, b, t0);
    const to = t1 === 1 ? b : pointAt(a, b, t1);
    if (from[0] === to[0] && from[1] === to[1]) {
      runs.touch(from);
      continue;
    }
    if (t0 !== 0 || t1 !== 1) runs.result.allKept = false;
    runs.piece(from, to, continuing && t0 === 0);
    continuing = t1 === 1;
    if (!continuing) runs.end();
  }
  runs.end();
  return runs.result;
}

/**
 * One Liang–Barsky boundary test: the part of the segment with p·t ≤ q is inside this boundary;
 * narrows `range` accordingly and returns false if nothing is left.
 */
function narrow(range: Float64Array, p: number, q: number): boolean {
  if (p === 0) return q >= 0;
  const r = q / p;
  if (p < 0) {
    if (r > range[1]) return false;
    if (r > range[0]) range[0] = r;
  } else {
    if (r < range[0]) return false;
    if (r < range[1]) range[1] = r;
  }
  return true;
}

/** Cuts each segment where it crosses the area's rings and keeps the pieces in the closed area. */
export function clipLineToArea(line: Position[], area: PreparedArea): LinePieces {
  const runs = new RunCollector();
  const noteTouch = (p: Position): void => {
    if (area.locate(p) !== Location.Outside) runs.touch(p);
  };
  if (line.length === 1) noteTouch(line[0]);
  const cuts: number[] = [];
  let continuing = false;
  for (let i = 1; i < line.length; i++) {
    const a = line[i - 1];
    const b = line[i];
    if (a[0] === b[0] && a[1] === b[1]) continue; // repeated position: nothing to cut
    cuts.length = 0;
    cuts.push(0, 1);
    for (const ring of area.ringsNear(Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1]))) ring.addCutsOf(a, b, cuts);
    cuts.sort((u, v) => u - v);
    let previous = 0;
    for (let k = 1; k < cuts.length; k++) {
      const t = cuts[k];
      if (t <= previous) continue;
      const from = previous === 0 ? a : pointAt(a, b, previous);
      const to = t === 1 ? b : pointAt(a, b, t);
      if (area.locate(pointAt(a, b, (previous + t) / 2)) !== Location.Outside) {
        runs.piece(from, to, continuing);
        continuing = true;
      } else {
        runs.result.allKept = false;
        noteTouch(from);
        runs.end();
        continuing = false;
      }
      previous = t;
    }
  }
  if (line.length > 1 && !continuing) noteTouch(line[line.length - 1]);
  runs.end();
  return runs.result;
}

function pointAt(a: Position, b: Position, t: number): Position {
  return [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
}
