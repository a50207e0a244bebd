/** JSON Schemas of filter, clip, groupBy and member_filter (docs/reference/v2-reference-and-contributions-format.md §1.3, §1.4). */

export const FILTER_SCHEMA = {
  type: 'string',
  description: 'An ohsome filter (version 2 language); `*` selects everything; must not be empty.',
  examples: ['building=* and geometry:polygon', 'highway ~ motor*', '*'],
} as const;

export function clipSchema(defaultValue: boolean, what: string) {
  return { type: 'boolean', default: defaultValue, description: `Clip ${what} to the aoi (default ${defaultValue}).` } as const;
}

export const GROUP_BY_SCHEMA = {
  description: 'Experimental: one series per value of the tag key, next to the total. null = no grouping.',
  anyOf: [
    {
      type: 'object',
      properties: { type: { type: 'string', const: 'byTag' }, key: { type: 'string', minLength: 1, description: 'The OSM tag key.' } },
      required: ['type', 'key'],
      additionalProperties: false,
      examples: [{ type: 'byTag', key: 'building' }],
    },
    { type: 'null' },
  ],
  title: "{type: 'byTag', key} or null",
} as const;

export const MEMBER_FILTER_SCHEMA = {
  type: ['string', 'null'],
  description: 'A filter on the members of the collections; absent or null = every member.',
  examples: ['building=*'],
} as const;
