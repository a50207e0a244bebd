/**
 * The `filter` parameter (docs/reference/v2-reference-and-contributions-format.md §1.3, §1.7): the version 2 filter language. `*` selects everything; an
 * empty (or blank) filter is invalid. Parser errors keep their located message
 * (`line L, column C: expected …`) and their catalog code (FILTER_SYNTAX, FILTER_NOT_ALLOWED, …).
 */
import { isMaphistError } from '../../../core/errors.js';
import { parseFilter, type Filter } from '../../../filter/index.js';
import { invalidInput, type Loc } from '../error-status.js';

export function parseV2Filter(value: unknown, loc: Loc = ['filter']): Filter {
  if (typeof value !== 'string') throw invalidInput('FILTER_SYNTAX', loc, 'Input should be a valid string', 'string_type');
  if (value.trim() === '') throw invalidInput('FILTER_SYNTAX', loc, 'The filter must not be empty; use * to select everything.', 'value_error');
  if (value.trim() === '*') return { ...parseFilter('', { version: 2 }), source: value };
  try {
    return parseFilter(value, { version: 2 });
  } catch (e) {
    if (isMaphistError(e)) throw invalidInput(e.code, loc, e.message, 'filter_invalid');
    throw e;
  }
}
