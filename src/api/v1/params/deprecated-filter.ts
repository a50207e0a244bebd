/**
 * The deprecated `types`, `keys`, `values` (and `types2`, `keys2`, `values2`) parameters (docs/reference/v1-reference-behaviour.md §1.6),
 * translated into filter text: `keys=k1,k2` with `values=v1` is `k1=v1 and k2=*`; `types` is a
 * list of up to four OSM types or simple-feature types.
 */
import { MaphistError } from '../../../core/errors.js';
import type { OsmType } from '../../../core/osm.js';
import { MSG } from './messages.js';

const OSM_TYPES = ['node', 'way', 'relation'];
const FEATURE_TYPES = ['point', 'line', 'polygon', 'other'];

/** Comma items, trimmed, empty items dropped (the empty parameter is the empty list). */
export function splitList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export interface DeprecatedTypes {
  kind: 'osm' | 'feature';
  /** Lower-cased, in request order, without repeats. */
  types: string[];
  /** The OSM types these select (simple-feature types imply them). */
  osmTypes: OsmType[];
}

/** `types`/`types2`: undefined when empty (= all three OSM types). */
export function parseDeprecatedTypes(value: string | undefined): DeprecatedTypes | undefined {
  const items = splitList(value).map((s) => s.toLowerCase());
  if (items.length === 0) return undefined;
  if (items.length > 4) throw new MaphistError('PARAM_INVALID', MSG.TYPES_TOO_MANY, { parameter: 'types' });
  let kind: 'osm' | 'feature';
  if (items.every((t) => OSM_TYPES.includes(t))) kind = 'osm';
  else if (items.every((t) => FEATURE_TYPES.includes(t))) kind = 'feature';
  else throw new MaphistError('PARAM_INVALID', MSG.TYPES_INVALID, { parameter: 'types' });
  const types = [...new Set(items)];
  const implied: Record<string, OsmType[]> = {
    node: ['node'],
    way: ['way'],
    relation: ['relation'],
    point: ['node'],
    line: ['way'],
    polygon: ['way', 'relation'],
    other: ['relation'],
  };
  const osmTypes = (['node', 'way', 'relation'] as const).filter((t) => types.some((x) => implied[x]!.includes(t)));
  return { kind, types, osmTypes };
}

function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * The filter text equivalent to the deprecated parameters. Simple-feature types become
 * `geometry:` conditions, which in version 1 carry the same implied OSM types.
 */
export function deprecatedFilterText(types: DeprecatedTypes | undefined, keysValue?: string, valuesValue?: string): string {
  const keys = splitList(keysValue);
  const values = splitList(valuesValue);
  if (values.length > keys.length) throw new MaphistError('PARAM_INVALID', MSG.VALUES_MORE_THAN_KEYS, { parameter: 'values' });
  const terms: string[] = [];
  if (types !== undefined) {
    const conditions = types.kind === 'osm' ? types.types.map((t) => `type:${t}`) : types.types.map((t) => `geometry:${t}`);
    if (!(types.kind === 'osm' && conditions.length === 3)) terms.push(`(${conditions.join(' or ')})`);
  }
  keys.forEach((k, i) => {
    const v = values[i];
    terms.push(v === undefined ? `${quote(k)}=*` : `${quote(k)}=${quote(v)}`);
  });
  return terms.join(' and ');
}
