/** `clipGeometry` (extraction, docs/reference/v1-reference-behaviour.md §1.8): like showMetadata; absent or empty = true. */
import { MaphistError } from '../../../core/errors.js';
import { parseBooleanKeyword } from './boolean-keyword.js';
import { MSG } from './messages.js';

export function parseClipGeometry(value: string | undefined): boolean {
  const b = parseBooleanKeyword(value, true);
  if (b === undefined) throw new MaphistError('PARAM_INVALID', MSG.CLIP_GEOMETRY, { parameter: 'clipGeometry' });
  return b;
}
