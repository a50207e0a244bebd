/**
 * The OpenAPI 3 document of version 1, built from the tables the server validates with: the paths
 * and methods from V1_ROUTES, each operation's parameters from acceptedParameters (the list the
 * request checks accept, in their order), described by the parameter catalogue. Version 1 does not
 * validate with JSON schemas (its per-parameter parsers reproduce the reference's messages), so the
 * document is built here and served statically rather than collected from route schemas.
 */
import type { OpenAPIV3 } from 'openapi-types';
import { API_VERSION } from '../attribution.js';
import { acceptedParameters, V1_ROUTES, type V1Route } from '../v1/params/route-parameters.js';
import { routeDescription, AGGREGATION_ROUTES } from '../v1/route-table.js';
import { describeV1Parameter } from './v1-parameters.js';
import { v1Responses, V1_ERROR_RESPONSES, V1_SCHEMAS } from './v1-responses.js';

const TAGS: OpenAPIV3.TagObject[] = [
  { name: 'Elements', description: 'Count, length, area and perimeter of map elements at points in time.' },
  { name: 'Users', description: 'Number of distinct users who edited, per time interval.' },
  { name: 'Contributions', description: 'Number of contributions (edits) per time interval; experimental.' },
  { name: 'Extraction', description: 'Snapshots, full history or contributions as GeoJSON features.' },
  { name: 'Metadata', description: 'Extent and time range of the data.' },
];

function tagOf(route: V1Route): string {
  if (route.family === 'metadata') return 'Metadata';
  if (route.geometryType !== undefined) return 'Extraction';
  if (route.family === 'users') return 'Users';
  if (route.family === 'elements') return 'Elements';
  return 'Contributions';
}

const EXTRACTION_TEXT: Record<string, string> = {
  elementsExtraction: 'The elements at the given time(s) as GeoJSON features.',
  elementsFullHistoryExtraction: 'Every version of the elements in the period, with `@validFrom`/`@validTo`, as GeoJSON features.',
  contributionsExtraction: 'Every contribution in the period as GeoJSON features.',
  contributionsLatestExtraction: 'The latest contribution of each element in the period as GeoJSON features.',
};

const GEOMETRY_TEXT: Record<string, string> = {
  geometry: 'with their full geometry',
  bbox: 'as their bounding boxes',
  centroid: 'as their centroids',
};

function summaryOf(route: V1Route): string {
  if (route.family === 'metadata') return 'Extent and time range of the data, and the server time limit.';
  if (route.geometryType !== undefined) return `${EXTRACTION_TEXT[route.family]} Geometries ${GEOMETRY_TEXT[route.geometryType]}.`;
  const agg = AGGREGATION_ROUTES.find((a) => a.path === route.path);
  if (agg === undefined) throw new Error(`v1 OpenAPI: ${route.path} is neither metadata, extraction nor aggregation`);
  return routeDescription(agg);
}

/** What an extension route (maphist's, beyond the reference: issue 22) adds to its description. */
const EXTENSION_TEXT: Record<string, string> = {
  element:
    'A maphist extension (the reference has no such route; its issue #197): one group per element with a contribution in the range (`way/123`, by type then id), its number of distinct users per interval. At most 100,000 elements (a larger answer is refused with 413: ask for a smaller area or range).',
  type: 'A maphist extension (the reference has no such route): one group per element type (node, way, relation, always all three); every contribution is in exactly one group.',
  tag: "A maphist extension (the reference has no such route): one group per value of `groupByKey` (only the `groupByValues` when given, the others in `remainder`), as elements/count/groupBy/tag; a creation is grouped by the tags it made, a deletion by the tags it deleted, any other contribution by its tags before and after: one that changed the key's value is in the groups of both values (as users/count/groupBy/tag counts its user), so only then the groups overlap.",
  contributionType:
    'A maphist extension (the reference has no such route): the groups creation, deletion, tagChange and geometryChange (always all four). The groups may overlap: a contribution that changed tags and geometry is in both tagChange and geometryChange; one that changed nothing visible (a new version with the same tags and geometry in the area) is in none, so the groups need not sum to contributions/count.',
};

function operationIdOf(method: string, path: string): string {
  return `${method.toLowerCase()}${path.replace(/\/(\w)/g, (_m, c: string) => c.toUpperCase())}`;
}

/**
 * The parameter documentation, each distinct variant stored once in `components` (a parameter
 * described alike on every route is one component; `time`, `format`, `properties` have a few
 * variants) and referenced from the operations: the document stays small enough for the UI.
 */
class ParameterComponents {
  readonly parameters: Record<string, OpenAPIV3.ParameterObject> = {};
  readonly schemas: Record<string, OpenAPIV3.SchemaObject> = {};
  private readonly keys = new Map<string, string>();

  /** The component key of parameter `name` as documented for `route`. */
  private key(name: string, route: V1Route): string {
    const doc = describeV1Parameter(name, route);
    const text = JSON.stringify(doc);
    let key = this.keys.get(text);
    if (key === undefined) {
      const variants = [...this.keys.values()].filter((k) => k === name || k.startsWith(`${name}-`)).length;
      key = variants === 0 ? name : `${name}-${variants + 1}`;
      this.keys.set(text, key);
      const deprecated = doc.deprecated === true ? { deprecated: true } : {};
      this.parameters[key] = {
        name,
        in: 'query',
        description: doc.description,
        required: doc.required === true,
        ...deprecated,
        schema: doc.schema,
        example: doc.example,
      };
      this.schemas[`param-${key}`] = { ...doc.schema, description: doc.description, example: doc.example, ...deprecated };
    }
    return key;
  }

