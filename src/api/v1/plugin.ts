/**
 * Version 1 as one encapsulated Fastify plugin (the server registers it under `/v1`): CORS, gzip,
 * the form and multipart body parsers, the reference's error bodies (error-status.ts), metadata,
 * the aggregation and extraction routes, and the v1 documentation.
 */
import type { FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import { registerV1Docs } from '../docs/v1-docs.js';
import { MaphistError } from '../../core/errors.js';
import { COMPRESS_OPTIONS, CORS_OPTIONS } from '../common/http-options.js';
import { requestSizeRefusal } from '../common/limits.js';
import { installV1ErrorHandling } from './error-status.js';
import type { V1DataOf } from './generation.js';
import { CLIENT_PROPERTY_NAMES, NEUTRAL_PROPERTY_NAMES } from './extraction/geojson.js';
import { installBodyParsers } from './request-pairs.js';
import { registerAggregationRoutes } from './routes/aggregation.js';
import type { AnswerSharing } from '../common/shared-answers.js';
import { registerExtractionRoutes } from './routes/extraction.js';
import { registerMetadataRoute } from './routes/metadata.js';

export interface V1PluginOptions {
  /** The metadata and engines of the request's store generation (src/api/generation-hook.ts). */
  dataOf: V1DataOf;
  /** Default and largest query time limit in seconds (reported by /v1/metadata). */
  timeoutSeconds: number;
  /** Extraction writes the neutral `@mapId`, `@mapType` instead of the clients' `@osmId`, `@osmType`. */
  neutralNames?: boolean;
  /** Finished aggregation answers kept and shared between requests (src/api/common/shared-answers.ts); absent: none. */
  sharing?: AnswerSharing;
}

export async function v1Plugin(v1: FastifyInstance, o: V1PluginOptions): Promise<void> {
  // A bare OPTIONS (no Origin or no Access-Control-Request-Method) is answered like a preflight,
  // as Spring answers OPTIONS, not with the plugin's plain-text 400 (every v1 error is JSON).
  await v1.register(cors, { ...CORS_OPTIONS, strictPreflight: false });
  await v1.register(compress, COMPRESS_OPTIONS);
  await installBodyParsers(v1);
  installV1ErrorHandling(v1);
  // The query-string and body-size limits (api/common/limits.ts), before the body is read.
  v1.addHook('onRequest', async (request) => {
    const refusal = requestSizeRefusal(request.raw.url ?? request.url, request.headers['content-length'], 'v1');
    if (refusal !== undefined) throw new MaphistError(refusal.code, refusal.message);
  });
  registerMetadataRoute(v1, o.dataOf, { timeoutSeconds: o.timeoutSeconds });
  registerAggregationRoutes(v1, { dataOf: o.dataOf, timeoutSeconds: o.timeoutSeconds, sharing: o.sharing });
  registerExtractionRoutes(v1, {
    dataOf: o.dataOf,
    timeoutSeconds: o.timeoutSeconds,
    names: o.neutralNames ? NEUTRAL_PROPERTY_NAMES : CLIENT_PROPERTY_NAMES,
  });
  await registerV1Docs(v1);
}
