/**
 * Time series in one pass (pure). A state [valid_from, valid_to) contributes to the snapshot
 * timestamps t_k with valid_from <= t_k < valid_to, i.e. to the index range [first, end) with
 * first = #{k : t_k < valid_from} and end = #{k : t_k < valid_to}. Both are computed per row in
 * SQL by a balanced CASE tree (log2 N comparisons per row), rows are aggregated by (first, end),
 * and `DiffSeries` turns "+v at first, −v at end" into the N values by a prefix sum.
 */

/** #{k : ts[k] < x} by binary search. */
export function countBelow(ts: readonly number[], x: number): number {
  let lo = 0;
  let hi = ts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ts[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the interval [t_i, t_{i+1}) holding x, or -1 when x is outside [t_0, t_last). */
export function intervalOf(ts: readonly number[], x: number): number {
  if (x < ts[0] || x >= ts[ts.length - 1]) return -1;
  // #{k : t_k <= x} - 1
  let lo = 0;
  let hi = ts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ts[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** A value series built from range additions: add(v, first, end) adds v to every k in [first, end). */
export class DiffSeries {
  private readonly diff: Float64Array;
  private readonly countDiff: Float64Array;
  constructor(readonly n: number) {
    this.diff = new Float64Array(n + 1);
    this.countDiff = new Float64Array(n + 1);
  }
  add(value: number, count: number, first: number, end: number): void {
    if (first >= end) return;
    this.diff[first] += value;
    this.diff[end] -= value;
    this.countDiff[first] += count;
    this.countDiff[end] -= count;
  }
  /** The values per timestamp, and whether anything was counted at any timestamp. */
  values(): { values: number[]; present: boolean } {
    const out: number[] = new Array(this.n);
    let v = 0;
    let c = 0;
    let present = false;
    for (let k = 0; k < this.n; k++) {
      v += this.diff[k];
      c += this.countDiff[k];
      // Nothing counted here: the exact value is 0 (drop the rounding residue of +v … −v).
      if (c === 0) v = 0;
      out[k] = v;
      if (c > 0) present = true;
    }
    return { values: out, present };
  }
}
