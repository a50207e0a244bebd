/**
 * One version-1 request, from its parameters to a typed V1Request, with the checks in the
 * reference's order (docs/reference/v1-reference-behaviour.md §1.3): content type, no parameters, unknown, duplicate;
 * the endpoint-specific checks (groupByKey/groupByKeys, properties); then timeout → boundary
 * (syntax, geometry, extent) → showMetadata → format → types → time → filter; then, for
 * full-history and contributions extraction, the two-timestamp rule and properties; finally
 * contributionType and clipGeometry.
 */
import { MaphistError } from '../../../core/errors.js';
import type { OsmType } from '../../../core/osm.js';
import type { Filter } from '../../../filter/index.js';
import type { AreaOfInterest, ContributionType, Measure, RequestGrouping } from '../../../query/model.js';
import type { StoreMetadata } from '../../../store/metadata.js';
import { assertCsvSafeIds, parseBoundary, type BoundaryType } from './boundary.js';
import { assertWithinDataExtent } from './boundary-extent.js';
import { checkRequest, type ParamPair } from './check-request.js';
import { parseClipGeometry } from './clip-geometry.js';
import { parseContributionType } from './contribution-type.js';
import { parseDeprecatedTypes } from './deprecated-filter.js';
import { parseFilters } from './filter.js';
import { parseFormat, type V1Format } from './format.js';
import { parseGrouping } from './group-by.js';
import { parseProperties, type ExtractionProperties } from './properties.js';
import type { RelationRef } from './relation-refs.js';
import { findV1Route, isContributionBased, type V1Route } from './route-parameters.js';
import { parseShowMetadata } from './show-metadata.js';
import { parseTime, type TimeUse } from './time.js';
import { parseTimeout } from './timeout.js';

export interface V1RequestContext {
  metadata: StoreMetadata;
  /** The request's Content-Type header, if any. */
  contentType?: string;
  /** The server's default time limit in seconds. */
  defaultTimeoutSeconds: number;
  /** The largest `timeout` a request may ask for; default: defaultTimeoutSeconds. */
  maxTimeoutSeconds?: number;
  /** The most timestamps a `time` series may produce (default time.ts DEFAULT_MAX_TIMESTAMPS). */
  maxTimestamps?: number;
}

export interface V1Request {
  route: V1Route;
  boundaryType: BoundaryType;
  /** The boundary objects in input order (their union is the query area of non-boundary groupings). */
  areas: AreaOfInterest[];
  /** The ids as responses print them, parallel to `areas` (numbers for numeric GeoJSON ids). */
  boundaryOutputIds: (string | number)[];
  /**
   * bpolys naming relations (`relation/<id>`, issue 22): `areas` and `boundaryOutputIds` are empty
   * until ../relation-boundaries.ts reads the polygons from the store (and checks the extent).
   */
  boundaryRelations?: RelationRef[];
  /** Epoch seconds, ascending, distinct: snapshots (elements) or interval bounds (≥ 2; users, contributions, full history). */
  timestamps: number[];
  /** The raw `time` value (undefined when absent), for cache decisions. */
  timeParameter: string | undefined;
  filter: Filter;
  /** Ratio routes only. */
  filter2?: Filter;
  /** Set only by the deprecated `types` parameter: the OSM types it selects (they narrow groupBy/type). */
  deprecatedOsmTypes?: OsmType[];
  /** Aggregation routes: the measure (users and contributions: count). */
  measure?: Measure;
  grouping: RequestGrouping;
  density: boolean;
  ratio: boolean;
  /** The effective output format (`geojson` only stays on groupBy/boundary routes; extraction: geojson). */
  format: V1Format;
  showMetadata: boolean;
  timeoutSeconds: number;
  /** users/* and contributions count routes; undefined = every contribution. */
  contributionTypes?: ContributionType[];
  /** Extraction routes. */
  properties: ExtractionProperties;
  /** Extraction routes: explicit clipGeometry, else not `unclipped`; true elsewhere. */
  clipGeometry: boolean;
}

