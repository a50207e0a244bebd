/**
 * What the OpenAPI document says about each version-1 parameter: description, type and example
 * (docs/reference/v1-reference-behaviour.md §1.4–§1.8). Which parameters a route takes is not decided here: the
 * document asks `acceptedParameters`, the table the request checks use, and looks each name up in
 * this catalogue (an unknown name is an error, so a parameter added to the table cannot go
 * undocumented).
 */
import type { OpenAPIV3 } from 'openapi-types';
import { isContributionBased, isExtraction, type V1Route } from '../v1/params/route-parameters.js';

export interface V1ParameterDoc {
  description: string;
  schema: OpenAPIV3.SchemaObject;
  example: string;
  required?: boolean;
  deprecated?: boolean;
}

type Describe = (route: V1Route) => V1ParameterDoc;

const BOUNDARY_RULE = 'Exactly one of `bboxes`, `bcircles`, `bpolys` must be given.';
const DEPRECATED_FILTER = 'Deprecated: use `filter` instead.';

/** Boundary grouping routes answer `format=geojson` with a FeatureCollection (docs/reference/v1-reference-behaviour.md §4.2). */
function hasGeoJsonFormat(route: V1Route): boolean {
  return route.groupBy[0] === 'boundary' && !isExtraction(route);
}

function timeExample(route: V1Route): string {
  if (route.family === 'elementsExtraction') return '2016-01-01';
  if (isExtraction(route)) return '2014-01-01,2016-01-01';
  if (isContributionBased(route)) return '2012-01-01/2016-01-01/P1Y';
  return '2010-01-01/2016-01-01/P1Y';
}

function timeDescription(route: V1Route): string {
  const forms =
    'ISO-8601: one timestamp (`2016-01-01`), a comma-separated list (`2014-01-01,2015-07-01`), `start/end` or `start/end/period` ' +
    '(e.g. `2010-01-01/2016-01-01/P1Y`); an empty start or end means the first or last timestamp of the data (`/2016-01-01`, `//P1M`).';
  if (route.family === 'elementsExtraction') return `Required. The snapshot time(s). ${forms}`;
  if (isExtraction(route)) {
    return (
      'Required: exactly two timestamps, the start and end of the period: `start,end` or `start/end` ' +
      '(e.g. `2014-01-01,2016-01-01`, `2014-01-01/2016-01-01`); an empty start or end in the slash form means the first or last timestamp ' +
      'of the data (`/2016-01-01`, `2014-01-01/`). No period (`start/end/period`) and no third timestamp.'
    );
  }
  if (isContributionBased(route)) return `The bounds of the time intervals (at least two timestamps); default: the whole time range of the data. ${forms}`;
  return `The snapshot timestamps; default: the latest timestamp of the data. ${forms}`;
}

function propertiesDescription(route: V1Route): string {
  const contributions = route.family === 'contributionsExtraction' || route.family === 'contributionsLatestExtraction';
  const values = contributions ? '`tags`, `metadata`, `contributionTypes`, `unclipped`' : '`tags`, `metadata`, `unclipped`';
  return `Comma-separated list of ${values} (case-insensitive): which properties the features carry. \`unclipped\` is deprecated (= \`clipGeometry=false\`). Default: none.`;
}

const BOOLEAN_WORDS: OpenAPIV3.SchemaObject = { type: 'string', enum: ['true', 'false', 'yes', 'no'] };

