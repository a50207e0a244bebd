/**
 * The timestamp and period syntax of the reference (OSHDB IsoDateTimeParser, docs/reference/v1-reference-behaviour.md §1.5): UTC only,
 * an optional trailing `Z`, dates and times of fixed lengths; periods `PnYnMnWnDTnHnMnS`.
 */

const TIMESTAMP_FORMS: Record<number, RegExp> = {
  4: /^(\d{4})$/,
  6: /^(\d{4})(\d{2})$/,
  7: /^(\d{4})-(\d{2})$/,
  8: /^(\d{4})(\d{2})(\d{2})$/,
  10: /^(\d{4})-(\d{2})-(\d{2})$/,
  13: /^(\d{4})-(\d{2})-(\d{2})T(\d{2})$/,
  16: /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/,
  19: /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/,
  23: /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})$/,
};

/** Epoch seconds of an ISO timestamp in the reference's syntax (fractions of seconds dropped), or undefined. */
export function parseIsoTimestamp(text: string): number | undefined {
  let t = text.trim();
  if (t.endsWith('Z')) t = t.slice(0, -1);
  const m = TIMESTAMP_FORMS[t.length]?.exec(t);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = m[2] === undefined ? 1 : Number(m[2]);
  const day = m[3] === undefined ? 1 : Number(m[3]);
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  return utcSeconds(year, month, day, hour, minute, second);
}

function utcSeconds(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  return d.getTime() / 1000;
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

export interface IsoPeriod {
  years: number;
  months: number;
  /** Weeks folded in (7 days each). */
  days: number;
  /** The time part in seconds. */
  seconds: number;
}

const PERIOD = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d+[HMS])(\d+H)?(\d+M)?(\d+S)?)?$/;

/** A period in the reference's syntax; undefined if malformed or of zero length. */
export function parseIsoPeriod(text: string): IsoPeriod | undefined {
  const m = PERIOD.exec(text.trim());
  if (!m) return undefined;
  const n = (s: string | undefined): number => (s === undefined ? 0 : Number(s.slice(0, -1)));
  const p: IsoPeriod = {
    years: n(m[1]),
    months: n(m[2]),
    days: n(m[3]) * 7 + n(m[4]),
    seconds: n(m[6]) * 3600 + n(m[7]) * 60 + n(m[8]),
  };
  if (!Object.values(p).every(Number.isSafeInteger)) return undefined;
  if (p.years === 0 && p.months === 0 && p.days === 0 && p.seconds === 0) return undefined;
  return p;
}

/**
 * start + k·period (java.time semantics: years and months first, the day clamped to the month's
 * length, then days, then the time part), computed from start each time, not by repeated addition.
 */
export function addPeriod(startSeconds: number, period: IsoPeriod, k: number): number {
  const d = new Date(startSeconds * 1000);
  const totalMonths = d.getUTCFullYear() * 12 + d.getUTCMonth() + k * (period.years * 12 + period.months);
  const year = Math.floor(totalMonths / 12);
  const month = totalMonths - year * 12 + 1;
  const day = Math.min(d.getUTCDate(), daysInMonth(year, month));
  const date = utcSeconds(year, month, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
  return date + k * period.days * 86400 + k * period.seconds;
}

/**
 * How many timestamps from, from + period, … ≤ to there are, computed without building them: the
 * largest k with addPeriod(from, period, k) ≤ to (monotone in k for a positive period), by doubling
 * and bisection.
 */
export function seriesLength(from: number, to: number, period: IsoPeriod): number {
  const inside = (k: number) => addPeriod(from, period, k) <= to;
  let lo = 0; // inside
  let hi = 1;
  while (inside(hi)) {
    lo = hi;
    hi *= 2;
    if (hi > 2 ** 40) return hi; // more than any limit; the caller refuses it
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (inside(mid)) lo = mid;
    else hi = mid;
  }
  return lo + 1;
}

/** `YYYY-MM-DDThh:mm:ssZ`, the reference's output format. */
export function formatTimestamp(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
