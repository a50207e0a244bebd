/**
 * The v1 aggregation routes (docs/reference/v1-reference-behaviour.md §1.1): elements count/length/area/perimeter with density, ratio and
 * the groupings, users/count and contributions count, each by GET (query string) and POST
 * (form-urlencoded or multipart body), with or without a trailing slash; other methods → 405.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { metadataRequestUrl, sendMethodNotAllowed } from '../error-status.js';
import { executeAggregation } from '../execute.js';
import type { V1DataOf } from '../generation.js';
import { render, type OutputBoundary } from '../output.js';
import { answerKey, type CachedAnswer } from '../../answer-cache.js';
import { sendAnswer, type AnswerSharing } from '../../common/shared-answers.js';
import { parseV1Request, type V1Request } from '../params/parse-v1-request.js';
import { BODY_LIMIT, collectPairs, type Pair } from '../request-pairs.js';
import { AGGREGATION_ROUTES, routeDescription, type AggregationRoute } from '../route-table.js';
import { cancellationOf } from '../../common/cancellation.js';
import type { JsonValue } from '../../format/pretty-json.js';
import { resolveRelationBoundaries } from '../relation-boundaries.js';

export interface AggregationRouteOptions {
  /** The metadata and aggregation engine of the request's store generation. */
  dataOf: V1DataOf<'metadata' | 'aggregation' | 'boundaryRelations' | 'generation'>;
  /** The server's default (and largest) time limit in seconds. */
  timeoutSeconds: number;
  /** Finished answers kept and shared between requests (src/api/common/shared-answers.ts); absent: none. */
  sharing?: AnswerSharing;
}

export const CACHE_FOREVER = 'no-transform, public, max-age=31556926';
export const NO_CACHE = 'no-cache, no-store, must-revalidate';

/** Successful answers for an explicit, non-"latest" time may be cached (docs/reference/v1-reference-behaviour.md §7). */
export function cacheControlFor(timeParameter: string | undefined): string {
  const t = timeParameter?.trim() ?? '';
  return t !== '' && !t.endsWith('/') && !t.includes('//') ? CACHE_FOREVER : NO_CACHE;
}

type RouteFunction = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** A route's own hooks: `preValidation` runs after the body is read and before admission (the server's preHandler). */
interface RouteHooks {
  preValidation?: RouteFunction;
  onResponse?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
}

/** Registers a path with and without a trailing slash; other methods than `methods` answer 405 with Allow. */
export function registerPath(app: FastifyInstance, path: string, methods: ('GET' | 'POST')[], handler: RouteFunction, hooks: RouteHooks = {}): void {
  const allow = methods.join(',');
  const others = (['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const).filter((m) => !(methods as string[]).includes(m));
  for (const url of [path, `${path}/`]) {
    app.route({ method: methods, url, bodyLimit: BODY_LIMIT, handler, ...hooks });
    app.route({
      method: others,
      url,
      bodyLimit: BODY_LIMIT,
      handler: async (request, reply) => sendMethodNotAllowed(request, reply, allow),
    });
  }
}

function outputBoundaries(req: V1Request): OutputBoundary[] {
  return req.areas.map((a, i) => ({ id: a.id, idValue: req.boundaryOutputIds[i] ?? a.id, geometry: a.geometry as unknown as JsonValue }));
}

/** A request's parameters, read once before admission (`lookUpAnswer`) and answered by its handler. */
interface PreparedRequest {
  started: number;
  pairs: Pair[];
  data: ReturnType<AggregationRouteOptions['dataOf']>;
  parsed: V1Request;
}

const preparedRequests = new WeakMap<FastifyRequest, PreparedRequest>();

async function prepareRequest(route: AggregationRoute, options: AggregationRouteOptions, request: FastifyRequest): Promise<PreparedRequest> {
  const started = performance.now();
  const pairs = await collectPairs(request);
  const data = options.dataOf(request);
  const parsed = parseV1Request(route.path, pairs, {
    metadata: data.metadata,
    contentType: request.headers['content-type'],
    defaultTimeoutSeconds: options.timeoutSeconds,
  });
  return { started, pairs, data, parsed };
}

/**
 * The route's preValidation, before admission: the parameters are read and checked (a bad request
 * is told so even while the server is busy), and the same request on the same store generation is
 * answered from the answer cache, or with the answer another request is computing
 * (api/common/shared-answers.ts). Answers with `showMetadata` (their execution time and request URL
 * belong to one request) are neither kept nor shared.
 */
async function lookUpAnswer(
  route: AggregationRoute,
  options: AggregationRouteOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | undefined> {
  const prepared = await prepareRequest(route, options, request);
  preparedRequests.set(request, prepared);
  const { data, parsed, pairs } = prepared;
  if (options.sharing === undefined || parsed.showMetadata || data.generation === undefined) return undefined;
  return options.sharing.lookUp(request, reply, answerKey(data.generation, route.path, pairs), parsed.timeoutSeconds);
}

async function answerAggregation(
  route: AggregationRoute,
  options: AggregationRouteOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  // Read by the route's preValidation (lookUpAnswer), which runs before every handler call.
  const { started, pairs, data, parsed } = preparedRequests.get(request)!;
  // The request's one signal: its time limit, the client's disconnect and the server's shutdown abort it.
  const cancellation = cancellationOf(request);
  cancellation.limit(parsed.timeoutSeconds);
  await cancellation.run((signal) => resolveRelationBoundaries(parsed, data.boundaryRelations, data.metadata, signal));
  const groups = await cancellation.run((signal) => executeAggregation(data.aggregation, route, parsed, signal));
  const rendered = await render(
    {
      route,
      format: parsed.format,
      timestamps: parsed.timestamps,
      boundaries: outputBoundaries(parsed),
      metadata: parsed.showMetadata
        ? {
            executionTime: performance.now() - started,
            description: routeDescription(route),
            requestUrl: metadataRequestUrl(request, pairs),
          }
        : undefined,
    },
    groups,
  );
  const answer: CachedAnswer = {
    contentType: rendered.contentType,
    cacheControl: cacheControlFor(parsed.timeParameter),
    headers: rendered.headers ?? {},
    body: rendered.body,
  };
  // Kept in the answer cache and handed to the requests waiting for it.
  options.sharing?.answered(request, answer);
  return sendAnswer(reply, answer);
}

export function registerAggregationRoutes(app: FastifyInstance, options: AggregationRouteOptions): void {
  for (const route of AGGREGATION_ROUTES) {
    registerPath(app, route.path, ['GET', 'POST'], (request, reply) => answerAggregation(route, options, request, reply), {
      preValidation: (request, reply) => lookUpAnswer(route, options, request, reply),
      ...(options.sharing && { onResponse: options.sharing.end }),
    });
  }
}
