/**
 * The admission limits of both API versions: one table, enforced while a request is read and before
 * any work is done for it (a parser counts before it splits, so a request over a limit never builds
 * the oversized list). docs/limits.md is this table in prose, with the reasoning behind each value;
 * src/api/common/limits.test.ts keeps the two in step.
 *
 * Every refusal names the limit and the value the request gave (limitMessage), with an existing
 * catalog code, so each version answers it with its own status and error body.
 */
import type { ErrorCode } from '../../core/errors.js';
import { DEFAULT_LIMITS as FILTER_LIMITS } from '../../filter/limits.js';
import type { Pause } from '../../core/yielding.js';
import { MAX_EDGE_PAIRS, PolygonTooComplex, polygonProblemSteps } from '../../geometry/polygon-validity.js';
import type { MultiPolygon, Polygon } from '../../geometry/types.js';

export interface AdmissionLimit {
  /** The largest value accepted in version 1 (undefined: version 1 has no such input). */
  readonly v1: number | undefined;
  /** The largest value accepted in version 2 (undefined: version 2 has no such input). */
  readonly v2: number | undefined;
  /** What is counted. */
  readonly unit: string;
  /** What the limit bounds, for the docs. */
  readonly bounds: string;
  /** The catalog code of the refusal. */
  readonly code: ErrorCode;
}

const MB = 1024 * 1024;

export const LIMITS = {
  boundaries: {
    v1: 1_000,
    v2: undefined,
    unit: 'boundaries',
    bounds: 'boundary objects of one request: bboxes, bcircles, bpolys polygons or GeoJSON features (v2 takes one aoi)',
    code: 'BOUNDARY_INVALID',
  },
  vertices: {
    v1: 100_000,
    v2: 100_000,
    unit: 'vertices',
    bounds: 'coordinate pairs over all boundaries of one request (v1 bpolys, v2 aoi), counted in the text before it is parsed',
    code: 'BOUNDARY_INVALID',
  },
  edgePairs: {
    v1: MAX_EDGE_PAIRS,
    v2: MAX_EDGE_PAIRS,
    unit: 'pairs',
    bounds:
      'pairs of edges of one boundary polygon whose extents meet, and of its rings one inside another, compared when it is checked for validity (ordinary polygons have a few per edge; long edges across much of a polygon, as in a star, or rings nested in each other come in quadratically many)',
    code: 'BOUNDARY_INVALID',
  },
  timestamps: {
    v1: 10_000,
    v2: 1_000,
    unit: 'timestamps',
    bounds: 'timestamps of one request: a time list or a start/end/period series (v2: series points or bin edges); a longer one is refused, never cut',
    code: 'TIME_INVALID',
  },
  groupByKeys: {
    v1: 50,
    v2: undefined,
    unit: 'keys',
    bounds: 'keys of groupByKeys (…/groupBy/key); v2 groups by one key',
    code: 'PARAM_INVALID',
  },
  groupByValues: {
    v1: 1_000,
    v2: 1_000,
    unit: 'values',
    bounds: "values of groupByValues (…/groupBy/tag); v2: `groupBy.values` (maphist's extension)",
    code: 'PARAM_INVALID',
  },
  filterLength: {
    v1: FILTER_LIMITS.maxLength,
    v2: FILTER_LIMITS.maxLength,
    unit: 'characters',
    bounds: 'length of one filter (filter, filter2, or the filter the deprecated keys/values/types build)',
    code: 'FILTER_TOO_LONG',
  },
  filterDepth: {
    v1: FILTER_LIMITS.maxDepth,
    v2: FILTER_LIMITS.maxDepth,
    unit: 'levels',
    bounds: 'nesting of parentheses and `not` in one filter',
    code: 'FILTER_TOO_DEEP',
  },
  filterTerms: {
    v1: FILTER_LIMITS.maxDnfTerms,
    v2: FILTER_LIMITS.maxDnfTerms,
    unit: 'terms',
    bounds: 'and-clauses of a filter once every `or` is multiplied out',
    code: 'FILTER_TOO_COMPLEX',
  },
  bodyBytes: {
    v1: 20 * MB,
    v2: 20 * MB,
    unit: 'bytes',
    bounds: 'request body (form, multipart or JSON), checked against Content-Length before it is read',
    code: 'PAYLOAD_TOO_LARGE',
  },
  queryBytes: {
    v1: 32 * 1024,
    v2: 32 * 1024,
    unit: 'bytes',
    bounds: 'query string of the URL (after `?`, as sent)',
    code: 'URI_TOO_LONG',
  },
} as const satisfies Record<string, AdmissionLimit>;

export type LimitName = keyof typeof LIMITS;

/**
 * Node's limit on the request line and headers together (the `maxHeaderSize` of the HTTP server): a
 * request over it is refused by Node's parser before any API code runs (431, client-error.ts). It
 * leaves room for the longest accepted query string and ordinary headers.
 */
export const MAX_HEADER_BYTES = 64 * 1024;

