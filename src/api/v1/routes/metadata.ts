/** GET /v1/metadata: extent and time range of the data, and the server's default timeout (docs/reference/v1-reference-behaviour.md §4.5). */
import type { FastifyInstance } from 'fastify';
import { MaphistError } from '../../../core/errors.js';
import { API_VERSION, ATTRIBUTION } from '../../attribution.js';
import { prettyJson, type JsonValue } from '../../format/pretty-json.js';
import type { V1DataOf } from '../generation.js';
import { MSG } from '../params/messages.js';
import { queryPairs } from '../request-pairs.js';
import { NO_CACHE, registerPath } from './aggregation.js';

/** `dataOf`: the metadata of the request's store generation. */
export function registerMetadataRoute(app: FastifyInstance, dataOf: V1DataOf<'metadata'>, options: { timeoutSeconds: number }): void {
  registerPath(app, '/metadata', ['GET'], async (request, reply) => {
    if (queryPairs(request).length > 0) throw new MaphistError('PARAM_UNKNOWN', MSG.METADATA_NO_PARAMS);
    const m = dataOf(request).metadata;
    const body = prettyJson({
      attribution: { url: ATTRIBUTION.url, text: ATTRIBUTION.text },
      apiVersion: API_VERSION,
      timeout: options.timeoutSeconds,
      extractRegion: {
        spatialExtent: m.spatialExtent as unknown as JsonValue,
        temporalExtent: { fromTimestamp: m.firstTimestamp, toTimestamp: m.lastTimestamp },
        replicationSequenceNumber: BigInt(m.replicationSequenceNumber),
      },
    });
    return reply.code(200).header('content-type', 'application/json').header('cache-control', NO_CACHE).send(body);
  });
}
