/**
 * The request's parameters as ordered (name, value) pairs: the raw query string first, then the
 * body (form-urlencoded or multipart, fields and file parts alike), as the reference's servlet
 * parameter map orders them (docs/reference/v1-reference-behaviour.md §1.3). Duplicates are kept so the parser can reject them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { isMaphistError, MaphistError } from '../../core/errors.js';
import { LIMITS } from '../common/limits.js';
import { badPercentEncodingMessage, decodeUtf8, findBadPercentEncoding } from '../common/utf8.js';

export type Pair = readonly [name: string, value: string];

/**
 * 20 MB (src/api/common/limits.ts). The reference took 100 MB (docs/reference/v1-reference-behaviour.md §7),
 * but every input the other limits admit fits in far less.
 */
export const BODY_LIMIT = LIMITS.bodyBytes.v1;

export function queryPairs(request: FastifyRequest): Pair[] {
  const url = request.raw.url ?? request.url;
  const q = url.indexOf('?');
  if (q < 0) return [];
  return formPairs(url.slice(q + 1));
}

/**
 * `application/x-www-form-urlencoded` text → pairs (`+` is a space, percent-decoding as UTF-8).
 * Percent-encoded bytes that are not UTF-8 are refused (URLSearchParams would turn them into U+FFFD
 * silently); a `%` not followed by two hex digits stays as it is, as URLSearchParams leaves it.
 */
export function formPairs(text: string): Pair[] {
  assertPercentUtf8(text);
  const pairs: Pair[] = [];
  for (const [k, v] of new URLSearchParams(text)) pairs.push([k, v]);
  return pairs;
}

/** Decodes a body or file part as UTF-8; bytes that are not UTF-8 are the client's error (400). */
export function strictUtf8(bytes: Uint8Array, what: string): string {
  const text = decodeUtf8(bytes);
  if (text === undefined) throw new MaphistError('PARAM_INVALID', `The ${what} is not valid UTF-8. Send text encoded as UTF-8.`);
  return text;
}

/** Every run of percent-encoded bytes in form text decodes as UTF-8, or PARAM_INVALID naming the parameter. */
export function assertPercentUtf8(text: string): void {
  const bad = findBadPercentEncoding(text);
  if (bad !== undefined)
    throw new MaphistError('PARAM_INVALID', badPercentEncodingMessage(bad), bad.parameter === undefined ? undefined : { parameter: bad.parameter });
}

/**
 * Content-type parsers for the v1 scope: form bodies kept as text (parsed into ordered pairs),
 * multipart through @fastify/multipart, and any other type accepted as raw text so that the
 * parameter checks answer with the reference's content-type message instead of Fastify's 415.
 */
export async function installBodyParsers(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, body, done) => {
    try {
      done(null, { form: strictUtf8(body as Buffer, 'form body') });
    } catch (e) {
      done(e as Error, undefined);
    }
  });
  await app.register(multipart, {
    limits: { fieldSize: BODY_LIMIT, fileSize: BODY_LIMIT, fields: 10_000, files: 1_000, parts: 11_000 },
  });
  // JSON bodies (issue 22): the form's parameter names as an object's keys; read into pairs by jsonPairs.
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, body, done) => {
    try {
      done(null, { json: jsonPairs(strictUtf8(body as Buffer, 'JSON body')) });
    } catch (e) {
      done(e as Error, undefined);
    }
  });
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, _body, done) => {
    done(null, undefined);
  });
}

/** Query pairs, then (POST only) body pairs. */
export async function collectPairs(request: FastifyRequest): Promise<Pair[]> {
  const pairs = queryPairs(request);
  if (request.method !== 'POST') return pairs;
  const body = request.body as { form?: string; json?: Pair[] } | undefined;
  if (body && typeof body.form === 'string') {
    pairs.push(...formPairs(body.form));
  } else if (body && Array.isArray(body.json)) {
    pairs.push(...body.json);
  } else if (request.isMultipart()) {
    try {
      for await (const part of request.parts()) {
        // busboy gives a part without `name` in its Content-Disposition an undefined field name.
        if (typeof part.fieldname !== 'string' || part.fieldname === '') {
          throw new MaphistError(
            'PARAM_INVALID',
            'A part of the multipart body has no name: each part needs Content-Disposition: form-data; name="<parameter>".',
          );
        }
        if (part.type === 'file') pairs.push([part.fieldname, strictUtf8(await part.toBuffer(), `file part '${part.fieldname}'`)]);
        else pairs.push([part.fieldname, String(part.value ?? '')]);
      }
    } catch (e) {
      throw unreadableMultipart(e);
    }
  }
  return pairs;
}