/** 1000 → "1,000". */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** 20971520 → "20 MB", 32768 → "32 KB", else bytes. */
export function formatBytes(n: number): string {
  if (n >= MB && n % MB === 0) return `${n / MB} MB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KB`;
  return `${formatCount(n)} bytes`;
}

/**
 * The refusal's text: `what` names the input (`boundaries`, `timestamps in the time parameter`),
 * `given` the request's count (`more than` when parsing stopped at the limit without counting on),
 * `fix` says what to do instead.
 */
export function limitMessage(what: string, limit: number, given: number | string, fix: string, unit = (n: number) => formatCount(n)): string {
  const value = typeof given === 'number' ? unit(given) : given;
  return `At most ${unit(limit)} ${what} are accepted; the request has ${value}. ${fix}`;
}

/**
 * `findPolygonProblem` with the `edgePairs` limit: the polygon's first problem (undefined when it
 * is valid); a polygon too complex to check is refused through `refuse` (each version's error).
 */
export function polygonProblem(geometry: Polygon | MultiPolygon, version: 'v1' | 'v2', refuse: (message: string) => never): string | undefined {
  const steps = polygonProblemSteps(geometry, LIMITS.edgePairs[version]);
  try {
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  } catch (e) {
    return refuse(tooComplex(e, version));
  }
}

/**
 * `polygonProblem` with turns of the event loop between its steps (`pause`, src/core/yielding.ts):
 * checking an aoi of 100,000 vertices or 10,000 parts takes 0.1–0.3 s, which would otherwise hold
 * every other request for that long.
 */
export async function polygonProblemPaced(
  geometry: Polygon | MultiPolygon,
  version: 'v1' | 'v2',
  refuse: (message: string) => never,
  pause: Pause,
): Promise<string | undefined> {
  const steps = polygonProblemSteps(geometry, LIMITS.edgePairs[version]);
  try {
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      await pause();
    }
  } catch (e) {
    return refuse(tooComplex(e, version));
  }
}

/** The refusal of a polygon over the edgePairs limit; any other error is thrown on. */
function tooComplex(e: unknown, version: 'v1' | 'v2'): string {
  if (!(e instanceof PolygonTooComplex)) throw e;
  const max = LIMITS.edgePairs[version];
  return limitMessage(
    'pairs of edges or rings with meeting extents in one polygon',
    max,
    `more than ${formatCount(max)}`,
    'Simplify the polygon: long edges across much of it (a star, a comb) or rings nested in each other come near each other in too many pairs to check.',
  );
}

/** A refusal before any work: the code and the message an API version answers with. */
export interface Refusal {
  readonly code: ErrorCode;
  readonly message: string;
}

/**
 * The query-string and body-size limits of a request, from its URL and Content-Length alone (run as
 * an onRequest hook, before the body is read). A body sent without Content-Length is cut off by the
 * body parser's own limit instead (bodyTooLargeMessage).
 */
export function requestSizeRefusal(url: string, contentLength: string | undefined, version: 'v1' | 'v2'): Refusal | undefined {
  const q = url.indexOf('?');
  const queryBytes = q < 0 ? 0 : Buffer.byteLength(url.slice(q + 1));
  const maxQuery = LIMITS.queryBytes[version];
  if (queryBytes > maxQuery) {
    return {
      code: LIMITS.queryBytes.code,
      message: `A query string of at most ${formatBytesExact(maxQuery)} is accepted; the request has ${formatBytesExact(queryBytes)}. Send the parameters in a POST body instead.`,
    };
  }
  const length = contentLength === undefined ? Number.NaN : Number(contentLength);
  const maxBody = LIMITS.bodyBytes[version];
  if (Number.isFinite(length) && length > maxBody) return { code: LIMITS.bodyBytes.code, message: bodyTooLargeMessage(version, length) };
  return undefined;
}

/** The body-size refusal; `given` undefined: the body had no Content-Length and was cut off at the limit. */
export function bodyTooLargeMessage(version: 'v1' | 'v2', given?: number): string {
  const max = LIMITS.bodyBytes[version];
  const has = given === undefined ? `more than ${formatBytesExact(max)}` : formatBytesExact(given);
  return `A request body of at most ${formatBytesExact(max)} is accepted; the request has ${has}. Simplify the boundaries, or split the request into several.`;
}

/** "32 KB (32,768 bytes)": the rounded size and the exact byte count. */
export function formatBytesExact(n: number): string {
  const rounded = formatBytes(n);
  return rounded.endsWith('bytes') ? rounded : `${rounded} (${formatCount(n)} bytes)`;
}

/**
 * The number of positions in JSON text (each `[` followed by a number), counted before the JSON is
 * parsed, so that a boundary over the vertex limit is refused before it is built. Other numeric
 * arrays (a GeoJSON feature's properties) count too; boundaries rarely carry any.
 */
export function countJsonPositions(text: string): number {
  let n = 0;
  for (let i = text.indexOf('['); i >= 0; i = text.indexOf('[', i + 1)) {
    let j = i + 1;
    let c = text.charCodeAt(j);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++j);
    if ((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e) n++;
  }
  return n;
}
