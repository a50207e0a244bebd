/**
 * Series and bin edges (docs/reference/v2-reference-and-contributions-format.md §1.3, the reference's `generate_series(start, end, interval)`): start,
 * start + k·interval (calendar-aware: P1M is a calendar month, from start each time) while ≤ end,
 * then end appended when the last step is uneven. No interval: [start, end]. At most 1000 points.
 */
import { addPeriod, parseIsoPeriod, seriesLength, type IsoPeriod } from '../../common/iso-time.js';
import { LIMITS } from '../../common/limits.js';
import { invalidInput, type Loc } from '../error-status.js';

/** The reference's `time_series_size_limit` (src/api/common/limits.ts). */
export const MAX_SERIES_POINTS = LIMITS.timestamps.v2;

export const SERIES_TOO_LARGE_MESSAGE = `The given time range and interval lead to a time series larger than ${MAX_SERIES_POINTS} points/bins. Please use a shorter time range or a larger interval.`;

/** A positive ISO-8601 duration (PnYnMnWnDTnHnMnS), or TIME_INVALID at `loc`. */
export function parseDuration(text: string, loc: Loc): IsoPeriod {
  const p = parseIsoPeriod(text);
  if (p === undefined) {
    throw invalidInput('TIME_INVALID', loc, `${JSON.stringify(text)} is not a positive ISO-8601 duration such as P1D, P1M, P1Y or PT6H.`, 'duration_parsing');
  }
  return p;
}

/**
 * The points from start to end (end > start); `loc` locates the too-large error, which is raised
 * before any point is built. Its text is the reference's, word for word (it names the limit; the
 * golden answers hold it, and clients match on it), so it does not add the series' length.
 */
export function buildSeries(start: number, end: number, period: IsoPeriod | undefined, loc: Loc): number[] {
  if (period === undefined) return [start, end];
  const steps = seriesLength(start, end, period);
  const length = steps + (addPeriod(start, period, steps - 1) === end ? 0 : 1);
  if (length > MAX_SERIES_POINTS) {
    throw invalidInput('TIME_INVALID', loc, SERIES_TOO_LARGE_MESSAGE, 'TimeSeriesTooLargeError');
  }
  const points: number[] = [];
  for (let k = 0; ; k++) {
    const t = addPeriod(start, period, k);
    if (!(t <= end)) break;
    if (k > 0 && t <= points[points.length - 1]!) break; // cannot happen for positive periods; guards the loop
    points.push(t);
    if (points.length > MAX_SERIES_POINTS) break;
  }
  if (points[points.length - 1] !== end) points.push(end);
  if (points.length > MAX_SERIES_POINTS) throw invalidInput('TIME_INVALID', loc, SERIES_TOO_LARGE_MESSAGE, 'TimeSeriesTooLargeError');
  return points;
}
