/** JSON Schemas of /filter/validation (docs/reference/v2-reference-and-contributions-format.md §1.4). */
import { FILTER_SCHEMA } from './fields.js';

export const FILTER_VALIDATION_BODY_SCHEMA = {
  type: 'object',
  description: 'The filter to check.',
  properties: { filter: FILTER_SCHEMA },
  required: ['filter'],
  additionalProperties: false,
  examples: [{ filter: 'building=* and geometry:polygon' }],
} as const;

export const FILTER_VALIDATION_QUERY_SCHEMA = {
  type: 'object',
  properties: { filter: FILTER_SCHEMA },
  required: ['filter'],
  additionalProperties: false,
} as const;
