/**
 * Time buckets in SQL (pure text). The planning side — #{k : t_k < x}, intervals and the prefix-sum
 * series — is src/query/time-plan.ts; this file renders the per-row bucket computation for DuckDB.
 * Every literal is a validated integer.
 */

import { DUCKDB_FLAVOR, type SqlFlavor } from './flavor.js';

/** Most cells of the lookup table before falling back to the CASE tree. */
const MAX_LOOKUP_CELLS = 20000;

/**
 * SQL for #{k : ts[k] < col} (ts ascending integers, `col` an integer expression). Between t_0
 * and t_last, the first form that fits:
 * - on DuckDB, a series of one step (every gap w seconds: hours, days, weeks): (col - 1 - t_0) // w + 1;
 * - on DuckDB, a calendar series (every timestamp the first of a month at midnight UTC, every gap
 *   the same number of months s: P1M, P3M, P1Y from a month's start): months from t_0 to col - 1
 *   by `datediff`, // s + 1 (issue 21: contributions/count monthly 32.8 → 30.4 ms against the
 *   lookup, whose lists the planner binds and every row reads through a scalar subquery);
 * - a lookup: the span [t_0, t_last] is cut into M cells of w seconds, w = the smallest gap
 *   between timestamps, so a cell holds at most one timestamp; per cell j the list B holds
 *   #{t < cell start} and T the timestamp inside the cell (or a sentinel), and the answer is
 *   B[j] + (T[j] < col). Two list lookups per row;
 * - timestamps too close for a small table: a balanced CASE tree (log2 N comparisons).
 * The two arithmetic forms are DuckDB's (the ELSE branch is evaluated only for the rows between
 * t_0 and t_last, so an open end never reaches `make_timestamp`); ClickHouse, which evaluates every
 * branch and whose statements were not measured with them, keeps the lookup.
 */
export function countBelowSql(col: string, ts: readonly number[], flavor: SqlFlavor = DUCKDB_FLAVOR): string {
  return countBelowWithSql(col, ts, undefined, flavor).sql;
}

/**
 * countBelowSql whose lookup lists are read from a one-row common table expression named `cte`
 * (`withSql`: `cte AS (SELECT … AS below, … AS inside)`, '' for the other forms), which the
 * statement must put in its WITH clause: DuckDB copies a list literal for every row it is indexed
 * on, a list read from a one-row CTE is a constant (contributors monthly over Andorra: the bin
 * computation 23 → 3 ms of the scan). Without `cte`, the lists are inline literals.
 */
export function countBelowWithSql(col: string, ts: readonly number[], cte?: string, flavor: SqlFlavor = DUCKDB_FLAVOR): { sql: string; withSql: string } {
  const n = ts.length;
  if (n === 1) return { sql: flavor.bit(`${col} > ${integer(ts[0])}`), withSql: '' };
  let minGap = Infinity;
  for (let k = 1; k < n; k++) minGap = Math.min(minGap, ts[k] - ts[k - 1]);
  const t0 = ts[0];
  const span = ts[n - 1] - t0;
  const w = Math.floor(minGap);
  const clamped = (inner: string) => `(CASE WHEN ${col} <= ${integer(t0)} THEN 0 WHEN ${col} > ${integer(ts[n - 1])} THEN ${n} ELSE ${inner} END)`;
  const cells = w >= 1 && Number.isSafeInteger(t0) && Number.isSafeInteger(span);
  const arithmetic = flavor.name === 'duckdb';
  if (arithmetic && cells && ts.every((t, k) => t === t0 + k * w)) {
    return { sql: clamped(`${flavor.intDiv(`${col} - ${integer(t0 + 1)}`, w)} + 1`), withSql: '' };
  }
  const months = arithmetic ? calendarStep(ts) : undefined;
  if (months !== undefined) {
    const since = `datediff('month', TIMESTAMP '${new Date(t0 * 1000).toISOString().slice(0, 10)}', make_timestamp((${col} - 1) * 1000000))`;
    return { sql: clamped(`${months === 1 ? since : flavor.intDiv(since, months)} + 1`), withSql: '' };
  }
  if (cells && Math.floor(span / w) + 1 <= MAX_LOOKUP_CELLS) {
    const m = Math.floor(span / w) + 1;
    const below: number[] = new Array(m);
    const inside: number[] = new Array(m).fill(SENTINEL);
    let k = 0;
    for (let j = 0; j < m; j++) {
      const start = t0 + j * w;
      while (k < n && ts[k] < start) k++;
      below[j] = k;
      if (k < n && ts[k] < start + w) inside[j] = ts[k];
    }
    const j = `(${flavor.intDiv(`${col} - ${integer(t0)}`, w)} + 1)`;
    const belowList = `[${below.join(',')}]`;
    const insideList = flavor.bigintList(`[${inside.join(',')}]`);
    const [b, t, withSql] = !cte
      ? [belowList, insideList, '']
      : flavor.name === 'duckdb'
        ? [`(SELECT below FROM ${cte})`, `(SELECT inside FROM ${cte})`, `${cte} AS (SELECT ${belowList} AS below, ${insideList} AS inside)`]
        : [`${cte}_below`, `${cte}_inside`, `${belowList} AS ${cte}_below, ${insideList} AS ${cte}_inside`];
    return { sql: clamped(`${flavor.at(b, j)} + ${flavor.bit(`${flavor.at(t, j)} < ${col}`)}`), withSql };
  }
  return { sql: countBelowTreeSql(col, ts), withSql: '' };
}

const SENTINEL = 9007199254740991;

/**
 * The number of months s between consecutive timestamps when every one is the first of a month at
 * 00:00 UTC and the gaps are all s months; otherwise undefined.
 */
function calendarStep(ts: readonly number[]): number | undefined {
  const monthIndex = (t: number): number | undefined => {
    if (!Number.isSafeInteger(t)) return undefined;
    const d = new Date(t * 1000);
    if (d.getUTCDate() !== 1 || t % 86400 !== 0 || d.getUTCFullYear() < 1 || d.getUTCFullYear() > 9999) return undefined;
    return d.getUTCFullYear() * 12 + d.getUTCMonth();
  };
  const first = monthIndex(ts[0]);
  const second = monthIndex(ts[1]);
  if (first === undefined || second === undefined) return undefined;
  const step = second - first;
  for (let k = 2; k < ts.length; k++) if (monthIndex(ts[k]) !== first + k * step) return undefined;
  return step;
}

/** SQL for #{k : ts[k] < col} (ts ascending): a balanced binary CASE tree. */
export function countBelowTreeSql(col: string, ts: readonly number[]): string {
  const rec = (lo: number, hi: number): string => {
    if (lo >= hi) return String(lo);
    const mid = (lo + hi) >> 1;
    return `CASE WHEN ${col} > ${integer(ts[mid])} THEN ${rec(mid + 1, hi)} ELSE ${rec(lo, mid)} END`;
  };
  return rec(0, ts.length);
}

function integer(x: number): string {
  if (!Number.isSafeInteger(x)) throw new RangeError(`timestamp is not an integer: ${x}`);
  return String(x);
}
