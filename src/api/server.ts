/**
 * The HTTP server: both API versions over one store handle (each request reads the store
 * generation it leased, generation-hook.ts). Version 1 is served under `/v1` (aggregation
 * routes, metadata; CORS, gzip and the reference's error bodies, v1-reference-behaviour §2 and §7).
 * Version 2 is served under its release candidate prefix `/v2-rc` and, identically, under `/v2`.
 */
import { STATUS_CODES } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyRequest, type RouteOptions } from 'fastify';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import type { StoreHandle } from '../query/generations.js';
import type { QueryEngine } from '../query/model.js';
import { generationOf, installGenerationHook } from './generation-hook.js';
import type { V1Data } from './v1/generation.js';
import type { ApiKeyHook } from './v2/services.js';
import { registerV1Docs } from './docs/v1-docs.js';
import { registerV2Docs } from './docs/v2-docs.js';
import { installV1ErrorHandling, isV1Request, sendV1FrameworkError } from './v1/error-status.js';
import { installBodyParsers } from './v1/request-pairs.js';
import { registerAggregationRoutes } from './v1/routes/aggregation.js';
import { registerMetadataRoute } from './v1/routes/metadata.js';
import { installRequestLog, trackRequest, type RequestLogOptions } from './request-log.js';
import { CLIENT_PROPERTY_NAMES, NEUTRAL_PROPERTY_NAMES } from './v1/extraction/geojson.js';
import { registerV2Routes } from './v2/plugin.js';
import type { V2Data, V2Services } from './v2/services.js';

export interface ServerOptions {
  /** Default and largest query time limit in seconds (reported by /v1/metadata); reference default 100. */
  timeoutSeconds?: number;
  /** Fastify's logger: false (default), true, or options such as `{ level: 'warn' }`. */
  logger?: boolean | { level: string };
  /** Replaces the generations' aggregation engine (tests). */
  engine?: QueryEngine;
  /**
   * The API-key guard of the version 2 statistics and extraction routes (src/auth); absent: no
   * key needed (`maphist serve --no-api-keys`, a private deployment).
   */
  apiKeys?: ApiKeyHook;
  /** Sees every route as it is registered (tests and tooling enumerate the routes with it). */
  onRoute?: (route: RouteOptions) => void;
  /**
   * Write the specification's neutral identity property names (`@mapId`, `@mapType`) in v1
   * extraction instead of the clients' `@osmId`, `@osmType` (`maphist serve --neutral-names`).
   */
  neutralNames?: boolean;
  /** One line per request (`maphist serve` writes them to standard output); absent: no request log. */
  requestLog?: RequestLogOptions;
  /** Overrides of the version 2 services (statistics engine, extraction, time limits); default: the generations' engines. */
  v2?: Partial<Omit<V2Services, 'dataOf'> & Pick<V2Data, 'stats' | 'extraction'>>;
}

/**
 * The logger configuration when logging is on. Fastify's request serializer logs method, URL and
 * addresses, not headers; the redaction keeps API keys out of the log should a serializer or a
 * log call ever include the headers (docs/api-keys.md).
 */
export const LOGGER_OPTIONS = {
  redact: { paths: ['req.headers.authorization', 'request.headers.authorization', 'headers.authorization', 'authorization'], censor: '[redacted]' },
};

/** The reference's CORS headers (§7). */
const CORS_OPTIONS = {
  origin: '*',
  methods: ['POST', 'GET'],
  maxAge: 3600,
  credentials: true,
  allowedHeaders: ['Origin', 'X-Requested-With', 'Content-Type', 'Accept', 'Authorization', 'X-REQUEST-URI'],
};

/** gzip for JSON, CSV and GeoJSON answers of at least 1400 bytes (§7). */
const COMPRESS_OPTIONS = {
  global: true,
  threshold: 1400,
  encodings: ['gzip' as const],
  customTypes: /^(application\/(json|geo\+json)|text\/csv)/,
};

/**
 * `store`: the handle the command line made (src/query/generations.ts); every request leases its
 * current generation and reads metadata, `latest` and the engines from it alone.
 */
export async function createServer(store: StoreHandle, options: ServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ? { ...LOGGER_OPTIONS, ...(typeof options.logger === 'object' ? options.logger : {}) } : false,
    // Refusals before routing (an undecodable path) run no hook: logged here, and v1 answers them with its error body.
    frameworkErrors: (error, request, reply) => {
      if (options.requestLog) trackRequest(request, reply, options.requestLog);
      if (isV1Request(request)) return sendV1FrameworkError(request, reply, error);
      // Elsewhere, Fastify's own answer, as without this option.
      const status = error.statusCode ?? 500;
      const body = JSON.stringify({ error: STATUS_CODES[status], code: error.code, message: error.message, statusCode: status });
      reply.raw.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    },
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  if (options.requestLog) installRequestLog(app, options.requestLog);
  const timeoutSeconds = options.timeoutSeconds ?? 600;
  installGenerationHook(app, store);
  const { stats, extraction, ...v2Options } = options.v2 ?? {};
  const v1DataOf = (request: FastifyRequest): V1Data => {
    const g = generationOf(request);
    return { metadata: g.metadata, aggregation: options.engine ?? g.engines.aggregation, extraction: () => g.engines.extraction() };
  };
  const v2DataOf = (request: FastifyRequest): V2Data => {
    const g = generationOf(request);
    return {
      metadata: g.metadata,
      latest: g.latest,
      databaseAnswers: () => g.engines.databaseAnswers(),
      stats: stats ?? g.engines.stats,
      extraction: extraction ?? g.engines.parquet,
    };
  };
  await app.register(
    async (v1) => {
      // A bare OPTIONS (no Origin or no Access-Control-Request-Method) is answered like a preflight,
      // as Spring answers OPTIONS, not with the plugin's plain-text 400 (every v1 error is JSON).
      await v1.register(cors, { ...CORS_OPTIONS, strictPreflight: false });
      await v1.register(compress, COMPRESS_OPTIONS);
      await installBodyParsers(v1);
      installV1ErrorHandling(v1);
      registerMetadataRoute(v1, v1DataOf, { timeoutSeconds });
      registerAggregationRoutes(v1, { dataOf: v1DataOf, timeoutSeconds });
      (await import('./v1/routes/extraction.js')).registerExtractionRoutes(v1, {
        dataOf: v1DataOf,
        timeoutSeconds,
        names: options.neutralNames ? NEUTRAL_PROPERTY_NAMES : CLIENT_PROPERTY_NAMES,
      });
      await registerV1Docs(v1);
    },
    { prefix: '/v1' },
  );
  for (const prefix of ['/v2-rc', '/v2']) {
    await app.register(
      async (v2) => {
        await v2.register(cors, { ...CORS_OPTIONS, methods: ['GET', 'HEAD', 'POST'], credentials: false });
        await v2.register(compress, { ...COMPRESS_OPTIONS, customTypes: /^(application\/json|text\/csv)/ });
        await registerV2Docs(v2, prefix); // before the routes: it collects their schemas
        registerV2Routes(v2, { dataOf: v2DataOf, apiKeys: options.apiKeys, ...v2Options });
      },
      { prefix },
    );
  }
  return app;
}
