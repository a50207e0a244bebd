/**
 * The version-1 routes (docs/reference/v1-reference-behaviour.md §1.1) as data, and which parameters each accepts
 * (docs/reference/v1-reference-behaviour.md §1.2). The HTTP layer registers its routes from V1_ROUTES; the request checks ask
 * acceptedParameters which names are known.
 */
import type { Measure } from '../../../query/model.js';

export type V1RouteFamily =
  | 'elements' // snapshot aggregation
  | 'users'
  | 'contributions'
  | 'contributionsLatest'
  | 'elementsExtraction'
  | 'elementsFullHistoryExtraction'
  | 'contributionsExtraction'
  | 'contributionsLatestExtraction'
  | 'metadata';

export type V1GroupByStep = 'boundary' | 'tag' | 'key' | 'type' | 'contributionType' | 'element';
export type V1ExtractionGeometry = 'geometry' | 'bbox' | 'centroid';

export interface V1Route {
  /** Path below the version prefix, without trailing slash: `/elements/count/groupBy/tag`. */
  readonly path: string;
  readonly family: V1RouteFamily;
  /** Aggregation routes only (users and contributions always count). */
  readonly measure?: Measure;
  /** Extraction routes only. */
  readonly geometryType?: V1ExtractionGeometry;
  readonly density: boolean;
  readonly ratio: boolean;
  /** The groupBy chain in path order: [], ['tag'], ['boundary', 'tag'], … */
  readonly groupBy: readonly V1GroupByStep[];
  readonly methods: readonly ('GET' | 'POST')[];
  /**
   * true for maphist's own routes beyond the reference's 80 (issue 22: contributions and latest
   * contributions grouped by type, tag and contribution type; users per element); the reference
   * never answers them.
   */
  readonly extension?: boolean;
}

const AGGREGATIONS: readonly Measure[] = ['count', 'length', 'perimeter', 'area'];
const GEOMETRIES: readonly V1ExtractionGeometry[] = ['geometry', 'bbox', 'centroid'];
const BOTH = ['GET', 'POST'] as const;

function buildRoutes(): V1Route[] {
  const routes: V1Route[] = [];
  const agg = (family: V1RouteFamily, base: string, measure: Measure, tail: string, extension = false): void => {
    const steps = tail.split('/').filter((s) => s !== '');
    const groupBy: V1GroupByStep[] = [];
    for (let i = 0; i < steps.length; i++) if (steps[i] === 'groupBy') groupBy.push(steps[i + 1] as V1GroupByStep);
    routes.push({
      path: `${base}${tail}`,
      family,
      measure,
      density: steps.includes('density'),
      ratio: steps.includes('ratio'),
      groupBy,
      methods: BOTH,
      ...(extension ? { extension: true } : {}),
    });
  };
  for (const m of AGGREGATIONS) {
    for (const tail of [
      '',
      '/density',
      '/ratio',
      '/ratio/groupBy/boundary',
      '/groupBy/boundary',
      '/groupBy/boundary/groupBy/tag',
      '/groupBy/tag',
      '/groupBy/key',
      '/groupBy/type',
      '/density/groupBy/boundary',
      '/density/groupBy/boundary/groupBy/tag',
      '/density/groupBy/tag',
      '/density/groupBy/type',
    ]) {
      agg('elements', `/elements/${m}`, m, tail);
    }
  }
  for (const tail of [
    '',
    '/density',
    '/groupBy/boundary',
    '/groupBy/key',
    '/groupBy/tag',
    '/groupBy/type',
    '/density/groupBy/boundary',
    '/density/groupBy/tag',
    '/density/groupBy/type',
  ]) {
    agg('users', '/users/count', 'count', tail);
  }
  // maphist's extension (issue 22, the reference's issue #197): the distinct users per element.
  agg('users', '/users/count', 'count', '/groupBy/element', true);
  for (const tail of ['', '/density', '/groupBy/boundary', '/density/groupBy/boundary']) {
    agg('contributions', '/contributions/count', 'count', tail);
  }
  for (const tail of ['', '/density']) agg('contributionsLatest', '/contributions/latest/count', 'count', tail);
  // maphist's extensions (issue 22; src/api/v1/params/README.md, "Contributions by kind").
  for (const [family, base] of [
    ['contributions', '/contributions/count'],
    ['contributionsLatest', '/contributions/latest/count'],
  ] as const) {
    for (const density of ['', '/density']) {
      for (const g of ['type', 'tag', 'contributionType']) agg(family, base, 'count', `${density}/groupBy/${g}`, true);
    }
  }
  const extraction: [string, V1RouteFamily][] = [
    ['/elements', 'elementsExtraction'],
    ['/elementsFullHistory', 'elementsFullHistoryExtraction'],
    ['/contributions', 'contributionsExtraction'],
    ['/contributions/latest', 'contributionsLatestExtraction'],
  ];
  for (const [base, family] of extraction) {
    for (const g of GEOMETRIES) {
      routes.push({ path: `${base}/${g}`, family, geometryType: g, density: false, ratio: false, groupBy: [], methods: BOTH });
    }
  }
  routes.push({ path: '/metadata', family: 'metadata', density: false, ratio: false, groupBy: [], methods: ['GET'] });
  return routes;
}

/**
 * Every version-1 route: the reference's 80 (52 elements, 9 users, 6 contributions, 12 extraction,
 * metadata) and maphist's 13 extensions (`extension: true`).
 */
export const V1_ROUTES: readonly V1Route[] = Object.freeze(buildRoutes());

const BY_PATH = new Map(V1_ROUTES.map((r) => [r.path, r]));

/** The route for a path below `/v1` (a trailing slash is tolerated, as by the reference); undefined if none. */
export function findV1Route(path: string): V1Route | undefined {
  const p = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return BY_PATH.get(p);
}

/** True for the routes whose time is a series of intervals (users, contributions, full history). */
export function isContributionBased(route: V1Route): boolean {
  return route.family !== 'elements' && route.family !== 'elementsExtraction' && route.family !== 'metadata';
}

export function isExtraction(route: V1Route): boolean {
  return route.geometryType !== undefined;
}

const BASE = ['bboxes', 'bcircles', 'bpolys', 'types', 'keys', 'values', 'timeout', 'time', 'showMetadata', 'filter'];

/**
 * The parameter names a route accepts, in the reference's list order (the order breaks ties in the
 * "Did you mean" suggestion). Built from substrings of the path exactly as the reference does.
 */
export function acceptedParameters(path: string): readonly string[] {
  if (path === '/metadata' || path === '/metadata/') return [];
  let names = [...BASE];
  if (['/count', '/length', '/area', '/perimeter'].some((s) => path.includes(s))) names.push('format');
  if (path.includes('/groupBy/tag')) names.push('groupByKey', 'groupByValues');
  else if (path.includes('/groupBy/key')) names.push('groupByKeys');
  else if (path.includes('/ratio')) names.push('filter2', 'keys2', 'types2', 'values2');
  else if (['/bbox', '/centroid', '/geometry'].some((s) => path.includes(s))) names.push('properties', 'clipGeometry');
  if (path.includes('/contributions')) {
    names = names.filter((n) => n !== 'types' && n !== 'keys' && n !== 'values');
    if (path.includes('/count')) names.push('contributionType');
  }
  if (path.includes('/users')) names.push('contributionType');
  return names;
}
