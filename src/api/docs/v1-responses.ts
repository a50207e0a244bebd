/**
 * The answers of the version-1 routes as OpenAPI component schemas and per-route response objects
 * (docs/reference/v1-reference-behaviour.md §2, §4): JSON aggregation bodies, CSV, GeoJSON (extraction and
 * `format=geojson`), the metadata resource and the error body.
 */
import type { OpenAPIV3 } from 'openapi-types';
import { isContributionBased, isExtraction, type V1Route } from '../v1/params/route-parameters.js';

const ref = (name: string): OpenAPIV3.ReferenceObject => ({ $ref: `#/components/schemas/${name}` });
const str: OpenAPIV3.SchemaObject = { type: 'string' };
const num: OpenAPIV3.SchemaObject = { type: 'number' };
const timestamp: OpenAPIV3.SchemaObject = { type: 'string', format: 'date-time', example: '2016-01-01T00:00:00Z' };

function envelope(member: string, items: OpenAPIV3.ReferenceObject | OpenAPIV3.SchemaObject): OpenAPIV3.SchemaObject {
  return {
    type: 'object',
    required: ['attribution', 'apiVersion', member],
    properties: { attribution: ref('Attribution'), apiVersion: str, metadata: ref('ResponseMetadata'), [member]: { type: 'array', items } },
  };
}

/** `components.schemas` of the v1 document. */
export const V1_SCHEMAS: Record<string, OpenAPIV3.SchemaObject> = {
  Attribution: { type: 'object', required: ['url', 'text'], properties: { url: str, text: str } },
  ResponseMetadata: {
    type: 'object',
    description: 'Present with `showMetadata=true`.',
    properties: {
      executionTime: { type: 'integer', description: 'milliseconds' },
      description: str,
      requestUrl: { type: 'string', description: 'the request URL; for POST, rebuilt with the posted fields as its query' },
    },
  },
  ElementsResult: { type: 'object', required: ['timestamp', 'value'], properties: { timestamp, value: num } },
  ContributionsResult: {
    type: 'object',
    required: ['fromTimestamp', 'toTimestamp', 'value'],
    properties: { fromTimestamp: timestamp, toTimestamp: timestamp, value: num },
  },
  RatioResult: {
    type: 'object',
    required: ['timestamp', 'value', 'value2', 'ratio'],
    properties: { timestamp, value: num, value2: num, ratio: { type: 'number', description: '`value2 / value`; `NaN` for 0 / 0' } },
  },
  GroupByObject: {
    description: 'The group: boundary id, key, `key=value` tag, type, `remainder`; for boundary and tag a pair `[boundaryId, tag]`.',
    oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2 }],
  },
  ElementsResponse: envelope('result', ref('ElementsResult')),
  ContributionsResponse: envelope('result', ref('ContributionsResult')),
  RatioResponse: envelope('ratioResult', ref('RatioResult')),
  RatioGroupByBoundaryResponse: envelope('groupByBoundaryResult', {
    type: 'object',
    required: ['groupByObject', 'ratioResult'],
    properties: { groupByObject: ref('GroupByObject'), ratioResult: { type: 'array', items: ref('RatioResult') } },
  }),
  ElementsGroupByResponse: envelope('groupByResult', {
    type: 'object',
    required: ['groupByObject', 'result'],
    properties: { result: { type: 'array', items: ref('ElementsResult') }, groupByObject: ref('GroupByObject') },
  }),
  ContributionsGroupByResponse: envelope('groupByResult', {
    type: 'object',
    required: ['groupByObject', 'result'],
    properties: { result: { type: 'array', items: ref('ContributionsResult') }, groupByObject: ref('GroupByObject') },
  }),
  FeatureCollection: {
    type: 'object',
    required: ['type', 'features'],
    properties: {
      attribution: ref('Attribution'),
      apiVersion: str,
      metadata: ref('ResponseMetadata'),
      type: { type: 'string', enum: ['FeatureCollection'] },
      features: {
        type: 'array',
        items: {
          type: 'object',
          required: ['type', 'geometry', 'properties'],
          properties: {
            type: { type: 'string', enum: ['Feature'] },
            id: str,
            geometry: { type: 'object', nullable: true, description: 'GeoJSON geometry; null for deletions' },
            properties: { type: 'object', additionalProperties: true },
          },
        },
      },
    },
  },
  Metadata: {
    type: 'object',
    required: ['attribution', 'apiVersion', 'timeout', 'extractRegion'],
    properties: {
      attribution: ref('Attribution'),
      apiVersion: str,
      timeout: { type: 'number', description: 'the default and largest query time limit, seconds' },
      extractRegion: {
        type: 'object',
        properties: {
          spatialExtent: { type: 'object', description: 'GeoJSON Polygon' },
          temporalExtent: { type: 'object', properties: { fromTimestamp: timestamp, toTimestamp: timestamp } },
          replicationSequenceNumber: { type: 'integer' },
        },
      },
    },
  },
  Error: {
    type: 'object',
    required: ['attribution', 'timestamp', 'status', 'message'],
    properties: {
      attribution: ref('Attribution'),
      timestamp: { type: 'string', description: 'server local time, ISO-8601 without zone' },
      status: { type: 'integer' },
      message: str,
      requestUrl: { type: 'string', description: 'the request URL with its query string' },
    },
  },
  DefaultError: {
    type: 'object',
    description: "Spring Boot's default error body (wrong method, unknown path, unexpected failure), with the attribution.",
    required: ['attribution', 'timestamp', 'status', 'error', 'path'],
    properties: { attribution: ref('Attribution'), timestamp: str, status: { type: 'integer' }, error: str, path: str },
  },
};

