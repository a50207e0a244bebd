/**
 * The one mapping from the error catalog to version 1 HTTP statuses, and the error bodies of the
 * reference (docs/reference/v1-reference-behaviour.md §2): the custom body `{timestamp, status, message, requestUrl}`
 * for every coded error, Spring's default body `{timestamp, status, error, path}` for unknown paths,
 * undecodable paths, unexpected failures (500, logged) and a wrong method (405, with `Allow`; the
 * reference's was empty). Every body starts with the attribution.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isMaphistError, MaphistError, type ErrorCode } from '../../core/errors.js';
import { ATTRIBUTION } from '../attribution.js';
import { bodyTooLargeMessage } from '../common/limits.js';
import { prettyJson } from '../format/pretty-json.js';

export const V1_ERROR_STATUS = {
  INPUT_NOT_FOUND: 500,
  INPUT_NOT_OSM: 500,
  INPUT_TRUNCATED: 500,
  INPUT_CORRUPT: 500,
  INPUT_UNSORTED: 500,
  INPUT_UNSUPPORTED: 500,
  DB_NOT_FOUND: 500,
  DB_INVALID: 500,
  IMPORT_OUT_OF_MEMORY: 500,
  STORE_WRITE_FAILED: 500,
  DB_BUSY: 500,
  CHANGESETS_NOT_LOADED: 500,
  ENGINE_FAILURE: 500,
  REPLICATION_GAP: 500,
  REPLICATION_NO_START: 500,
  REPLICATION_SOURCE_FAILED: 500,
  REPLICATION_INVALID: 500,
  FILTER_SYNTAX: 400,
  FILTER_TOO_LONG: 400,
  FILTER_TOO_DEEP: 400,
  FILTER_TOO_COMPLEX: 400,
  FILTER_NOT_ALLOWED: 400,
  PARAM_NONE: 400,
  PARAM_UNKNOWN: 400,
  PARAM_DUPLICATE: 400,
  PARAM_INVALID: 400,
  CONTENT_TYPE_UNSUPPORTED: 400,
  BOUNDARY_INVALID: 400,
  BOUNDARY_OUTSIDE_DATA: 404,
  BOUNDARY_RELATION_NOT_FOUND: 404,
  BOUNDARY_RELATION_NOT_AREAL: 400,
  TIME_INVALID: 400,
  TIME_OUTSIDE_DATA: 404,
  QUERY_TIMEOUT: 413,
  // nginx's "client closed request": the client never sees it (the request log does).
  CLIENT_DISCONNECTED: 499,
  SERVER_SHUTTING_DOWN: 503,
  // Admission (api/common/admission.ts): the queue of heavy requests is full; with Retry-After.
  SERVER_BUSY: 503,
  PAYLOAD_TOO_LARGE: 413,
  METHOD_NOT_ALLOWED: 405,
  RESOURCE_NOT_FOUND: 404,
  REQUEST_MALFORMED: 400,
  URI_TOO_LONG: 414,
  HEADERS_TOO_LARGE: 431,
  // The API-key guard serves version 2 only; version 1 asks for no key.
  API_KEY_MISSING: 401,
  API_KEY_INVALID: 403,
  API_KEY_QUOTA_EXCEEDED: 429,
  API_KEY_RATE_LIMITED: 429,
  KEY_NOT_FOUND: 500,
  KEYS_DB_BUSY: 500,
  KEYS_DB_INVALID: 500,
  CLI_USAGE: 500,
  SQL_NOT_ALLOWED: 500,
  INTERNAL_ERROR: 500,
} as const satisfies Record<ErrorCode, number>;

export function v1Status(code: ErrorCode): number {
  return V1_ERROR_STATUS[code];
}

/** The reference's fixed message for a query that ran out of time (docs/reference/v1-reference-behaviour.md §2.4). */
export const QUERY_TIMEOUT_MESSAGE = 'The given query is too large in respect to the given timeout. Please use a smaller region and/or coarser time period.';
export const CONTENT_TYPE_MESSAGE =
  "Unsupported content-type header found. Please make sure to use either 'multipart/form-data' or 'application/x-www-form-urlencoded'.";
