/**
 * One timestamp of a version 2 request (docs/reference/v2-reference-and-contributions-format.md §1.3): ISO-8601 date or date-time, naive = UTC, `Z` or a
 * zero offset accepted, any other offset rejected ("Only UTC timestamps are supported."), not before
 * 2007-10-08T00:00:00Z. Fractions of seconds are dropped (the store counts in seconds).
 * `latest` (where allowed) is the last timestamp of the data; `earliest` (range starts) the minimum.
 */
import { daysInMonth } from '../../common/iso-time.js';
import { invalidInput, type Loc } from '../error-status.js';

/** 2007-10-08T00:00:00Z: the earliest time version 2 answers for. */
export const EARLIEST = Date.UTC(2007, 9, 8) / 1000;

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

export interface TimestampContext {
  /** Epoch seconds of the data's last timestamp (what `latest` means). */
  latest: number;
}

export type Keyword = 'latest' | 'earliest';

/** Epoch seconds of `text`, or a TIME_INVALID error located at `loc`. */
export function parseTimestamp(text: string, loc: Loc, ctx: TimestampContext, keywords: readonly Keyword[] = []): number {
  const t = text.trim();
  if (t === 'latest' && keywords.includes('latest')) return ctx.latest;
  if (t === 'earliest' && keywords.includes('earliest')) return EARLIEST;
  const m = TIMESTAMP.exec(t);
  if (!m) {
    const also = keywords.length === 0 ? '' : ` or ${keywords.map((k) => `'${k}'`).join(' or ')}`;
    throw invalidInput('TIME_INVALID', loc, `Input should be an ISO-8601 timestamp such as 2020-01-01T00:00:00Z${also}.`, 'datetime_parsing');
  }
  const offset = m[7];
  if (offset !== undefined && !/^(Z|z|[+-]00(:?00)?)$/.test(offset)) {
    throw invalidInput('TIME_INVALID', loc, 'Only UTC timestamps are supported.', 'value_error');
  }
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) {
    throw invalidInput('TIME_INVALID', loc, `${t} is not a valid date and time.`, 'datetime_parsing');
  }
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  const seconds = d.getTime() / 1000;
  if (seconds < EARLIEST) {
    throw invalidInput('TIME_INVALID', loc, 'Timestamps before 2007-10-08T00:00:00Z are not supported.', 'value_error');
  }
  return seconds;
}

/** `YYYY-MM-DDTHH:MM:SSZ`, how every timestamp is answered. */
export function formatTimestamp(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Epoch seconds of a store metadata ISO string. */
export function epochOf(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000);
}
