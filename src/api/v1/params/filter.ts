/**
 * `filter` and `filter2` (docs/reference/v1-reference-behaviour.md §1.6), or their deprecated forms: parsed with the version-1 filter
 * language, errors worded as the reference words them. Changeset conditions are refused on
 * snapshot-based routes (anywhere in the filter, also under `not`).
 */
import { MaphistError, isMaphistError } from '../../../core/errors.js';
import { assertNoChangesetCondition, parseFilter, type Filter } from '../../../filter/index.js';
import { deprecatedFilterText, parseDeprecatedTypes, splitList, type DeprecatedTypes } from './deprecated-filter.js';
import { MSG } from './messages.js';

export interface FilterParams {
  filter?: string;
  filter2?: string;
  types?: string;
  keys?: string;
  values?: string;
  types2?: string;
  keys2?: string;
  values2?: string;
}

export interface ParsedFilters {
  filter: Filter;
  /** Ratio routes only. */
  filter2?: Filter;
  /** The OSM types of a deprecated `types` parameter (they narrow groupBy/type); undefined otherwise. */
  deprecatedOsmTypes?: DeprecatedTypes['osmTypes'];
}

/** Parses one filter text; a filter-language error gets the reference's prefix, newlines become spaces. */
export function parseV1Filter(text: string, options: { allowChangeset: boolean }): Filter {
  let filter: Filter;
  try {
    filter = parseFilter(text, { version: 1 });
  } catch (e) {
    if (isMaphistError(e)) {
      throw new MaphistError(e.code, MSG.FILTER_SYNTAX_PREFIX + e.message.replace(/\r?\n/g, ' '), e.details);
    }
    throw e;
  }
  if (!options.allowChangeset) {
    try {
      assertNoChangesetCondition(filter);
    } catch (e) {
      if (isMaphistError(e)) throw new MaphistError('FILTER_NOT_ALLOWED', MSG.FILTER_CHANGESET, e.details);
      throw e;
    }
  }
  return filter;
}

function isBlank(v: string | undefined): boolean {
  return v === undefined || v.trim() === '';
}

/**
 * The filters of a request. `ratio`: a `filter2` is required, unless the deprecated path is taken
 * (no `filter`, but `types` or `keys`), where `types2`/`keys2`/`values2` give the second filter.
 */
export function parseFilters(p: FilterParams, options: { allowChangeset: boolean; ratio: boolean }): ParsedFilters {
  const types = parseDeprecatedTypes(p.types);
  const types2 = options.ratio ? parseDeprecatedTypes(p.types2) : undefined;
  const hasDeprecated = types !== undefined || splitList(p.keys).length > 0 || splitList(p.values).length > 0;
  let filter: Filter;
  if (!isBlank(p.filter)) {
    if (hasDeprecated) throw new MaphistError('PARAM_INVALID', MSG.FILTER_WITH_DEPRECATED, { parameter: 'filter' });
    filter = parseV1Filter(p.filter!, options);
  } else {
    filter = parseV1Filter(deprecatedFilterText(types, p.keys, p.values), options);
  }
  const out: ParsedFilters = { filter };
  if (types !== undefined) out.deprecatedOsmTypes = types.osmTypes;
  if (!options.ratio) return out;
  const deprecatedRatio = isBlank(p.filter) && (types !== undefined || splitList(p.keys).length > 0);
  if (deprecatedRatio && isBlank(p.filter2)) {
    out.filter2 = parseV1Filter(deprecatedFilterText(types2, p.keys2, p.values2), options);
    return out;
  }
  if (isBlank(p.filter2)) throw new MaphistError('PARAM_INVALID', MSG.FILTER2_MISSING, { parameter: 'filter2' });
  if (types2 !== undefined || splitList(p.keys2).length > 0 || splitList(p.values2).length > 0) {
    throw new MaphistError('PARAM_INVALID', MSG.FILTER_WITH_DEPRECATED, { parameter: 'filter2' });
  }
  out.filter2 = parseV1Filter(p.filter2!, options);
  return out;
}
