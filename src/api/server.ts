/**
 * The HTTP server: the API versions over one store, as peer Fastify plugins. Version 1 is served
 * under `/v1` (v1/plugin.ts), version 2 under its release candidate prefix `/v2-rc` and,
 * identically, under `/v2` (v2/plugin.ts); each plugin has its own CORS, compression, body parsing,
 * error handling and documentation. This file only composes: the root's request log, one
 * cancellation per request (shared/cancellation.ts: time limit, client disconnect, shutdown) and
 * the plugins. It imports no engine and no driver: the command line builds the engines and the
 * store handle. Every request reads the store generation it leased (generation-hook.ts): its
 * metadata, `latest` and engines, never data fixed when the routes were registered.
 */
import { LIMITS, MAX_HEADER_BYTES } from './common/limits.js';
import { STATUS_CODES } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyRequest, type RouteOptions } from 'fastify';
import type { Engines } from '../query/engines.js';
import type { StoreHandle } from '../query/generations.js';
import { generationOf, installGenerationHook } from './generation-hook.js';
import { createAnswerCache, DEFAULT_ANSWER_CACHE_BYTES } from './answer-cache.js';
import { shareAnswers } from './common/shared-answers.js';
import { installCancellation } from './common/cancellation.js';
import { installAdmission } from './common/admission.js';
import { installUnreadBodyDrain } from './common/unread-body.js';
import { answerClientError } from './common/client-error.js';
import { findV1Route } from './v1/params/route-parameters.js';
import { installRequestLog, trackRequest, type RequestLogOptions } from './request-log.js';
import { isV1Request, sendV1FrameworkError } from './v1/error-status.js';
import { v1Plugin, type V1PluginOptions } from './v1/plugin.js';
import { v2Plugin, type V2PluginOptions } from './v2/plugin.js';
import { DEFAULT_EXTRACTION_SECONDS, DEFAULT_STATS_SECONDS } from './v2/routes/context.js';
import { dashboardPlugin, type DashboardOptions } from './dashboard/plugin.js';
import type { V1Data } from './v1/generation.js';
import type { ApiKeyHook, V2Data } from './v2/services.js';

/** The server's configuration (the command line's flags). */
export interface AppConfig {
  /** Default and largest v1 query time limit in seconds (reported by /v1/metadata); default 600. */
  timeoutSeconds?: number;
  /** Version 2 time limits in seconds (defaults: statistics 180, extraction 240). */
  statsTimeoutSeconds?: number;
  extractionTimeoutSeconds?: number;
  /** Fastify's logger: false (default), true, or options such as `{ level: 'warn' }`. */
  logger?: boolean | { level: string };
  /** Sees every route as it is registered (tests and tooling enumerate the routes with it). */
  onRoute?: (route: RouteOptions) => void;
  /**
   * Write the specification's neutral identity property names (`@mapId`, `@mapType`) in v1
   * extraction instead of the clients' `@osmId`, `@osmType` (`maphist serve --neutral-names`).
   */
  neutralNames?: boolean;
  /** One line per request (`maphist serve` writes them to standard output); absent: no request log. */
  requestLog?: RequestLogOptions;
  /**
   * Admission of heavy requests (api/common/admission.ts): how many run at once (default: the
   * machine's cores, at least 2) and how many wait (default 4 × concurrency); beyond, 503.
   */
  admission?: { concurrency?: number; queue?: number; retryAfterSeconds?: number; memoryBudgetBytes?: number; residentBytes?: () => number };
  /** The dashboard at `/` (api/dashboard/plugin.ts): its basemap (`maphist serve --basemap-url`), off by default. */
  dashboard?: DashboardOptions;
  /** Bytes of finished answers (v1 aggregation, v2 statistics) kept between requests (api/answer-cache.ts; `maphist serve --answer-cache`); default 64 MiB, 0: none. */
  answerCacheBytes?: number;
}

/** What the command line hands the server. */
export interface AppParts {
  /**
   * The store handle (src/query/generations.ts; the command line opens its generations, each with
   * its engines: src/engines/duckdb/generation.ts). Each request leases the current generation.
   */
  store: StoreHandle;
  /**
   * The API-key guard over the key store, for the version 2 statistics and extraction routes
   * (src/auth); absent: no key needed (`maphist serve --no-api-keys`, a private deployment).
   */
  keys?: ApiKeyHook;
  config?: AppConfig;
  /** Replaces parts of every generation's engines (tests: an instrumented extraction, a recording engine). */
  replace?: Partial<Engines>;
}

/**
 * The logger configuration when logging is on. Fastify's request serializer logs method, URL and
 * addresses, not headers; the redaction keeps API keys out of the log should a serializer or a
 * log call ever include the headers (docs/api-keys.md).
 */