function timeUse(route: V1Route): TimeUse {
  if (route.family === 'elementsFullHistoryExtraction' || route.family === 'contributionsExtraction' || route.family === 'contributionsLatestExtraction') {
    return 'exactlyTwo';
  }
  return isContributionBased(route) ? 'intervals' : 'snapshot';
}

/** Parses and checks a version-1 request; throws a MaphistError with a catalog code on the first problem. */
export function parseV1Request(route: V1Route | string, pairs: readonly ParamPair[], context: V1RequestContext): V1Request {
  const r = typeof route === 'string' ? findV1Route(route) : route;
  if (r === undefined || r.family === 'metadata') {
    throw new MaphistError('RESOURCE_NOT_FOUND', `There is no data resource at '${String(route)}'.`);
  }
  const params = checkRequest(r.path, pairs, context.contentType);
  const get = (name: string): string | undefined => params.get(name);

  // Endpoint-specific checks, before the common processing.
  const grouping = parseGrouping(r, params);
  const contributionsExtraction = r.family === 'contributionsExtraction' || r.family === 'contributionsLatestExtraction';
  const lateProperties = r.family === 'elementsFullHistoryExtraction' || contributionsExtraction;
  let properties = r.family === 'elementsExtraction' ? parseProperties(get('properties'), { contributions: false }) : undefined;

  // Common processing, in the reference's order.
  const timeoutSeconds = parseTimeout(get('timeout'), context.defaultTimeoutSeconds, context.maxTimeoutSeconds);
  const boundary = parseBoundary({ bboxes: get('bboxes'), bcircles: get('bcircles'), bpolys: get('bpolys') });
  // Relation boundaries are checked against the extent once their polygons are read (../relation-boundaries.ts).
  if (boundary.relations === undefined) assertWithinDataExtent(boundary.areas, context.metadata.spatialExtent);
  const showMetadata = parseShowMetadata(get('showMetadata'));
  const format: V1Format = r.geometryType !== undefined ? 'geojson' : parseFormat(get('format'), r);
  if (format === 'csv') assertCsvSafeIds(boundary.relations ?? boundary.areas);
  parseDeprecatedTypes(get('types'));
  const use = timeUse(r);
  const timeOptions = { metadata: context.metadata, use: use === 'exactlyTwo' ? ('intervals' as const) : use, maxTimestamps: context.maxTimestamps };
  let timestamps = parseTime(get('time'), timeOptions);
  const filters = parseFilters(
    {
      filter: get('filter'),
      filter2: get('filter2'),
      types: get('types'),
      keys: get('keys'),
      values: get('values'),
      types2: get('types2'),
      keys2: get('keys2'),
      values2: get('values2'),
    },
    { allowChangeset: isContributionBased(r), ratio: r.ratio },
  );

  // After the common processing: full-history and contributions extraction.
  if (use === 'exactlyTwo') timestamps = parseTime(get('time'), { ...timeOptions, use });
  if (lateProperties) properties = parseProperties(get('properties'), { contributions: contributionsExtraction });
  const contributionTypes = params.has('contributionType') ? parseContributionType(get('contributionType')) : undefined;
  const props = properties ?? { tags: false, metadata: false, contributionTypes: false, unclipped: false };
  const clipGeometry = params.has('clipGeometry') ? parseClipGeometry(get('clipGeometry')) : !props.unclipped;

  const request: V1Request = {
    route: r,
    boundaryType: boundary.type,
    areas: boundary.areas,
    boundaryOutputIds: boundary.outputIds,
    timestamps,
    timeParameter: get('time'),
    filter: filters.filter,
    grouping,
    density: r.density,
    ratio: r.ratio,
    format,
    showMetadata,
    timeoutSeconds,
    properties: props,
    clipGeometry,
  };
  if (boundary.relations !== undefined) request.boundaryRelations = boundary.relations;
  if (filters.filter2 !== undefined) request.filter2 = filters.filter2;
  if (filters.deprecatedOsmTypes !== undefined) request.deprecatedOsmTypes = filters.deprecatedOsmTypes;
  if (r.measure !== undefined) request.measure = r.measure;
  if (contributionTypes !== undefined) request.contributionTypes = contributionTypes;
  return request;
}
