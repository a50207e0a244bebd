/**
 * The `groupBy` parameter of the statistics (docs/reference/v2-reference-and-contributions-format.md §1.3, experimental):
 * `{"type": "byTag", "key": "<osm key>"}` (the reference's form, on features), and maphist's
 * extensions (issue 22), on every statistic: `{"type": "byTag", "key", "values": [...]}` (only
 * those values) and `{"type": "byType"}` (node, way, relation); absent or null = no grouping.
 */
import type { StatsGrouping } from '../../../query/stats.js';
import { LIMITS, limitMessage } from '../../common/limits.js';
import { invalidInput } from '../error-status.js';

/** At most this many `values` (src/api/common/limits.ts, docs/limits.md). */
export const MAX_GROUP_BY_VALUES = LIMITS.groupByValues.v2;

export function parseGroupBy(value: unknown): StatsGrouping | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidInput('PARAM_INVALID', ['groupBy'], 'Input should be a valid dictionary or object', 'dict_type');
  }
  const g = value as Record<string, unknown>;
  for (const k of Object.keys(g)) {
    if (k !== 'type' && k !== 'key' && k !== 'values') throw invalidInput('PARAM_INVALID', ['groupBy', k], 'Extra inputs are not permitted', 'extra_forbidden');
  }
  if (g.type !== 'byTag' && g.type !== 'byType')
    throw invalidInput('PARAM_INVALID', ['groupBy', 'type'], "Input should be 'byTag' or 'byType'", 'literal_error');
  if (g.type === 'byType') {
    for (const k of ['key', 'values']) {
      if (k in g) throw invalidInput('PARAM_INVALID', ['groupBy', k], 'Extra inputs are not permitted', 'extra_forbidden');
    }
    return { by: 'type' };
  }
  if (typeof g.key !== 'string')
    throw invalidInput(
      'PARAM_INVALID',
      ['groupBy', 'key'],
      g.key === undefined ? 'Field required' : 'Input should be a valid string',
      g.key === undefined ? 'missing' : 'string_type',
    );
  if (g.key === '') throw invalidInput('PARAM_INVALID', ['groupBy', 'key'], 'String should have at least 1 character', 'string_too_short');
  if (g.values === undefined || g.values === null) return { by: 'tag', key: g.key };
  if (!Array.isArray(g.values)) throw invalidInput('PARAM_INVALID', ['groupBy', 'values'], 'Input should be a valid list', 'list_type');
  if (g.values.length === 0)
    throw invalidInput('PARAM_INVALID', ['groupBy', 'values'], 'List should have at least 1 item after validation, not 0', 'too_short');
  if (g.values.length > MAX_GROUP_BY_VALUES)
    throw invalidInput(
      'PARAM_INVALID',
      ['groupBy', 'values'],
      limitMessage('values in groupBy.values', MAX_GROUP_BY_VALUES, g.values.length, 'Split them over several requests.'),
      'too_long',
    );
  g.values.forEach((v, i) => {
    if (typeof v !== 'string') throw invalidInput('PARAM_INVALID', ['groupBy', 'values', i], 'Input should be a valid string', 'string_type');
  });
  return { by: 'tag', key: g.key, values: [...new Set(g.values as string[])] };
}
