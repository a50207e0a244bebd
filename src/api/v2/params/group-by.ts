/**
 * The `groupBy` parameter of stats/features (docs/reference/v2-reference-and-contributions-format.md §1.3, experimental): `{"type": "byTag", "key": "<osm key>"}`;
 * absent or null = no grouping. Returns the key.
 */
import { invalidInput } from '../error-status.js';

export function parseGroupBy(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidInput('PARAM_INVALID', ['groupBy'], 'Input should be a valid dictionary or object', 'dict_type');
  }
  const g = value as Record<string, unknown>;
  for (const k of Object.keys(g)) {
    if (k !== 'type' && k !== 'key') throw invalidInput('PARAM_INVALID', ['groupBy', k], 'Extra inputs are not permitted', 'extra_forbidden');
  }
  if (g.type !== 'byTag') throw invalidInput('PARAM_INVALID', ['groupBy', 'type'], "Input should be 'byTag'", 'literal_error');
  if (typeof g.key !== 'string')
    throw invalidInput(
      'PARAM_INVALID',
      ['groupBy', 'key'],
      g.key === undefined ? 'Field required' : 'Input should be a valid string',
      g.key === undefined ? 'missing' : 'string_type',
    );
  if (g.key === '') throw invalidInput('PARAM_INVALID', ['groupBy', 'key'], 'String should have at least 1 character', 'string_too_short');
  return g.key;
}
