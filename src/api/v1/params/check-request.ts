/**
 * The generic request checks of docs/reference/v1-reference-behaviour.md §1.3, in the reference's order: content
 * type, no parameters, the first unknown parameter (with a suggestion), duplicates.
 */
import { MaphistError } from '../../../core/errors.js';
import { unknownParameterMessage } from './fuzzy-suggestion.js';
import { MSG } from './messages.js';
import { acceptedParameters } from './route-parameters.js';

/** One request parameter as received: query string pairs first, then body pairs, in order. */
export type ParamPair = readonly [name: string, value: string];

/**
 * True if a Content-Type header (if any) names a form encoding or JSON (issue 22: a JSON object of
 * the form's parameters, request-pairs.ts `jsonPairs`). Media types compare case-insensitively.
 */
export function isSupportedContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return true;
  const c = contentType.toLowerCase();
  return c.includes('application/x-www-form-urlencoded') || c.includes('multipart/form-data') || /^\s*application\/json\s*(?:;|$)/.test(c);
}

/**
 * Runs the generic checks and returns the parameters by name (each name is unique afterwards).
 * `path` is the route path below `/v1`.
 */
export function checkRequest(path: string, pairs: readonly ParamPair[], contentType?: string): Map<string, string> {
  if (!isSupportedContentType(contentType)) throw new MaphistError('CONTENT_TYPE_UNSUPPORTED', MSG.CONTENT_TYPE);
  const accepted = acceptedParameters(path);
  if (path === '/metadata' || path === '/metadata/') {
    if (pairs.length > 0) throw new MaphistError('PARAM_UNKNOWN', MSG.METADATA_NO_PARAMS, { parameter: pairs[0]![0] });
    return new Map();
  }
  if (pairs.length === 0) throw new MaphistError('PARAM_NONE', MSG.NO_PARAMS);
  for (const [name] of pairs) {
    if (!accepted.includes(name)) {
      throw new MaphistError('PARAM_UNKNOWN', unknownParameterMessage(name, accepted), { parameter: name });
    }
  }
  // Like the reference's parameter map: names in order of first appearance, the first one given twice is named.
  const params = new Map<string, string>();
  const repeated = new Set<string>();
  for (const [name, value] of pairs) {
    if (params.has(name)) repeated.add(name);
    else params.set(name, value);
  }
  for (const name of params.keys()) {
    if (repeated.has(name)) throw new MaphistError('PARAM_DUPLICATE', MSG.duplicate(name), { parameter: name });
  }
  return params;
}
