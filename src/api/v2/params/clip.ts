/**
 * The `clip` parameter (docs/reference/v2-reference-and-contributions-format.md §1.3): whether length/area (statistics) or geometries (extraction) are cut
 * to the aoi. Defaults differ per endpoint, as in the reference; contributions extraction has none.
 */
import { invalidInput } from '../error-status.js';

export type ClipEndpoint = 'stats/features' | 'stats/currentness' | 'extraction/features' | 'extraction/collections';

/** The defaults of the reference; collections: true for POST, false for GET (the reference's inconsistency kept). */
export function clipDefault(endpoint: ClipEndpoint, method: 'GET' | 'POST'): boolean {
  switch (endpoint) {
    case 'stats/features':
    case 'stats/currentness':
      return false;
    case 'extraction/features':
      return true;
    case 'extraction/collections':
      return method === 'POST';
  }
}

export function parseClip(value: unknown, endpoint: ClipEndpoint, method: 'GET' | 'POST'): boolean {
  if (value === undefined || value === null) return clipDefault(endpoint, method);
  if (typeof value !== 'boolean') throw invalidInput('PARAM_INVALID', ['clip'], 'Input should be a valid boolean', 'bool_type');
  return value;
}
