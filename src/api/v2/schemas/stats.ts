/** JSON Schemas of the statistics bodies (docs/reference/v2-reference-and-contributions-format.md §1.4). Unknown fields → 422. */
import { AOI_SCHEMA } from './aoi.js';
import { clipSchema, FILTER_SCHEMA, GROUP_BY_SCHEMA } from './fields.js';
import { FEATURE_STATS_TIME_SCHEMA, TIME_BINS_SCHEMA } from './time.js';

export const FEATURE_STATS_BODY_SCHEMA = {
  type: 'object',
  description: 'Count, length [m] or area [m²] of the features matching the filter in the aoi, at each timestamp.',
  properties: {
    aoi: AOI_SCHEMA,
    filter: FILTER_SCHEMA,
    time: FEATURE_STATS_TIME_SCHEMA,
    groupBy: GROUP_BY_SCHEMA,
    clip: clipSchema(false, 'lengths and areas'),
  },
  required: ['aoi', 'filter', 'time'],
  additionalProperties: false,
  examples: [
    {
      aoi: [1.515, 42.5, 1.54, 42.515],
      filter: 'building=* and geometry:polygon',
      time: { start: '2015-01-01T00:00:00Z', end: '2020-01-01T00:00:00Z', interval: 'P1Y' },
      clip: false,
    },
  ],
} as const;

export const BIN_STATS_BODY_SCHEMA = {
  type: 'object',
  description: 'Contributors (distinct users) or contributions per time bin, of the features matching the filter (before or after the edit) in the aoi.',
  properties: { aoi: AOI_SCHEMA, filter: FILTER_SCHEMA, time: TIME_BINS_SCHEMA, groupBy: GROUP_BY_SCHEMA },
  required: ['aoi', 'filter', 'time'],
  additionalProperties: false,
  examples: [{ aoi: [1.515, 42.5, 1.54, 42.515], filter: 'building=*', time: { start: '2015-01-01T00:00:00Z', end: '2020-01-01T00:00:00Z', interval: 'P1Y' } }],
} as const;

export const CURRENTNESS_BODY_SCHEMA = {
  type: 'object',
  description: 'Of the current features matching the filter in the aoi: count, length or area by the time bin of their last edit.',
  properties: { aoi: AOI_SCHEMA, filter: FILTER_SCHEMA, time: TIME_BINS_SCHEMA, groupBy: GROUP_BY_SCHEMA, clip: clipSchema(false, 'lengths and areas') },
  required: ['aoi', 'filter', 'time'],
  additionalProperties: false,
  examples: [{ aoi: [1.515, 42.5, 1.54, 42.515], filter: 'highway=*', time: { start: 'earliest', end: 'latest', binSize: 'P1Y' } }],
} as const;
