/** `showMetadata` (docs/reference/v1-reference-behaviour.md §1.8): `true|yes|false|no`, case-insensitive, whitespace removed; empty or absent = false. */
import { MaphistError } from '../../../core/errors.js';
import { parseBooleanKeyword } from './boolean-keyword.js';
import { MSG } from './messages.js';

export function parseShowMetadata(value: string | undefined): boolean {
  const b = parseBooleanKeyword(value, false);
  if (b === undefined) throw new MaphistError('PARAM_INVALID', MSG.SHOW_METADATA, { parameter: 'showMetadata' });
  return b;
}
