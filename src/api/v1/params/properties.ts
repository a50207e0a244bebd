/**
 * `properties` (extraction, docs/reference/v1-reference-behaviour.md §1.8): a comma list of `tags`, `metadata`, `unclipped` (deprecated,
 * = clipGeometry=false) and, on /contributions extraction only, `contributionTypes`;
 * case-insensitive, items trimmed.
 */
import { MaphistError } from '../../../core/errors.js';
import { MSG } from './messages.js';

export interface ExtractionProperties {
  tags: boolean;
  metadata: boolean;
  /** Contributions extraction only. */
  contributionTypes: boolean;
  unclipped: boolean;
}

export function parseProperties(value: string | undefined, options: { contributions: boolean }): ExtractionProperties {
  const out: ExtractionProperties = { tags: false, metadata: false, contributionTypes: false, unclipped: false };
  if (value === undefined || value.trim() === '') return out;
  const message = options.contributions ? MSG.PROPERTIES_CONTRIBUTIONS : MSG.PROPERTIES;
  for (const raw of value.split(',')) {
    const item = raw.trim().toLowerCase();
    if (item === 'tags') out.tags = true;
    else if (item === 'metadata') out.metadata = true;
    else if (item === 'unclipped') out.unclipped = true;
    else if (item === 'contributiontypes' && options.contributions) out.contributionTypes = true;
    else throw new MaphistError('PARAM_INVALID', message, { parameter: 'properties' });
  }
  return out;
}