/** The boundary parameters, whose list elements are boundary objects (joined by `|`, not `,`). */
const BOUNDARY_PARAMETERS = new Set(['bboxes', 'bcircles', 'bpolys']);

function malformedJson(reason: string): MaphistError {
  return new MaphistError('PARAM_INVALID', `The JSON body could not be read: ${reason}. Send one JSON object whose keys are the parameter names.`);
}

/** A JSON scalar as the form text it stands for (`30` → "30", `true` → "true"); undefined for anything else. */
function scalarText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

/**
 * A JSON body → the pairs the equivalent form body gives (params/README.md, "JSON bodies"): one
 * object; each key a parameter name, each value a string (as in the form), a number or boolean (its
 * text), or an array of those, joined by `,` (`"time": ["2014-01-01", "2016-01-01"]`). The boundary
 * parameters join their array elements by `|`, each element one boundary object, a string
 * (`"id:1.5,42.5,1.6,42.6"`) or an array of numbers (`[1.5, 42.5, 1.6, 42.6]`); `bpolys` may also
 * be a GeoJSON object (a FeatureCollection, sent on as its JSON text). An empty body is an empty object.
 * A key given twice in the text keeps its last value (JSON.parse's rule).
 */
export function jsonPairs(text: string): Pair[] {
  if (text.trim() === '') return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw malformedJson(e instanceof Error ? e.message : String(e));
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw malformedJson(
      `the body is ${Array.isArray(json) ? 'an array' : `the ${json === null ? 'null' : typeof json} ${JSON.stringify(json)}`}, not an object`,
    );
  const pairs: Pair[] = [];
  for (const [name, value] of Object.entries(json)) {
    const boundary = BOUNDARY_PARAMETERS.has(name);
    const scalar = scalarText(value);
    if (scalar !== undefined) {
      pairs.push([name, scalar]);
    } else if (name === 'bpolys' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      pairs.push([name, JSON.stringify(value)]);
    } else if (Array.isArray(value)) {
      const parts = value.map((element: unknown, i) => {
        const t = scalarText(element);
        if (t !== undefined) return t;
        if (boundary && Array.isArray(element) && element.length > 0) {
          const numbers = element.map(scalarText);
          if (element.every((n) => typeof n === 'number') && numbers.every((n) => n !== undefined)) return numbers.join(',');
        }
        throw malformedJson(
          `element ${i + 1} of '${name}' is ${JSON.stringify(element) ?? String(element)}; give strings or numbers${boundary ? ', or one array of numbers per boundary object' : ''}`,
        );
      });
      pairs.push([name, parts.join(boundary ? '|' : ',')]);
    } else {
      throw malformedJson(
        `the value of '${name}' is ${JSON.stringify(value) ?? String(value)}; give a string, a number, a boolean or an array of them${name === 'bpolys' ? ', or a GeoJSON FeatureCollection' : ''}`,
      );
    }
  }
  return pairs;
}

/**
 * A multipart body the parser cannot read (no boundary, cut short, a broken part header) is the
 * client's fault: 400 with the parser's reason, not an internal error. Fastify's own coded errors
 * (the size limits, answered 413) pass unchanged.
 */
function unreadableMultipart(e: unknown): unknown {
  if (isMaphistError(e) || typeof (e as { code?: unknown } | undefined)?.code === 'string') return e;
  const reason = e instanceof Error ? e.message : String(e);
  return new MaphistError('PARAM_INVALID', `The multipart body could not be read: ${reason}.`);
}