const CSV: OpenAPIV3.MediaTypeObject = {
  schema: { type: 'string', description: 'Comment lines `# …` (copyright, API version), a header line, then `;`-separated quoted values.' },
};

function json(name: string): OpenAPIV3.MediaTypeObject {
  return { schema: ref(name) };
}

function bodyOf(route: V1Route): string {
  if (route.ratio) return route.groupBy.length > 0 ? 'RatioGroupByBoundaryResponse' : 'RatioResponse';
  const contributions = isContributionBased(route);
  if (route.groupBy.length > 0) return contributions ? 'ContributionsGroupByResponse' : 'ElementsGroupByResponse';
  return contributions ? 'ContributionsResponse' : 'ElementsResponse';
}

const errorResponse = (description: string): OpenAPIV3.ResponseObject => ({ description, content: { 'application/json': json('Error') } });

/** `components.responses` of the v1 document: the error answers, shared by every operation. */
export const V1_ERROR_RESPONSES: Record<string, OpenAPIV3.ResponseObject> = {
  BadRequest: errorResponse('Invalid request: unknown, repeated or malformed parameter (the message names it).'),
  NotFound: errorResponse('The boundary or the time lies outside the data.'),
  MethodNotAllowed: { description: 'Method not allowed (`Allow` header).', content: { 'application/json': json('DefaultError') } },
  TooLarge: errorResponse('The query did not finish within the time limit.'),
  InternalError: { description: 'Unexpected error.', content: { 'application/json': json('DefaultError') } },
};

const use = (name: keyof typeof V1_ERROR_RESPONSES): OpenAPIV3.ReferenceObject => ({ $ref: `#/components/responses/${name}` });

const ERRORS: OpenAPIV3.ResponsesObject = {
  '400': use('BadRequest'),
  '404': use('NotFound'),
  '405': use('MethodNotAllowed'),
  '413': use('TooLarge'),
  '500': use('InternalError'),
};

/** The `responses` of one operation of `route`. */
export function v1Responses(route: V1Route): OpenAPIV3.ResponsesObject {
  if (route.family === 'metadata') {
    return {
      '200': { description: 'Extent and time range of the data.', content: { 'application/json': json('Metadata') } },
      '400': ERRORS['400']!,
      '405': ERRORS['405']!,
    };
  }
  if (isExtraction(route)) {
    return {
      '200': {
        description:
          'The features as a GeoJSON FeatureCollection (streamed; a failure or the time limit after the first byte breaks the connection off, so a cut document never looks complete).',
        content: { 'application/geo+json': json('FeatureCollection') },
      },
      ...ERRORS,
    };
  }
  const content: Record<string, OpenAPIV3.MediaTypeObject> = { 'application/json': json(bodyOf(route)), 'text/csv': CSV };
  if (route.extension === true) content['application/json'] = { ...content['application/json'], example: extensionExample(route) };
  if (route.groupBy[0] === 'boundary') content['application/geo+json'] = json('FeatureCollection');
  return { '200': { description: 'The aggregated values (`format` chooses JSON, CSV or GeoJSON).', content }, ...ERRORS };
}

/** The groups of an extension route's example answer (maphist's routes beyond the reference, issue 22). */
const EXAMPLE_GROUPS: Record<string, [string, number, number][]> = {
  type: [
    ['node', 130, 12],
    ['way', 412, 57],
    ['relation', 9, 1],
  ],
  tag: [
    ['remainder', 3, 0],
    ['highway=residential', 204, 31],
    ['highway=service', 96, 18],
  ],
  element: [
    ['node/2926419119', 2, 0],
    ['way/6182303', 3, 1],
  ],
  contributionType: [
    ['creation', 120, 15],
    ['deletion', 14, 2],
    ['tagChange', 61, 9],
    ['geometryChange', 310, 40],
  ],
};

/** An example answer of an extension route: a `groupByResult` of two intervals per group. */
function extensionExample(route: V1Route): object {
  const grouping = route.groupBy[route.groupBy.length - 1]!;
  const scale = route.density ? 0.37 : 1;
  return {
    attribution: { url: 'https://ohsome.org/copyrights', text: '© OpenStreetMap contributors' },
    apiVersion: '1.10.4',
    groupByResult: (EXAMPLE_GROUPS[grouping] ?? []).map(([group, a, b]) => ({
      result: [
        { fromTimestamp: '2015-01-01T00:00:00Z', toTimestamp: '2016-01-01T00:00:00Z', value: Math.round(a * scale * 100) / 100 },
        { fromTimestamp: '2016-01-01T00:00:00Z', toTimestamp: '2017-01-01T00:00:00Z', value: Math.round(b * scale * 100) / 100 },
      ],
      groupByObject: group,
    })),
  };
}
