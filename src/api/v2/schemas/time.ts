/** JSON Schemas of `time` (docs/reference/v2-reference-and-contributions-format.md §1.3); the parser (params/time.ts) checks timestamps, order and series size. */

const TS_DESC = 'ISO-8601 timestamp; without offset = UTC; only UTC (Z or +00:00) is accepted; not before 2007-10-08T00:00:00Z.';

export const TIMESTAMP_SCHEMA = {
  type: 'string',
  description: `${TS_DESC} \`latest\` = the last timestamp of the data.`,
  examples: ['2024-01-01T00:00:00Z', 'latest'],
} as const;

const START = {
  type: 'string',
  description: `Start of the range (inclusive). ${TS_DESC} \`earliest\` = 2007-10-08T00:00:00Z.`,
  examples: ['2020-01-01T00:00:00Z'],
} as const;
const END = {
  type: 'string',
  description: `End of the range; strictly after start. ${TS_DESC} \`latest\` = the last timestamp of the data.`,
  examples: ['2024-01-01T00:00:00Z'],
} as const;

/** The alias of `interval` (an earlier release candidate's name for the bin size). */
const BIN_SIZE = {
  type: 'string',
  description: "Alias of `interval` (an earlier release candidate's name); if both are given they must give the same series (P1Y and P12M do).",
  examples: ['P1Y'],
} as const;

export const TIME_RANGE_SCHEMA = {
  type: 'object',
  description: 'A time range.',
  properties: { start: START, end: END },
  required: ['start', 'end'],
  additionalProperties: false,
} as const;

export const TIME_SERIES_SCHEMA = {
  type: 'object',
  description:
    'A time series: start, start + interval, … up to end, with end appended when the last step is uneven; without interval [start, end]. At most 1000 points.',
  properties: {
    start: START,
    end: END,
    interval: { type: 'string', description: 'ISO-8601 duration (calendar-aware: P1M is a calendar month).', examples: ['P1M', 'P1Y', 'P7D', 'PT6H'] },
    binSize: BIN_SIZE,
  },
  required: ['start', 'end'],
  additionalProperties: false,
  examples: [{ start: '2020-01-01T00:00:00Z', end: '2024-01-01T00:00:00Z', interval: 'P1Y' }],
} as const;

export const TIME_BINS_SCHEMA = {
  type: 'object',
  description:
    'Time bins [t0, t1), [t1, t2), … from start to end by interval (the last bin may be shorter); without interval one bin [start, end). At most 1000 bin edges.',
  properties: {
    start: START,
    end: END,
    interval: { type: 'string', description: 'ISO-8601 duration (calendar-aware).', examples: ['P1M', 'P1Y'] },
    binSize: BIN_SIZE,
  },
  required: ['start', 'end'],
  additionalProperties: false,
  examples: [{ start: '2020-01-01T00:00:00Z', end: '2024-01-01T00:00:00Z', interval: 'P1Y' }],
} as const;

export const FEATURE_STATS_TIME_SCHEMA = {
  title: "a timestamp, 'latest' or a time series {start, end, interval}",
  description: 'The timestamps of the statistic.',
  anyOf: [TIMESTAMP_SCHEMA, TIME_SERIES_SCHEMA],
} as const;

export const EXTRACTION_FEATURES_TIME_SCHEMA = {
  title: "a timestamp, 'latest' or a time range {start, end}",
  description: 'A snapshot (the states valid at that time) or a range (every state valid at some time within it).',
  anyOf: [TIMESTAMP_SCHEMA, TIME_RANGE_SCHEMA],
} as const;

/** GET extraction. */
export const TIME_TEXT_SCHEMA = {
  type: 'string',
  description: "A timestamp, 'latest', or (features, contributions) a range `start/end`.",
  examples: ['latest', '2024-01-01T00:00:00Z', '2020-01-01T00:00:00Z/2024-01-01T00:00:00Z'],
} as const;
