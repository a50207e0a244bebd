/**
 * An extraction body (POST) or query (GET) → ExtractionRequest. GET takes the aoi only as
 * `xmin,ymin,xmax,ymax` and time as text (`timestamp`, `latest`, `start/end`).
 */
import type { ExtractionRequest } from '../requests.js';
import { slicer, type Pause } from '../../../core/yielding.js';
import { parseAoiPaced, parseAoiText } from './aoi.js';
import { parseClip } from './clip.js';
import { parseV2Filter } from './filter.js';
import { parseMemberFilter } from './member-filter.js';
import { inPartAsync } from './stats-request.js';
import { parseExtractionTime, parseExtractionTimeText, type ExtractionKind } from './time.js';
import type { TimestampContext } from './timestamp.js';

/** An extraction's query or body; a POST aoi's polygon is checked with turns of the event loop (`pause`). */
export function extractionRequest(
  input: unknown,
  kind: ExtractionKind,
  method: 'GET' | 'POST',
  ctx: TimestampContext,
  pause: Pause = slicer(),
): Promise<ExtractionRequest> {
  const v = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  const get = method === 'GET';
  return inPartAsync(get ? 'query' : 'body', async (): Promise<ExtractionRequest> => {
    const aoi = get ? parseAoiText(String(v.aoi ?? '')) : await parseAoiPaced(v.aoi, pause);
    const time = get ? parseExtractionTimeText(String(v.time ?? ''), kind, ctx) : parseExtractionTime(v.time, kind, ctx);
    const filter = parseV2Filter(v.filter);
    switch (kind) {
      case 'features':
        return { kind, aoi, time, filter, clip: parseClip(v.clip, 'extraction/features', method) };
      case 'collections':
      case 'collections_members':
        if (!('at' in time)) throw new Error('unreachable: collections time is a snapshot');
        return { kind, aoi, time, filter, memberFilter: parseMemberFilter(v.member_filter), clip: parseClip(v.clip, 'extraction/collections', method) };
      case 'contributions':
        if (!('start' in time)) throw new Error('unreachable: contributions time is a range');
        return { kind, aoi, time, filter };
    }
  });
}
