/**
 * Version 2 as one encapsulated Fastify plugin (v2Plugin; the server registers it under `/v2-rc` and
 * `/v2`): CORS, gzip, the documentation, and registerV2Routes: JSON-only bodies, the reference's
 * validators, error bodies and statuses (error-status.ts), 404 and 405 answers, and the routes.
 */
import type { FastifyError, FastifyInstance, FastifySchema } from 'fastify';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import { isMaphistError, MaphistError } from '../../core/errors.js';
import { registerV2Docs } from '../docs/v2-docs.js';
import { abortCauseOf } from '../common/cancellation.js';
import { COMPRESS_OPTIONS, CORS_OPTIONS } from '../common/http-options.js';
import { bodyTooLargeMessage, countJsonPositions, LIMITS, requestSizeRefusal } from '../common/limits.js';
import { admitAoiVertices } from './params/aoi.js';
import { badPercentEncodingMessage, decodeUtf8, findBadPercentEncoding } from '../common/utf8.js';
import { v2ValidatorCompiler } from './ajv.js';
import { initZstd } from './format/geoparquet/zstd.js';
import { invalidInput, sendDetail, sendInternalError, sendMaphistError, v2Status } from './error-status.js';
import { createContext } from './routes/context.js';
import { registerExtractionRoutes } from './routes/extraction.js';
import { registerFilterValidationRoutes } from './routes/filter-validation.js';
import { registerHealthRoute } from './routes/health.js';
import { registerMetadataRoute } from './routes/metadata.js';
import { registerStatsRoutes } from './routes/stats.js';
import type { V2Services } from './services.js';
import { issuesFromAjv } from './validation-errors.js';

export const JSON_ONLY_MESSAGE = 'The request body must be JSON, sent with Content-Type: application/json.';

const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

export interface V2PluginOptions {
  /** The plugin's prefix (`/v2-rc` or `/v2`): the documentation's server URL. */
  prefix: string;
  services: V2Services;
}

export async function v2Plugin(v2: FastifyInstance, o: V2PluginOptions): Promise<void> {
  await v2.register(cors, { ...CORS_OPTIONS, methods: ['GET', 'HEAD', 'POST'] });
  await v2.register(compress, { ...COMPRESS_OPTIONS, customTypes: /^(application\/json|text\/csv)/ });
  await registerV2Docs(v2, o.prefix); // before the routes: it collects their schemas
  await initZstd(); // the GeoParquet writer's compressor
  registerV2Routes(v2, o.services);
}

export function registerV2Routes(app: FastifyInstance, services: V2Services): void {
  app.setValidatorCompiler(v2ValidatorCompiler);
  installJsonOnlyBodies(app);

  const allowed = new Map<string, Set<string>>();
  const ctx = createContext(services, (path, ...methods) => {
    const set = allowed.get(path) ?? new Set<string>();
    for (const m of methods) set.add(m);
    allowed.set(path, set);
  });
  installErrorHandling(app, ctx.timeoutError);
  // The query-string and body-size limits (api/common/limits.ts), before the body is read and before the key guard counts the request.
  app.addHook('onRequest', async (request) => {
    const refusal = requestSizeRefusal(request.raw.url ?? request.url, request.headers['content-length'], 'v2');
    if (refusal !== undefined) throw new MaphistError(refusal.code, refusal.message);
    const url = request.raw.url ?? request.url;
    const bad = findBadPercentEncoding(url.slice(url.indexOf('?') + 1 || url.length));
    if (bad !== undefined)
      throw invalidInput('PARAM_INVALID', ['query', ...(bad.parameter === undefined ? [] : [bad.parameter])], badPercentEncodingMessage(bad), 'unicode_error');
  });
  registerHealthRoute(app, ctx);
  registerMetadataRoute(app, ctx);
  registerFilterValidationRoutes(app, ctx);
  registerStatsRoutes(app, ctx);
  registerExtractionRoutes(app, ctx);
  registerMethodNotAllowed(app, allowed);
}

/**
 * Only `application/json` bodies (the reference reads no forms); anything else is a 422. The body
 * must be UTF-8, and its positions (the aoi's vertices) are counted before it is parsed
 * (src/api/common/limits.ts).
 */
function installJsonOnlyBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: LIMITS.bodyBytes.v2 }, (request, body, done) => {
    const text = decodeUtf8(body as Buffer);
    if (text === undefined) {
      return done(invalidInput('PARAM_INVALID', ['body'], 'The request body is not valid UTF-8; send JSON encoded as UTF-8.', 'json_invalid'), undefined);
    }
    if (text.trim() === '') return done(null, undefined);
    try {
      if (!request.is404) admitAoiVertices(countJsonPositions(text), ['body', 'aoi']);
    } catch (e) {
      return done(e as Error, undefined);
    }
    try {
      done(null, JSON.parse(text));
    } catch (e) {
      done(invalidInput('PARAM_INVALID', ['body'], `JSON decode error: ${(e as Error).message}`, 'json_invalid'), undefined);
    }
  });
}

function installErrorHandling(app: FastifyInstance, timeoutError: MaphistError): void {
  app.setErrorHandler((error: unknown, request, reply) => {
    // A request's time limit (api/common/cancellation.ts) answers with version 2's own message.
    if (abortCauseOf(error) === 'timeout') return sendMaphistError(request, reply, timeoutError);
    if (isMaphistError(error)) return sendMaphistError(request, reply, error);
    const e = error as FastifyError;
    if (Array.isArray(e.validation)) {
      const part = e.validationContext === 'querystring' ? 'query' : 'body';
      return sendDetail(reply, 422, issuesFromAjv(e.validation as never, part, part === 'body' ? request.body : request.query));
    }
    switch (e.code) {
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      case 'FST_ERR_CTP_INVALID_TYPE':
        return sendMaphistError(request, reply, invalidInput('CONTENT_TYPE_UNSUPPORTED', ['body'], JSON_ONLY_MESSAGE, 'content_type'));
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendDetail(reply, v2Status('PAYLOAD_TOO_LARGE'), bodyTooLargeMessage('v2'));
      default:
        break;
    }
    if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
      // Malformed requests Fastify itself refuses: the client's fault, never a 500.
      return sendDetail(reply, v2Status('REQUEST_MALFORMED'), [{ loc: ['body'], msg: e.message, type: 'value_error' }]);
    }
    return sendInternalError(request, reply, error);
  });
  app.setNotFoundHandler((_request, reply) => sendDetail(reply, v2Status('RESOURCE_NOT_FOUND'), 'Not Found'));
}

/** Every other method on a known path: 405 `{"detail":"Method Not Allowed"}` with `Allow`. */
function registerMethodNotAllowed(app: FastifyInstance, allowed: Map<string, Set<string>>): void {
  for (const [path, methods] of allowed) {
    const allow = [...methods].sort().join(', ');
    const others = ALL_METHODS.filter((m) => !methods.has(m));
    if (others.length === 0) continue;
    app.route({
      method: [...others],
      url: path,
      schema: { hide: true } as FastifySchema, // not part of the documented interface
      handler: async (_request, reply) => sendDetail(reply.header('allow', allow), v2Status('METHOD_NOT_ALLOWED'), 'Method Not Allowed'),
    });
  }
}