/** A body cut off at the size limit (one with a Content-Length over it is refused before it is read, api/common/limits.ts). */
export const PAYLOAD_TOO_LARGE_MESSAGE = bodyTooLargeMessage('v1');

export function queryTimeoutError(): MaphistError {
  return new MaphistError('QUERY_TIMEOUT', QUERY_TIMEOUT_MESSAGE);
}

/** The request's URL as the reference echoes it: full URL plus the raw query string (none: just the URL). */
export function requestUrlOf(request: FastifyRequest): string {
  const forwarded = request.headers['x-request-uri'];
  if (typeof forwarded === 'string' && forwarded !== '') return forwarded;
  const host = request.headers.host ?? request.hostname;
  const url = request.raw.url ?? request.url;
  return `${request.protocol}://${host}${url.endsWith('?') ? url.slice(0, -1) : url}`;
}

/**
 * `metadata.requestUrl` of an answer: for GET the URL as requested; for POST (form or multipart) the
 * URL rebuilt with the posted fields as its query, as the reference's answers show it
 * (`…/v1/contributions/latest/geometry?bboxes=8.6720,49.3988,…&time=2020-02-01,2020-06-29`): only what
 * a URL cannot hold as it is gets percent-encoded (spaces, `"`, `%`, `&`, `#`, `+`, non-ASCII …), so the
 * URL, sent as a GET, carries exactly the posted fields.
 */
