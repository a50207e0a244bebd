/**
 * `contributionType` (users and contributions count routes, docs/reference/v1-reference-behaviour.md §1.8): a comma list of `creation`,
 * `deletion`, `tagChange`, `geometryChange`, case-insensitive, not trimmed. Absent = all
 * contributions (also those with no visible change); empty or unknown = error.
 */
import { MaphistError } from '../../../core/errors.js';
import type { ContributionType } from '../../../query/model.js';
import { MSG } from './messages.js';

const TYPES: Record<string, ContributionType> = {
  creation: 'creation',
  deletion: 'deletion',
  tagchange: 'tagChange',
  geometrychange: 'geometryChange',
};

export function parseContributionType(value: string | undefined): ContributionType[] | undefined {
  if (value === undefined) return undefined;
  const out: ContributionType[] = [];
  for (const item of value.split(',')) {
    const t = TYPES[item.toLowerCase()];
    if (t === undefined) throw new MaphistError('PARAM_INVALID', MSG.CONTRIBUTION_TYPE, { parameter: 'contributionType' });
    if (!out.includes(t)) out.push(t);
  }
  return out;
}
