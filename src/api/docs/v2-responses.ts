/**
 * The answers of the version-2 routes in the OpenAPI document: every status a route can answer,
 * each with its body (src/api/v2/error-status.ts makes the error bodies, src/auth the key refusals).
 * Added to the document by registerV2Docs' transform only: the routes' own schemas (which Fastify
 * validates and serializes with) are left as they are.
 *
 * | routes                      | statuses                                           |
 * |-----------------------------|----------------------------------------------------|
 * | statistics, extraction      | 200, 401, 403, 413 (POST), 422, 429, 500, 504      |
 * | filter validation           | 200, 413 (POST), 422, 500                          |
 * | metadata                    | 200, 500                                           |
 * | health                      | 200, 503                                           |
 *
 * Version 2 answers no 400 (malformed JSON is a 422 like any invalid input, as FastAPI does), and
 * 404 / 405 only for paths or methods that are not routes.
 */
import type { OpenAPIV3 } from 'openapi-types';

const str: OpenAPIV3.SchemaObject = { type: 'string' };
const attribution: OpenAPIV3.SchemaObject = { type: 'object', required: ['url', 'text'], properties: { url: str, text: str } };

const VALIDATION_ERROR: OpenAPIV3.SchemaObject = {
  type: 'object',
  required: ['detail'],
  description: 'Invalid input: where (`loc`), what (`msg`) and the kind of problem (`type`).',
  properties: {
    detail: {
      type: 'array',
      items: {
        type: 'object',
        required: ['loc', 'msg', 'type'],
        properties: { loc: { type: 'array', items: { oneOf: [str, { type: 'integer' }] } }, msg: str, type: str },
      },
    },
  },
};

const MESSAGE: OpenAPIV3.SchemaObject = { type: 'object', required: ['detail'], properties: { detail: str } };

const json = (description: string, schema: OpenAPIV3.SchemaObject): OpenAPIV3.ResponseObject => ({ description, content: { 'application/json': { schema } } });

const timestamps: OpenAPIV3.SchemaObject = { type: 'array', items: { type: 'string', format: 'date-time' } };
const numbers: OpenAPIV3.SchemaObject = { type: 'array', items: { type: 'number' } };
const envelope = (result: OpenAPIV3.SchemaObject): OpenAPIV3.SchemaObject => ({
  type: 'object',
  required: ['apiVersion', 'attribution', 'result'],
  properties: { apiVersion: str, attribution, result },
});

/** features: a value per timestamp; with groupBy, `values` holds one series per tag value. */
const FEATURES_JSON = envelope({
  description: 'Columnar: `timestamp` and `value` of the same length (with groupBy also `values`: one series per tag value).',
  type: 'object',
  required: ['timestamp', 'value'],
  additionalProperties: false,
  properties: { timestamp: timestamps, value: numbers, values: { type: 'object', additionalProperties: numbers } },
});

/** contributors, contributions, currentness: a value per time bin [start, end). */
const BINS_JSON = envelope({
  description: 'Columnar: one value per time bin [`start`, `end`); the three arrays have the same length.',
  type: 'object',
  required: ['start', 'end', 'value'],
  additionalProperties: false,
  properties: { start: timestamps, end: timestamps, value: numbers },
});

const ERRORS = {
  401: json('No API key in the `Authorization` header.', MESSAGE),
  403: json('The API key is unknown or revoked.', MESSAGE),
  413: json('The request body is larger than the server accepts (docs/limits.md).', MESSAGE),
  414: json('The query string is longer than the server accepts (docs/limits.md).', MESSAGE),
  422: json('Invalid input (body, query, filter, aoi, time …), also malformed JSON.', VALIDATION_ERROR),
  429: json('Too many requests with this key within a minute, or its daily quota is used up; `Retry-After` says when to try again.', MESSAGE),
  500: json('An unexpected failure (logged by the server).', MESSAGE),
  503: json('The server is busy (every slot for heavy requests taken, the queue full) or shutting down; `Retry-After` says when to try again.', MESSAGE),
  504: json('The query took longer than the time limit of the route.', VALIDATION_ERROR),
} satisfies Record<number, OpenAPIV3.ResponseObject>;

function pick(statuses: (keyof typeof ERRORS)[]): Record<string, OpenAPIV3.ResponseObject> {
  return Object.fromEntries(statuses.map((s) => [String(s), ERRORS[s]]));
}

/** The documented answers of one v2 route (`url` relative to the version prefix). */
export function v2Responses(url: string, method: string): Record<string, OpenAPIV3.ResponseObject> {
  const post = method.toUpperCase() === 'POST';
  if (url.startsWith('/stats/')) {
    const bins = !url.startsWith('/stats/features/');
    const ok = url.endsWith('.csv')
      ? {
          description: bins
            ? 'The time bins as CSV: three `# ` comment lines, then `start;end;value`.'
            : 'The time series as CSV: three `# ` comment lines, then `timestamp;value` (with groupBy `timestamp;value;tagvalue`).',
          content: { 'text/csv': { schema: str } },
        }
      : json(bins ? 'The time bins.' : 'The time series.', bins ? BINS_JSON : FEATURES_JSON);
    return { 200: ok, ...pick([401, 403, 413, 414, 422, 429, 500, 503, 504]) };
  }
  if (url.startsWith('/extraction/')) {
    const ok = {
      description: 'A GeoParquet file, streamed.',
      content: { 'application/vnd.apache.parquet': { schema: { type: 'string', format: 'binary' } } },
    } as OpenAPIV3.ResponseObject;
    return { 200: ok, ...pick(post ? [401, 403, 413, 414, 422, 429, 500, 503, 504] : [401, 403, 414, 422, 429, 500, 503, 504]) };
  }
  if (url.startsWith('/filter/')) {
    const ok = json('The filter is valid (echoed).', {
      type: 'object',
      required: ['apiVersion', 'attribution', 'filter'],
      properties: { apiVersion: str, attribution, filter: str },
    });
    return { 200: ok, ...pick(post ? [413, 414, 422, 500] : [414, 422, 500]) };
  }
  if (url === '/metadata') return { 200: json('The metadata of the database.', { type: 'object' }), ...pick([500]) };
  return {};
}
