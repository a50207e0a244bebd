/**
 * A statistics body → FeatureStatsRequest / BinStatsRequest. Runs after the JSON Schema (which has
 * checked shapes and unknown fields) and checks what a schema cannot: aoi geometry, timestamps,
 * series size, filter syntax. Errors are located in the body (`["body","time","start"]`).
 */
import { isMaphistError } from '../../../core/errors.js';
import type { StatsMeasure } from '../../../query/stats.js';
import { withLocPrefix } from '../error-status.js';
import type { BinStatsRequest, FeatureStatsRequest, StatsFormat } from '../requests.js';
import { slicer, type Pause } from '../../../core/yielding.js';
import { parseAoiPaced } from './aoi.js';
import { parseClip } from './clip.js';
import { parseV2Filter } from './filter.js';
import { parseGroupBy } from './group-by.js';
import { parseBinsTime, parseFeatureStatsTime } from './time.js';
import type { TimestampContext } from './timestamp.js';

export type BinKind = BinStatsRequest['kind'];

/** Runs `parse`, locating its errors in the request part. */
export function inPart<T>(part: 'body' | 'query', parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    throw located(e, part);
  }
}

/** `inPart` for a parse that takes turns of the event loop (parseAoiPaced). */
export async function inPartAsync<T>(part: 'body' | 'query', parse: () => Promise<T>): Promise<T> {
  try {
    return await parse();
  } catch (e) {
    throw located(e, part);
  }
}

function located(e: unknown, part: 'body' | 'query'): unknown {
  return isMaphistError(e) ? withLocPrefix(e, [part]) : e;
}

function record(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** The body of a features statistic; the aoi's polygon is checked with turns of the event loop (`pause`). */
export function featureStatsRequest(
  body: unknown,
  measure: StatsMeasure,
  format: StatsFormat,
  ctx: TimestampContext,
  pause: Pause = slicer(),
): Promise<FeatureStatsRequest> {
  const b = record(body);
  return inPartAsync('body', async () => {
    const request: FeatureStatsRequest = {
      kind: 'features',
      format,
      measure,
      aoi: await parseAoiPaced(b.aoi, pause),
      timestamps: parseFeatureStatsTime(b.time, ctx),
      filter: parseV2Filter(b.filter),
      clip: parseClip(b.clip, 'stats/features', 'POST'),
    };
    const groupBy = parseGroupBy(b.groupBy);
    if (groupBy !== undefined) {
      request.groupBy = groupBy;
      if (groupBy.by === 'tag' && groupBy.values === undefined) request.groupByKey = groupBy.key;
    }
    return request;
  });
}

/** The body of a statistic per time bin; the aoi's polygon is checked with turns of the event loop (`pause`). */
export function binStatsRequest(
  body: unknown,
  kind: BinKind,
  measure: StatsMeasure,
  format: StatsFormat,
  ctx: TimestampContext,
  pause: Pause = slicer(),
): Promise<BinStatsRequest> {
  const b = record(body);
  return inPartAsync('body', async () => {
    const request: BinStatsRequest = {
      kind,
      format,
      measure,
      aoi: await parseAoiPaced(b.aoi, pause),
      edges: parseBinsTime(b.time, ctx),
      filter: parseV2Filter(b.filter),
      clip: kind === 'currentness' ? parseClip(b.clip, 'stats/currentness', 'POST') : false,
    };
    const groupBy = parseGroupBy(b.groupBy);
    if (groupBy !== undefined) request.groupBy = groupBy;
    return request;
  });
}