const CATALOGUE: Readonly<Record<string, Describe>> = {
  bboxes: () => ({
    description: `Bounding boxes \`minLon,minLat,maxLon,maxLat\` (WGS 84), separated by \`|\`; each may start with an id \`<id>:\`, used as the group name by groupBy/boundary. ${BOUNDARY_RULE}`,
    schema: { type: 'string' },
    example: '1.4,42.4,1.8,42.7',
  }),
  bcircles: () => ({
    description: `Circles \`lon,lat,radius\` (radius in metres), separated by \`|\`; each may start with an id \`<id>:\`. ${BOUNDARY_RULE}`,
    schema: { type: 'string' },
    example: 'centre:1.52,42.51,1000|west:1.45,42.53,500',
  }),
  bpolys: () => ({
    description:
      `Polygons: either a GeoJSON FeatureCollection of Polygon/MultiPolygon features (the feature \`id\` or \`properties.id\` names the group), ` +
      `or closed rings of comma-separated coordinates \`lon1,lat1,lon2,lat2,…\` separated by \`|\`, each optionally prefixed \`<id>:\`, ` +
      `or boundary and multipolygon relations of the data by id (maphist, not in the reference): \`relation/2804753\`, several separated by \`|\`, ` +
      `each optionally prefixed \`<id>:\` (default id \`relation/<n>\`; e.g. \`vella:relation/2804753|relation/2804756\`), whose polygon is taken ` +
      `as the data has it at the request's last timestamp (404 when the relation is not in the data or did not exist then, 400 when it has no valid polygon then). ${BOUNDARY_RULE}`,
    schema: { type: 'string' },
    example: '1.5,42.5,1.55,42.5,1.55,42.55,1.5,42.55,1.5,42.5',
  }),
  types: () => ({
    description: `Comma-separated OSM types (\`node\`, \`way\`, \`relation\`) or simple feature types (\`point\`, \`line\`, \`polygon\`, \`other\`). ${DEPRECATED_FILTER}`,
    schema: { type: 'string' },
    example: 'way',
    deprecated: true,
  }),
  keys: () => ({
    description: `Comma-separated tag keys the elements must all have. ${DEPRECATED_FILTER}`,
    schema: { type: 'string' },
    example: 'building',
    deprecated: true,
  }),
  values: () => ({
    description: `Comma-separated tag values; the n-th value belongs to the n-th key. ${DEPRECATED_FILTER}`,
    schema: { type: 'string' },
    example: 'yes',
    deprecated: true,
  }),
  timeout: () => ({
    description: 'Processing time limit in seconds (decimal point allowed); at most the server limit reported by `/metadata`.',
    schema: { type: 'number' },
    example: '60',
  }),
  time: (route) => ({
    description: timeDescription(route),
    schema: { type: 'string' },
    example: timeExample(route),
    required: isExtraction(route),
  }),
  showMetadata: () => ({
    description: 'Adds the `metadata` member (execution time, description, request URL). Case-insensitive; default `false`.',
    schema: BOOLEAN_WORDS,
    example: 'yes',
  }),
  filter: () => ({
    description:
      'Filter expression selecting the elements: tag conditions (`key=value`, `key=*`, `key!=value`, `key in (a,b)`, ' +
      'and the value patterns of version 2: `key~prefix*`, `key~*suffix`, `key~*text*`), `type:node|way|relation`, ' +
      '`id:way/123`, `geometry:point|line|polygon|other`, combined with `and`, `or`, `not` and parentheses. Default: every element.',
    schema: { type: 'string' },
    example: 'type:way and building=*',
  }),
  format: (route) => ({
    description: hasGeoJsonFormat(route)
      ? 'Output format: `json` (default), `csv`, or `geojson` (a FeatureCollection with one feature per boundary and timestamp). Case-insensitive.'
      : 'Output format: `json` (default) or `csv`. Case-insensitive.',
    schema: { type: 'string', enum: hasGeoJsonFormat(route) ? ['json', 'csv', 'geojson'] : ['json', 'csv'] },
    example: 'json',
  }),
  groupByKey: () => ({
    description: 'Required. The one tag key to group by.',
    schema: { type: 'string' },
    example: 'building',
    required: true,
  }),
  groupByValues: () => ({
    description: 'Comma-separated values of `groupByKey`, one group each; default: every value found. Elements matching none form the group `remainder`.',
    schema: { type: 'string' },
    example: 'yes,house,residential',
  }),
  groupByKeys: () => ({
    description: 'Required. Comma-separated tag keys, one group each; elements having none of them form the group `remainder`.',
    schema: { type: 'string' },
    example: 'building,highway',
    required: true,
  }),
  filter2: () => ({
    description: 'Required. Filter expression (syntax as `filter`) of the elements counted as `value2`; `ratio` = `value2` / `value`.',
    schema: { type: 'string' },
    example: 'type:way and building=house',
    required: true,
  }),
  keys2: () => ({
    description: `Keys of the second element set of the ratio. Deprecated: use \`filter2\` instead.`,
    schema: { type: 'string' },
    example: 'building',
    deprecated: true,
  }),
  types2: () => ({
    description: `Types of the second element set of the ratio. Deprecated: use \`filter2\` instead.`,
    schema: { type: 'string' },
    example: 'way',
    deprecated: true,
  }),
  values2: () => ({
    description: `Values of the second element set of the ratio. Deprecated: use \`filter2\` instead.`,
    schema: { type: 'string' },
    example: 'house',
    deprecated: true,
  }),
  properties: (route) => ({
    description: propertiesDescription(route),
    schema: { type: 'string' },
    example: 'tags,metadata',
  }),
  clipGeometry: () => ({
    description: 'Clip the geometries to the boundary (case-insensitive `true`/`yes`/`false`/`no`); default `true`.',
    schema: BOOLEAN_WORDS,
    example: 'true',
  }),
  contributionType: () => ({
    description:
      'Comma-separated contribution types `creation`, `deletion`, `tagChange`, `geometryChange` (case-insensitive): only contributions (or users with contributions) of any of these types count. Default: all.',
    schema: { type: 'string' },
    example: 'creation,tagChange',
  }),
};

/** The documentation of parameter `name` on `route`; throws for a name the catalogue lacks. */
export function describeV1Parameter(name: string, route: V1Route): V1ParameterDoc {
  const describe = CATALOGUE[name];
  if (describe === undefined) throw new Error(`v1 OpenAPI: no documentation for parameter '${name}' (route ${route.path})`);
  return describe(route);
}
