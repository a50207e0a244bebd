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
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, _body, done) => {
    done(null, undefined);
  });
}

/** Query pairs, then (POST only) body pairs. */
export async function collectPairs(request: FastifyRequest): Promise<Pair[]> {
  const pairs = queryPairs(request);
  if (request.method !== 'POST') return pairs;
  const body = request.body as { form?: string } | undefined;
  if (body && typeof body.form === 'string') {
    pairs.push(...formPairs(body.form));
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
