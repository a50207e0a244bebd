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
  description:
    "Experimental: one series per group next to the total. `{type: 'byTag', key}`: per value of the tag key (the reference's form); maphist also takes `values` (only those values, each answered even when empty) and `{type: 'byType'}` (node, way, relation), and groups every statistic, not only features (issue 22; src/api/v2/README.md). null = no grouping.",
  anyOf: [
    {
      type: 'object',
      properties: {
        type: { type: 'string', description: "'byTag' or 'byType'." },
        key: { type: 'string', minLength: 1, description: 'The OSM tag key (byTag only).' },
        values: {
          type: ['array', 'null'],
          items: { type: 'string' },
          description: 'byTag only: the tag values to answer (at most 1000); absent or null = every value found.',
        },
      },
      required: ['type'],
      additionalProperties: false,
      examples: [{ type: 'byTag', key: 'building' }, { type: 'byTag', key: 'highway', values: ['primary', 'secondary'] }, { type: 'byType' }],
    },
    { type: 'null' },
  ],
  title: "{type: 'byTag', key, values?}, {type: 'byType'} or null",
} as const;

export const MEMBER_FILTER_SCHEMA = {
  type: ['string', 'null'],
  description: 'A filter on the members of the collections; absent or null = every member.',
  examples: ['building=*'],
} as const;
