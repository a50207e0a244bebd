/**
 * `groupByKey`, `groupByValues` (…/groupBy/tag) and `groupByKeys` (…/groupBy/key), docs/reference/v1-reference-behaviour.md §1.7: items
 * split on `,` and trimmed (inner spaces kept); and the grouping a route's groupBy chain asks for.
 */
import { MaphistError } from '../../../core/errors.js';
import type { RequestGrouping } from '../../../query/model.js';
import { javaSplitCount } from './java-text.js';
import { admit } from './limit-check.js';
import { MSG } from './messages.js';
import type { V1Route } from './route-parameters.js';

function items(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** `groupByKey`: exactly one key. */
export function parseGroupByKey(value: string | undefined): string {
  const key = value?.trim() ?? '';
  if (key === '' || key.includes(',')) throw new MaphistError('PARAM_INVALID', MSG.GROUP_BY_KEY, { parameter: 'groupByKey' });
  return key;
}

/** `groupByValues`: optional; undefined = every value found. */
export function parseGroupByValues(value: string | undefined): string[] | undefined {
  if (value !== undefined)
    admit('groupByValues', javaSplitCount(value, ','), 'values in groupByValues', 'Split them over several requests.', { parameter: 'groupByValues' });
  const list = value === undefined ? [] : [...new Set(items(value))];
  return list.length === 0 ? undefined : list;
}

/** `groupByKeys`: one or more keys. */
export function parseGroupByKeys(value: string | undefined): string[] {
  if (value !== undefined)
    admit('groupByKeys', javaSplitCount(value, ','), 'keys in groupByKeys', 'Split them over several requests.', { parameter: 'groupByKeys' });
  const list = value === undefined ? [] : [...new Set(items(value))];
  if (list.length === 0) throw new MaphistError('PARAM_INVALID', MSG.GROUP_BY_KEYS, { parameter: 'groupByKeys' });
  return list;
}

/** The grouping of a route, reading the groupBy parameters it needs (the endpoint-specific checks of docs/reference/v1-reference-behaviour.md §1.3). */
export function parseGrouping(route: V1Route, params: ReadonlyMap<string, string>): RequestGrouping {
  const chain = route.groupBy.join('/');
  switch (chain) {
    case '':
      return { by: 'none' };
    case 'boundary':
      return { by: 'boundary' };
    case 'type':
      return { by: 'type' };
    case 'contributionType':
      return { by: 'contributionType' };
    case 'element':
      return { by: 'element' };
    case 'key':
      return { by: 'key', keys: parseGroupByKeys(params.get('groupByKeys')) };
    case 'tag':
    case 'boundary/tag': {
      const key = parseGroupByKey(params.get('groupByKey'));
      const values = parseGroupByValues(params.get('groupByValues'));
      const by = chain === 'tag' ? 'tag' : 'boundaryAndTag';
      return values === undefined ? { by, key } : { by, key, values };
    }
    default:
      throw new Error(`unexpected groupBy chain ${chain}`);
  }
}