export function metadataRequestUrl(request: FastifyRequest, pairs: readonly (readonly [string, string])[]): string {
  if (request.method === 'GET' || pairs.length === 0) return requestUrlOf(request);
  const base = requestUrlOf(request).split('?')[0]!;
  const encode = (text: string) => text.replace(/[^A-Za-z0-9\-._~!$'()*,;:@/?=\[\]{}]/gu, (c) => encodeURIComponent(c));
  // A name ends at its first `=`, so one inside a name is encoded (in values it stays readable: `filter=building=*`).
  return `${base}?${pairs.map(([k, v]) => `${encode(k).replaceAll('=', '%3D')}=${encode(v)}`).join('&')}`;
}

/** Java `LocalDateTime.now().toString()` (server local time, no zone). */
export function localDateTimeNow(now = new Date()): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(now.getFullYear(), 4)}-${p(now.getMonth() + 1)}-${p(now.getDate())}T${p(now.getHours())}:${p(now.getMinutes())}:${p(now.getSeconds())}.${p(now.getMilliseconds(), 3)}`;
}

/** Spring Boot's default error timestamp: `2023-01-04T12:55:58.576+00:00`. */
function springTimestamp(now = new Date()): string {
  return now.toISOString().replace('Z', '+00:00');
}

/**
 * The reference's error body, with the attribution first: the specification has every JSON answer
 * carry it (the reference's error bodies did not; clients read `message` and `status`, unchanged).
 */
export function customErrorBody(status: number, message: string, requestUrl: string | undefined): string {
  return prettyJson({ attribution: { ...ATTRIBUTION }, timestamp: localDateTimeNow(), status: BigInt(status), message, requestUrl });
}

/** Spring Boot's default error body (unknown path, wrong method, internal failure), with the attribution. */
export function defaultErrorBody(status: number, error: string, path: string): string {
  return prettyJson({ attribution: { ...ATTRIBUTION }, timestamp: springTimestamp(), status: BigInt(status), error, path });
}

export function sendCustomError(request: FastifyRequest, reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'application/json')
    .header('cache-control', 'no-cache, no-store, must-revalidate')
    .send(customErrorBody(status, message, requestUrlOf(request)));
}

export function sendMaphistError(request: FastifyRequest, reply: FastifyReply, e: MaphistError): FastifyReply {
  const status = v1Status(e.code);
  if (status >= 500 && status !== 503) return sendInternalError(request, reply, e);
  if (status === 405) return sendMethodNotAllowed(request, reply, 'GET,POST');
  const message = e.code === 'QUERY_TIMEOUT' ? QUERY_TIMEOUT_MESSAGE : e.message;
  return sendCustomError(request, reply, status, message);
}

/**
 * 405 with `Allow`. The reference answered with an empty body; maphist sends Spring's default error
 * body, so that this answer too carries the attribution like every JSON answer.
 */
export function sendMethodNotAllowed(request: FastifyRequest, reply: FastifyReply, allow: string): FastifyReply {
  const status = v1Status('METHOD_NOT_ALLOWED');
  return reply
    .code(status)
    .header('allow', allow)
    .header('content-type', 'application/json')
    .header('cache-control', 'no-cache, no-store, must-revalidate')
    .send(defaultErrorBody(status, 'Method Not Allowed', pathOf(request)));
}

export function sendInternalError(request: FastifyRequest, reply: FastifyReply, e: unknown): FastifyReply {
  request.log.error({ err: e }, 'unexpected failure in a v1 request');
  const status = v1Status('INTERNAL_ERROR');
  return reply
    .code(status)
    .header('content-type', 'application/json')
    .header('cache-control', 'no-cache, no-store, must-revalidate')
    .send(defaultErrorBody(status, 'Internal Server Error', pathOf(request)));
}

/**
 * A request Fastify refuses before routing (a path whose percent-encoding cannot be decoded,
 * REQUEST_MALFORMED; a path parameter too long, URI_TOO_LONG): Spring's default body with the
 * attribution, like an unknown path.
 */
export function sendV1FrameworkError(request: FastifyRequest, reply: FastifyReply, error: FastifyError): FastifyReply {
  const code = frameworkErrorCode(error);
  const status = code === undefined ? 500 : v1Status(code);
  if (code === undefined) request.log.error({ err: error }, 'unexpected failure before routing a v1 request');
  return reply
    .code(status)
    .header('content-type', 'application/json')
    .header('cache-control', 'no-cache, no-store, must-revalidate')
    .send(defaultErrorBody(status, STATUS_CODES[status] ?? 'Error', pathOf(request)));
}

/** The catalog code of an error Fastify raises itself (by its HTTP status); undefined: not the client's fault. */
export function frameworkErrorCode(error: FastifyError): ErrorCode | undefined {
  const status = error.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 414) return 'URI_TOO_LONG';
  if (status === 415) return 'CONTENT_TYPE_UNSUPPORTED';
  return 'REQUEST_MALFORMED';
}

/** The request is for version 1 (`/v1`, `/v1/…`, `/v1?…`). */
export function isV1Request(request: FastifyRequest): boolean {
  return /^\/v1(?:[/?#]|$)/.test(request.raw.url ?? request.url);
}

function pathOf(request: FastifyRequest): string {
  const url = request.raw.url ?? request.url;
  const q = url.indexOf('?');
  return q >= 0 ? url.slice(0, q) : url;
}

/** Maps Fastify's own errors (body parsing, limits) onto the reference's answers. */
function fromFastifyError(e: FastifyError): MaphistError | undefined {
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new MaphistError('CONTENT_TYPE_UNSUPPORTED', CONTENT_TYPE_MESSAGE);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new MaphistError('PAYLOAD_TOO_LARGE', PAYLOAD_TOO_LARGE_MESSAGE);
    default:
      break;
  }
  // Malformed bodies and the like: the client's fault, never a 500.
  const code = frameworkErrorCode(e);
  return code === undefined ? undefined : new MaphistError(code, code === 'CONTENT_TYPE_UNSUPPORTED' ? CONTENT_TYPE_MESSAGE : e.message);
}

/** Installs the error and not-found handlers on the v1 scope. */
export function installV1ErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request, reply) => {
    if (isMaphistError(error)) return sendMaphistError(request, reply, error);
    const mapped = fromFastifyError(error as FastifyError);
    if (mapped) return sendMaphistError(request, reply, mapped);
    return sendInternalError(request, reply, error);
  });
  app.setNotFoundHandler((request, reply) => {
    const status = v1Status('RESOURCE_NOT_FOUND');
    return reply
      .code(status)
      .header('content-type', 'application/json')
      .header('cache-control', 'no-cache, no-store, must-revalidate')
      .send(defaultErrorBody(status, 'Not Found', pathOf(request)));
  });
}
