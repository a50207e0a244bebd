/** JSON Schemas of the extraction bodies (POST) and query strings (GET) (docs/reference/v2-reference-and-contributions-format.md §1.4). */
import { AOI_SCHEMA, AOI_TEXT_SCHEMA } from './aoi.js';
import { clipSchema, FILTER_SCHEMA, MEMBER_FILTER_SCHEMA } from './fields.js';
import { EXTRACTION_FEATURES_TIME_SCHEMA, TIME_RANGE_SCHEMA, TIME_TEXT_SCHEMA, TIMESTAMP_SCHEMA } from './time.js';

const EXAMPLE_AOI = [1.515, 42.5, 1.54, 42.515];

export const FEATURES_BODY_SCHEMA = {
  type: 'object',
  description: 'Features (nodes, ways, multipolygon/boundary relations) matching the filter in the aoi, as GeoParquet.',
  properties: { aoi: AOI_SCHEMA, filter: FILTER_SCHEMA, time: EXTRACTION_FEATURES_TIME_SCHEMA, clip: clipSchema(true, 'geometries') },
  required: ['aoi', 'filter', 'time'],
  additionalProperties: false,
  examples: [{ aoi: EXAMPLE_AOI, filter: 'building=*', time: 'latest' }],
} as const;

export const COLLECTIONS_BODY_SCHEMA = {
  type: 'object',
  description: 'Relations other than multipolygon/boundary as geometry collections of their members (or one row per member), as GeoParquet.',
  properties: {
    aoi: AOI_SCHEMA,
    filter: FILTER_SCHEMA,
    time: { ...TIMESTAMP_SCHEMA, description: `A snapshot. ${TIMESTAMP_SCHEMA.description}` },
    member_filter: MEMBER_FILTER_SCHEMA,
    clip: clipSchema(true, 'geometries'),
  },
  required: ['aoi', 'filter', 'time'],
  additionalProperties: false,
  examples: [{ aoi: EXAMPLE_AOI, filter: 'type:relation and route=bus', time: 'latest', member_filter: null }],
} as const;

export const CONTRIBUTIONS_BODY_SCHEMA = {
  type: 'object',
  description: 'Experimental: every contribution (edit) with start <= time < end of the features matching the filter in the aoi, as GeoParquet. Never clipped.',
  properties: { aoi: AOI_SCHEMA, filter: FILTER_SCHEMA, time: TIME_RANGE_SCHEMA },
  required: ['aoi', 'filter', 'time'],
  additionalProperties: false,
  examples: [{ aoi: EXAMPLE_AOI, filter: 'building=*', time: { start: '2020-01-01T00:00:00Z', end: '2021-01-01T00:00:00Z' } }],
} as const;

export const FEATURES_QUERY_SCHEMA = {
  type: 'object',
  properties: { aoi: AOI_TEXT_SCHEMA, filter: FILTER_SCHEMA, time: TIME_TEXT_SCHEMA, clip: clipSchema(true, 'geometries') },
  required: ['aoi', 'filter', 'time'],
  additionalProperties: false,
} as const;

export const COLLECTIONS_QUERY_SCHEMA = {
  type: 'object',
  properties: {
    aoi: AOI_TEXT_SCHEMA,
    filter: FILTER_SCHEMA,
    time: { ...TIME_TEXT_SCHEMA, description: "A timestamp or 'latest'." },
    member_filter: { type: 'string', description: MEMBER_FILTER_SCHEMA.description },
    clip: clipSchema(false, 'geometries'),
  },
  required: ['aoi', 'filter', 'time'],
  additionalProperties: false,
} as const;

export const CONTRIBUTIONS_QUERY_SCHEMA = {
  type: 'object',
  properties: { aoi: AOI_TEXT_SCHEMA, filter: FILTER_SCHEMA, time: { ...TIME_TEXT_SCHEMA, description: 'A time range `start/end` (ISO-8601, UTC).' } },
  required: ['aoi', 'filter', 'time'],
  additionalProperties: false,
} as const;
