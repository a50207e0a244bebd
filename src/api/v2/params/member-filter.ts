/**
 * `member_filter` of the collections extractions (docs/reference/v2-reference-and-contributions-format.md §1.4; snake_case as in the reference): a filter on
 * the members, or absent/null for every member.
 */
import type { Filter } from '../../../filter/index.js';
import { parseV2Filter } from './filter.js';

export function parseMemberFilter(value: unknown): Filter | null {
  if (value === undefined || value === null) return null;
  return parseV2Filter(value, ['member_filter']);
}