  query(route: V1Route): OpenAPIV3.ReferenceObject[] {
    return acceptedParameters(route.path).map((name) => ({ $ref: `#/components/parameters/${this.key(name, route)}` }));
  }

  formBody(route: V1Route): OpenAPIV3.RequestBodyObject {
    const properties: Record<string, OpenAPIV3.ReferenceObject> = {};
    const required: string[] = [];
    for (const name of acceptedParameters(route.path)) {
      properties[name] = { $ref: `#/components/schemas/param-${this.key(name, route)}` };
      if (describeV1Parameter(name, route).required === true) required.push(name);
    }
    const schema: OpenAPIV3.SchemaObject = { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
    const jsonProperties: Record<string, OpenAPIV3.SchemaObject> = {};
    const example: Record<string, unknown> = { bpolys: ['vella:relation/2804753', 'relation/2804756'] };
    for (const name of acceptedParameters(route.path)) {
      const doc = describeV1Parameter(name, route);
      jsonProperties[name] = {
        description: doc.description,
        oneOf: [
          { $ref: `#/components/schemas/param-${this.key(name, route)}` } as unknown as OpenAPIV3.SchemaObject,
          { type: 'number' },
          { type: 'boolean' },
          { type: 'array', items: JSON_LIST_ITEM },
          ...(name === 'bpolys' ? [{ type: 'object' as const, description: 'A GeoJSON FeatureCollection of Polygon/MultiPolygon features.' }] : []),
        ],
      };
      if (name === 'time') example.time = doc.example.split(',');
      else if (doc.required === true && !['bboxes', 'bcircles', 'bpolys'].includes(name)) example[name] = doc.example;
    }
    if (acceptedParameters(route.path).includes('filter') && example.filter === undefined) example.filter = 'building=*';
    return {
      description:
        'The same parameters as the query string of GET, as form fields (a parameter may not appear in both), or as one JSON object ' +
        '(maphist, not in the reference; `application/json`): each key a parameter, each value its text, a number, a boolean, or an array ' +
        'joined as the text form joins it (with `,`; the boundaries `bboxes`, `bcircles`, `bpolys` with `|`, each element one boundary, a ' +
        'string or an array of numbers); `bpolys` may also be a GeoJSON object. Malformed JSON: 400.',
      required: true,
      content: {
        'application/x-www-form-urlencoded': { schema },
        'multipart/form-data': { schema },
        'application/json': { schema: { type: 'object', properties: jsonProperties, ...(required.length > 0 ? { required } : {}) }, example },
      },
    };
  }
}

/** An element of a JSON body's array: a string, a number, or (a boundary) an array of numbers. */
const JSON_LIST_ITEM: OpenAPIV3.SchemaObject = { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'array', items: { type: 'number' } }] };

function operation(route: V1Route, method: 'GET' | 'POST', params: ParameterComponents): OpenAPIV3.OperationObject {
  const summary = summaryOf(route);
  const op: OpenAPIV3.OperationObject = {
    tags: [tagOf(route)],
    summary,
    operationId: operationIdOf(method, route.path),
    responses: v1Responses(route),
  };
  const extension = route.extension === true ? ` ${EXTENSION_TEXT[route.groupBy[0]!]}` : '';
  if (route.family === 'metadata') {
    op.description = 'Takes no parameters.';
  } else if (method === 'GET') {
    op.description = `${summary}${extension} Parameters in the query string; unknown or repeated parameters are rejected (400).`;
    op.parameters = params.query(route);
  } else {
    op.description = `${summary}${extension} Parameters as form fields (for large inputs such as bpolys) or as a JSON object; unknown or repeated parameters are rejected (400).`;
    op.requestBody = params.formBody(route);
  }
  return op;
}

/** The version-1 OpenAPI document. */
export function buildV1OpenApiDocument(options: { prefix?: string } = {}): OpenAPIV3.Document {
  const paths: OpenAPIV3.PathsObject = {};
  const params = new ParameterComponents();
  for (const route of V1_ROUTES) {
    const item: OpenAPIV3.PathItemObject = {};
    for (const method of route.methods) item[method === 'GET' ? 'get' : 'post'] = operation(route, method, params);
    paths[route.path] = item;
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'maphist API, version 1',
      version: API_VERSION,
      description:
        'Aggregation (elements, users, contributions), GeoJSON extraction and metadata over the edit history of OpenStreetMap data, compatible with version 1 of the ohsome API. ' +
        'Every route except `/metadata` takes its parameters as a query string (GET) or as form fields (POST). Version 1 is shut down on 30 November 2026; version 2 replaces it.',
      license: { name: 'Data © OpenStreetMap contributors, ODbL', url: 'https://www.openstreetmap.org/copyright' },
    },
    servers: [{ url: options.prefix ?? '/v1' }],
    tags: TAGS,
    paths,
    components: { schemas: { ...V1_SCHEMAS, ...params.schemas }, parameters: params.parameters, responses: V1_ERROR_RESPONSES },
  };
}
