/**
 * JSON Schema of an extraction document: a GeoJSON FeatureCollection (RFC 7946, after the
 * geojson.org schemas) with the envelope members of docs/reference/v1-reference-behaviour.md §4.4 and the feature properties of the spec.
 */
import { CLIENT_PROPERTY_NAMES, type PropertyNames } from './geojson.js';

const position = { type: 'array', minItems: 2, maxItems: 3, items: { type: 'number' } };
const lineCoords = { type: 'array', minItems: 2, items: position };
const ring = { type: 'array', minItems: 4, items: position };
const polygonCoords = { type: 'array', items: ring };

const geometries = {
  Point: { type: 'object', required: ['type', 'coordinates'], properties: { type: { const: 'Point' }, coordinates: position } },
  MultiPoint: {
    type: 'object',
    required: ['type', 'coordinates'],
    properties: { type: { const: 'MultiPoint' }, coordinates: { type: 'array', items: position } },
  },
  LineString: { type: 'object', required: ['type', 'coordinates'], properties: { type: { const: 'LineString' }, coordinates: lineCoords } },
  MultiLineString: {
    type: 'object',
    required: ['type', 'coordinates'],
    properties: { type: { const: 'MultiLineString' }, coordinates: { type: 'array', items: lineCoords } },
  },
  Polygon: { type: 'object', required: ['type', 'coordinates'], properties: { type: { const: 'Polygon' }, coordinates: polygonCoords } },
  MultiPolygon: {
    type: 'object',
    required: ['type', 'coordinates'],
    properties: { type: { const: 'MultiPolygon' }, coordinates: { type: 'array', items: polygonCoords } },
  },
};
const simple = Object.values(geometries);

/** The schema for documents whose identity properties have these names (default: `@osmId`, `@osmType`). */
export function geoJsonSchema(names: PropertyNames = CLIENT_PROPERTY_NAMES) {
  return {
    $id: 'maphist-extraction',
    type: 'object',
    required: ['attribution', 'apiVersion', 'type', 'features'],
    additionalProperties: false,
    properties: {
      attribution: { type: 'object', required: ['url', 'text'], properties: { url: { type: 'string' }, text: { type: 'string' } } },
      apiVersion: { type: 'string' },
      metadata: { type: 'object', required: ['description'], properties: { description: { type: 'string' }, requestUrl: { type: 'string' } } },
      type: { const: 'FeatureCollection' },
      features: {
        type: 'array',
        items: {
          type: 'object',
          required: ['type', 'geometry', 'properties'],
          additionalProperties: false,
          properties: {
            type: { const: 'Feature' },
            geometry: {
              oneOf: [
                { type: 'null' },
                ...simple,
                {
                  type: 'object',
                  required: ['type', 'geometries'],
                  properties: { type: { const: 'GeometryCollection' }, geometries: { type: 'array', items: { oneOf: simple } } },
                },
              ],
            },
            properties: {
              type: 'object',
              required: [names.id],
              additionalProperties: { type: 'string' },
              properties: {
                [names.id]: { type: 'string', pattern: '^(node|way|relation)/[0-9]+$' },
                [names.type]: { enum: ['node', 'way', 'relation'] },
                '@snapshotTimestamp': { type: 'string', pattern: '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$' },
                '@lastEdit': { type: 'string', pattern: '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$' },
                '@validFrom': { type: 'string', pattern: '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$' },
                '@validTo': { type: 'string', pattern: '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$' },
                '@timestamp': { type: 'string', pattern: '^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$' },
                '@version': { type: 'integer', minimum: 1 },
                '@changesetId': { type: 'integer' },
                '@contributionChangesetId': { type: 'integer' },
                '@creation': { const: true },
                '@deletion': { const: true },
                '@tagChange': { const: true },
                '@geometryChange': { const: true },
              },
            },
          },
        },
      },
    },
  };
}

export const GEOJSON_SCHEMA = geoJsonSchema();
