/**
 * The `time` parameter of each version 2 endpoint (docs/reference/v2-reference-and-contributions-format.md §1.3, §1.4). Locations are relative to the
 * request part: `["time"]`, `["time","start"]`, ….
 *
 * | endpoint                          | accepts                                                   |
 * |-----------------------------------|-----------------------------------------------------------|
 * | stats/features                    | timestamp, `latest`, {start, end, interval?}              |
 * | stats/contributors, contributions, currentness | {start, end, interval?}                      |
 * | extraction/features               | timestamp, `latest`, {start, end}; GET: also `start/end`  |
 * | extraction/collections(_members)  | timestamp, `latest`                                       |
 * | extraction/contributions          | {start, end}; GET: `start/end`                            |
 *
 * Range starts may be `earliest`, range ends `latest`; end must be strictly after start. The step is
 * `interval`, as the specification writes it; `binSize` (the name an earlier release candidate used
 * for the binned statistics) is accepted as its alias on every statistic, and both together must
 * agree.
 */
import type { IsoPeriod } from '../../common/iso-time.js';
import { invalidInput, type Loc } from '../error-status.js';
import type { ExtractionTime } from '../requests.js';
import { parseTimestamp, type TimestampContext } from './timestamp.js';
import { buildSeries, parseDuration } from './time-series.js';

const LOC: Loc = ['time'];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function text(v: unknown, loc: Loc): string {
  if (typeof v !== 'string') throw invalidInput('TIME_INVALID', loc, 'Input should be a valid string', 'string_type');
  return v;
}

function onlyFields(v: Record<string, unknown>, allowed: readonly string[]): void {
  for (const k of ['start', 'end']) if (!(k in v)) throw invalidInput('TIME_INVALID', [...LOC, k], 'Field required', 'missing');
  for (const k of Object.keys(v)) {
    if (!allowed.includes(k)) throw invalidInput('TIME_INVALID', [...LOC, k], 'Extra inputs are not permitted', 'extra_forbidden');
  }
}

/** {start, end}: epoch seconds, end > start. */
export function parseRange(v: Record<string, unknown>, ctx: TimestampContext, loc: Loc = LOC): { start: number; end: number } {
  const start = parseTimestamp(text(v.start, [...loc, 'start']), [...loc, 'start'], ctx, ['earliest']);
  const end = parseTimestamp(text(v.end, [...loc, 'end']), [...loc, 'end'], ctx, ['latest']);
  if (!(end > start)) throw invalidInput('TIME_INVALID', loc, 'The end of the time range must be after its start.', 'value_error');
  return { start, end };
}

function optionalDuration(v: unknown, loc: Loc): IsoPeriod | undefined {
  if (v === undefined || v === null) return undefined;
  return parseDuration(text(v, loc), loc);
}

/**
 * The series from start to end by the step: `interval`, or its alias `binSize`. Both given, they
 * must give the same series (`P1Y` and `P12M` do), else 422 at `binSize`.
 */
function seriesOf(value: Record<string, unknown>, start: number, end: number): number[] {
  const interval = optionalDuration(value.interval, [...LOC, 'interval']);
  const binSize = optionalDuration(value.binSize, [...LOC, 'binSize']);
  const series = buildSeries(start, end, interval ?? binSize, LOC);
  if (interval !== undefined && binSize !== undefined) {
    const other = buildSeries(start, end, binSize, LOC);
    if (other.length !== series.length || other.some((t, i) => t !== series[i])) {
      throw invalidInput(
        'TIME_INVALID',
        [...LOC, 'binSize'],
        '`binSize` is an alias of `interval`; give one of them, or the same duration in both.',
        'value_error',
      );
    }
  }
  return series;
}

/** stats/features: the series points. */
export function parseFeatureStatsTime(value: unknown, ctx: TimestampContext): number[] {
  if (typeof value === 'string') return [parseTimestamp(value, LOC, ctx, ['latest'])];
  if (!isRecord(value)) throw shapeError("a timestamp, 'latest' or a time series {start, end, interval}");
  onlyFields(value, ['start', 'end', 'interval', 'binSize']);
  const { start, end } = parseRange(value, ctx);
  return seriesOf(value, start, end);
}

/** stats/contributors, contributions, currentness: the bin edges (N+1 points for N bins). */
export function parseBinsTime(value: unknown, ctx: TimestampContext): number[] {
  if (!isRecord(value)) throw shapeError('time bins {start, end, interval}');
  onlyFields(value, ['start', 'end', 'interval', 'binSize']);
  const { start, end } = parseRange(value, ctx);
  return seriesOf(value, start, end);
}

export type ExtractionKind = 'features' | 'collections' | 'collections_members' | 'contributions';

/** POST extraction bodies. */
export function parseExtractionTime(value: unknown, kind: ExtractionKind, ctx: TimestampContext): ExtractionTime {
  const snapshot = kind !== 'contributions';
  const range = kind === 'features' || kind === 'contributions';
  if (typeof value === 'string' && snapshot) return { at: parseTimestamp(value, LOC, ctx, ['latest']) };
  if (isRecord(value) && range) {
    onlyFields(value, ['start', 'end']);
    return parseRange(value, ctx);
  }
  throw shapeError(EXPECTED[kind]);
}

const EXPECTED: Record<ExtractionKind, string> = {
  features: "a timestamp, 'latest' or a time range {start, end}",
  collections: "a timestamp or 'latest'",
  collections_members: "a timestamp or 'latest'",
  contributions: 'a time range {start, end}',
};

/** GET extraction: `timestamp`, `latest`, or `start/end` (contributions: only `start/end`). */
export function parseExtractionTimeText(value: string, kind: ExtractionKind, ctx: TimestampContext): ExtractionTime {
  const parts = value.split('/');
  const range = kind === 'features' || kind === 'contributions';
  if (parts.length === 2 && range) return parseRange({ start: parts[0], end: parts[1] }, ctx);
  if (parts.length === 1 && kind !== 'contributions') return { at: parseTimestamp(value, LOC, ctx, ['latest']) };
  const expected =
    kind === 'contributions' ? 'a time range start/end' : kind === 'features' ? "a timestamp, 'latest' or a time range start/end" : "a timestamp or 'latest'";
  throw invalidInput('TIME_INVALID', LOC, `Input should be ${expected} (ISO-8601, UTC).`, 'value_error');
}

function shapeError(expected: string) {
  return invalidInput('TIME_INVALID', LOC, `Input should be ${expected}.`, 'union_error');
}