export const LOGGER_OPTIONS = {
  redact: { paths: ['req.headers.authorization', 'request.headers.authorization', 'headers.authorization', 'authorization'], censor: '[redacted]' },
};

export async function buildApp(parts: AppParts): Promise<FastifyInstance> {
  const { store } = parts;
  const replace = parts.replace ?? {};
  const config = parts.config ?? {};
  const app = Fastify({
    // Room for the longest query string the APIs accept (api/common/limits.ts); longer ones get a 431 from the parser.
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    clientErrorHandler: answerClientError,
    // The body limit of paths without a route of their own (their 404 reads the body first), as of the APIs' routes.
    bodyLimit: Math.max(LIMITS.bodyBytes.v1, LIMITS.bodyBytes.v2),
    logger: config.logger ? { ...LOGGER_OPTIONS, ...(typeof config.logger === 'object' ? config.logger : {}) } : false,
    // Refusals before routing (an undecodable path) run no hook: logged here, and v1 answers them with its error body.
    frameworkErrors: (error, request, reply) => {
      if (config.requestLog) trackRequest(request, reply, config.requestLog);
      if (isV1Request(request)) return sendV1FrameworkError(request, reply, error);
      // Elsewhere, Fastify's own answer, as without this option.
      const status = error.statusCode ?? 500;
      const body = JSON.stringify({ error: STATUS_CODES[status], code: error.code, message: error.message, statusCode: status });
      reply.raw.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    },
  });
  if (config.onRoute) app.addHook('onRoute', config.onRoute);
  if (config.requestLog) installRequestLog(app, config.requestLog);
  installCancellation(app);
  installUnreadBodyDrain(app);
  // A heavy request waits for a slot at most as long as the server's largest time limit.
  const waitLimitSeconds = Math.max(
    config.timeoutSeconds ?? 600,
    config.statsTimeoutSeconds ?? DEFAULT_STATS_SECONDS,
    config.extractionTimeoutSeconds ?? DEFAULT_EXTRACTION_SECONDS,
  );
  installAdmission(app, { ...config.admission, isHeavy: isHeavyRequest, waitLimitSeconds });
  installGenerationHook(app, store);
  const enginesOf = (request: FastifyRequest): Engines => ({ ...generationOf(request).engines, ...replace });
  const v1DataOf = (request: FastifyRequest): V1Data => {
    const engines = enginesOf(request);
    return {
      metadata: generationOf(request).metadata,
      generation: generationOf(request).number,
      aggregation: engines.aggregation,
      boundaryRelations: engines.boundaryRelations,
      extraction: () => engines.extraction(),
    };
  };
  const v2DataOf = (request: FastifyRequest): V2Data => {
    const g = generationOf(request);
    const engines = enginesOf(request);
    return {
      generation: g.number,
      metadata: g.metadata,
      latest: g.latest,
      databaseAnswers: () => engines.databaseAnswers(),
      stats: engines.stats,
      extraction: engines.parquet,
    };
  };
  const answerBytes = config.answerCacheBytes ?? DEFAULT_ANSWER_CACHE_BYTES;
  // One cache for both versions: its keys hold the route, and v2's two prefixes share their answers.
  const sharing = answerBytes > 0 ? shareAnswers(createAnswerCache(answerBytes)) : undefined;
  await app.register(v1Plugin, {
    prefix: '/v1',
    dataOf: v1DataOf,
    timeoutSeconds: config.timeoutSeconds ?? 600,
    neutralNames: config.neutralNames,
    sharing,
  } satisfies V1PluginOptions & { prefix: string });
  for (const prefix of ['/v2-rc', '/v2']) {
    const services = {
      dataOf: v2DataOf,
      apiKeys: parts.keys,
      statsTimeoutSeconds: config.statsTimeoutSeconds,
      extractionTimeoutSeconds: config.extractionTimeoutSeconds,
      sharing,
    };
    await app.register(v2Plugin, { prefix, services } satisfies V2PluginOptions);
  }
  await app.register(dashboardPlugin, config.dashboard ?? {});
  return app;
}

/**
 * The requests admission counts (api/common/admission.ts): v1 aggregation and extraction (every v1
 * route but metadata), v2 statistics and extraction. Metadata, health, filter validation and the
 * docs bypass it.
 */
export function isHeavyRequest(request: FastifyRequest): boolean {
  const url = request.raw.url ?? request.url;
  const path = url.split('?')[0]!;
  if (path.startsWith('/v1/')) {
    const route = findV1Route(path.slice(3));
    return route !== undefined && route.family !== 'metadata';
  }
  return /^\/v2(?:-rc)?\/(?:stats|extraction)\//.test(path);
}
