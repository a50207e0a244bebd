/**
 * `time` (docs/reference/v1-reference-behaviour.md §1.5): one timestamp, a comma list, or `start/end[/period]` with open ends meaning the
 * data's first or last timestamp (`/`, `//P1Y`, `2014-01-01/`, `/2018-01-01/P1M`, …). The result is
 * epoch seconds, ascending and without repeats.
 */
import { MaphistError } from '../../../core/errors.js';
import type { StoreMetadata } from '../../../store/metadata.js';
import { javaSplit, javaSplitCount } from './java-text.js';
import { addPeriod, parseIsoPeriod, parseIsoTimestamp, seriesLength, type IsoPeriod } from '../../common/iso-time.js';
import { limitMessage } from '../../common/limits.js';
import { v1Limit } from './limit-check.js';
import { MSG } from './messages.js';

/** How a route uses time: snapshots, intervals (≥ 2 timestamps), or exactly two (full-history and contributions extraction: `t1,t2` or `t1/t2`). */
export type TimeUse = 'snapshot' | 'intervals' | 'exactlyTwo';

/** The most timestamps one request may produce (the reference had no limit and ran out of memory): src/api/common/limits.ts. */
export const DEFAULT_MAX_TIMESTAMPS = v1Limit('timestamps');

export interface TimeContext {
  metadata: Pick<StoreMetadata, 'firstTimestamp' | 'lastTimestamp'>;
  use: TimeUse;
  maxTimestamps?: number;
}

function fail(message: string): MaphistError {
  return new MaphistError('TIME_INVALID', message);
}

/** Epoch seconds of a metadata timestamp (any ISO form Date can read). */
function metadataSeconds(text: string): number {
  const strict = parseIsoTimestamp(text);
  if (strict !== undefined) return strict;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) throw new MaphistError('TIME_OUTSIDE_DATA', `The data has no valid time range ('${text}').`);
  return Math.floor(ms / 1000);
}

export function parseTime(value: string | undefined, ctx: TimeContext): number[] {
  const first = metadataSeconds(ctx.metadata.firstTimestamp);
  const last = metadataSeconds(ctx.metadata.lastTimestamp);
  const checkInside = (t: number): number => {
    if (t < first || t > last) {
      throw new MaphistError('TIME_OUTSIDE_DATA', MSG.timeOutside(ctx.metadata.firstTimestamp, ctx.metadata.lastTimestamp));
    }
    return t;
  };
  const timestamp = (text: string): number => {
    const t = parseIsoTimestamp(text);
    if (t === undefined) throw fail(MSG.TIME_FORMAT);
    return checkInside(t);
  };
  const blank = value === undefined || value.trim() === '';
  let result: number[];
  if (blank) {
    result = ctx.use === 'snapshot' ? [last] : [first, last];
  } else if (!value.includes('/')) {
    const count = javaSplitCount(value, ',');
    if (count === 0)
      throw fail(`${MSG.TIME_FORMAT} The time parameter holds only commas; give one or more timestamps separated by commas, or start/end/period.`);
    admitTimestamps(count, ctx);
    result = javaSplit(value, ',').map(timestamp);
  } else {
    const parts = value.split('/');
    if (parts.length > 3) throw fail(MSG.TIME_FORMAT);
    const start = parts[0]!.trim() === '' ? first : timestamp(parts[0]!);
    const end = parts[1]!.trim() === '' ? last : timestamp(parts[1]!);
    const [from, to] = start <= end ? [start, end] : [end, start];
    if (parts.length === 2) {
      result = [from, to];
    } else {
      const period = parseIsoPeriod(parts[2]!);
      if (period === undefined) throw fail(MSG.TIME_PERIOD);
      admitTimestamps(seriesLength(from, to, period), ctx);
      result = series(from, to, period);
    }
  }
  result = [...new Set(result)].sort((a, b) => a - b);
  if (ctx.use !== 'snapshot' && result.length < 2) throw fail(MSG.TIME_AT_LEAST_TWO);
  // Full history and contributions extraction: `t1,t2`, or the slash form `t1/t2` the specification
  // allows (open ends too: `/t2`, `t1/`, `/`); no period series (the reference took only `t1,t2`).
  if (ctx.use === 'exactlyTwo') {
    const two = !blank && (value.includes('/') ? value.split('/').length === 2 : javaSplit(value, ',').length === 2);
    if (!two || result.length !== 2) throw fail(MSG.TIME_EXACTLY_TWO);
  }
  return result;
}

function admitTimestamps(count: number, ctx: TimeContext): void {
  const max = ctx.maxTimestamps ?? DEFAULT_MAX_TIMESTAMPS;
  if (count <= max) return;
  throw new MaphistError(
    'TIME_INVALID',
    limitMessage('timestamps in the time parameter', max, count, 'Use a longer period or a shorter time range, or split the range over several requests.'),
    { limit: 'timestamps', maximum: max, given: count },
  );
}

function series(from: number, to: number, period: IsoPeriod): number[] {
  const out: number[] = [];
  for (let k = 0; ; k++) {
    const t = addPeriod(from, period, k);
    if (t > to) break;
    out.push(t);
  }
  return out;
}
