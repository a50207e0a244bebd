/**
 * The one mapping from the error catalog to version 2 HTTP statuses, and the version 2 error
 * bodies (docs/reference/v2-reference-and-contributions-format.md §1.5, FastAPI's shapes):
 *
 * - invalid input (body, query, filter, aoi, time, …): 422 `{"detail":[{"loc":[…],"msg":"…","type":"…"}]}`
 * - unknown path: 404 `{"detail":"Not Found"}`; wrong method: 405 `{"detail":"Method Not Allowed"}`
 * - time limit exceeded: 504 `{"detail":[{"loc":[],"msg":"Query timeout limit has been exceeded. …","type":"QueryTimeoutError"}]}`
 * - anything unexpected: 500 `{"detail":"Internal Server Error"}`, logged.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MaphistError, type ErrorCode } from '../../core/errors.js';

export const V2_ERROR_STATUS = {
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
  FILTER_SYNTAX: 422,
  FILTER_TOO_LONG: 422,
  FILTER_TOO_DEEP: 422,
  FILTER_TOO_COMPLEX: 422,
  FILTER_NOT_ALLOWED: 422,
  PARAM_NONE: 422,
  PARAM_UNKNOWN: 422,
  PARAM_DUPLICATE: 422,
  PARAM_INVALID: 422,
  CONTENT_TYPE_UNSUPPORTED: 422,
  BOUNDARY_INVALID: 422,
  BOUNDARY_OUTSIDE_DATA: 422,
  BOUNDARY_RELATION_NOT_FOUND: 404,
  BOUNDARY_RELATION_NOT_AREAL: 422,
  // Includes "time series larger than 1000 points" (the 2.0.0a8 reference: 422; a later snapshot: 400).
  TIME_INVALID: 422,
  TIME_OUTSIDE_DATA: 422,
  QUERY_TIMEOUT: 504,
  // nginx's "client closed request": the client never sees it (the request log does).
  CLIENT_DISCONNECTED: 499,
  SERVER_SHUTTING_DOWN: 503,
  // Admission (api/common/admission.ts): the queue of heavy requests is full; with Retry-After.
  SERVER_BUSY: 503,
  PAYLOAD_TOO_LARGE: 413,
  METHOD_NOT_ALLOWED: 405,
  RESOURCE_NOT_FOUND: 404,
  REQUEST_MALFORMED: 422,
  URI_TOO_LONG: 414,
  HEADERS_TOO_LARGE: 431,
  CLI_USAGE: 500,
  SQL_NOT_ALLOWED: 500,
  // The request guard (src/auth/api-key-hook.ts) answers with these statuses.
  API_KEY_MISSING: 401,
  API_KEY_INVALID: 403,
  // The reference's gateway answers 403; a used-up quota is "too many requests" (RFC 6585), with Retry-After (docs/api-keys.md).
  API_KEY_QUOTA_EXCEEDED: 429,
  API_KEY_RATE_LIMITED: 429,
  // Key management errors come from the command line.
  KEY_NOT_FOUND: 500,
  KEYS_DB_BUSY: 500,
  KEYS_DB_INVALID: 500,
  INTERNAL_ERROR: 500,
} as const satisfies Record<ErrorCode, number>;

export function v2Status(code: ErrorCode): number {
  return V2_ERROR_STATUS[code];
}

/** Where in the request a problem is: `["body","time","start"]`, `["query","filter"]`. */
export type Loc = (string | number)[];

/** One entry of a 422 body. */
export interface ValidationIssue {
  loc: Loc;
  msg: string;
  type: string;
}

/** The `details` a version 2 input error carries (all parsers set them). */
export interface IssueDetails {
  issues: ValidationIssue[];
}

/** A catalog error describing one invalid input at `loc`. */
export function invalidInput(code: ErrorCode, loc: Loc, msg: string, type: string): MaphistError {
  return new MaphistError(code, msg, { issues: [{ loc, msg, type }] } satisfies IssueDetails);
}

/** The same error with `prefix` put in front of every loc (a parser knows the field, the route knows body/query). */
export function withLocPrefix(e: MaphistError, prefix: Loc): MaphistError {
  const issues = issuesOf(e).map((i) => ({ ...i, loc: [...prefix, ...i.loc] }));
  return new MaphistError(e.code, e.message, { ...e.details, issues });
}

export function issuesOf(e: MaphistError): ValidationIssue[] {
  const issues = (e.details as Partial<IssueDetails> | undefined)?.issues;
  if (Array.isArray(issues) && issues.length > 0) return issues;
  return [{ loc: [], msg: e.message, type: typeOfCode(e.code) }];
}

function typeOfCode(code: ErrorCode): string {
  if (code === 'QUERY_TIMEOUT') return 'QueryTimeoutError';
  if (code.startsWith('FILTER_')) return 'filter_invalid';
  return code.toLowerCase();
}

export function timeoutMessage(statsSeconds: number, extractionSeconds: number): string {
  return `Query timeout limit has been exceeded. For statistics endpoints the timeout limit is ${statsSeconds}s. For extraction endpoints the timeout limit is ${extractionSeconds}s.`;
}

export function queryTimeoutError(statsSeconds: number, extractionSeconds: number): MaphistError {
  const msg = timeoutMessage(statsSeconds, extractionSeconds);
  return invalidInput('QUERY_TIMEOUT', [], msg, 'QueryTimeoutError');
}

export function sendDetail(reply: FastifyReply, status: number, detail: unknown): FastifyReply {
  return reply.code(status).header('content-type', 'application/json').send(JSON.stringify({ detail }));
}

export function sendMaphistError(request: FastifyRequest, reply: FastifyReply, e: MaphistError): FastifyReply {
  const status = v2Status(e.code);
  if (status >= 500 && status !== 503 && status !== 504) return sendInternalError(request, reply, e);
  if (status === 503 || status === 499) return sendDetail(reply, status, e.message);
  if (status === 404) return sendDetail(reply, status, 'Not Found');
  if (status === 405) return sendDetail(reply, status, 'Method Not Allowed');
  if (status === 413 || status === 414) return sendDetail(reply, status, e.message);
  return sendDetail(reply, status, issuesOf(e));
}

export function sendInternalError(request: FastifyRequest, reply: FastifyReply, e: unknown): FastifyReply {
  request.log.error({ err: e }, 'unexpected failure in a v2 request');
  return sendDetail(reply, v2Status('INTERNAL_ERROR'), 'Internal Server Error');
}
