/**
 * The v1 aggregation routes (docs/reference/v1-reference-behaviour.md §1.1) as descriptors: what each computes and how
 * its answer is shaped. Extraction routes are registered elsewhere.
 */
import type { Measure } from '../../query/model.js';
import { V1_ROUTES, type V1Route } from './params/route-parameters.js';

export type RouteFamily = 'elements' | 'users' | 'contributions' | 'contributionsLatest';
export type RouteGrouping = 'none' | 'boundary' | 'key' | 'tag' | 'type' | 'contributionType' | 'element' | 'boundaryAndTag';

export interface AggregationRoute {
  /** Path below `/v1`, e.g. `/elements/count/density/groupBy/boundary`. */
  path: string;
  family: RouteFamily;
  measure: Measure;
  density: boolean;
  ratio: boolean;
  grouping: RouteGrouping;
  /** One of maphist's routes beyond the reference's (route-parameters.ts). */
  extension: boolean;
}

function groupingOf(route: V1Route): RouteGrouping {
  const g = route.groupBy.join('/');
  if (g === '') return 'none';
  if (g === 'boundary/tag') return 'boundaryAndTag';
  return g as RouteGrouping;
}

/** The aggregation routes (the reference's 67 and maphist's 13 extensions), from the parameter parsers' route table. */
export const AGGREGATION_ROUTES: readonly AggregationRoute[] = V1_ROUTES.filter(
  (r) => r.family === 'elements' || r.family === 'users' || r.family === 'contributions' || r.family === 'contributionsLatest',
).map((r) => ({
  path: r.path,
  family: r.family as RouteFamily,
  measure: r.measure ?? 'count',
  density: r.density,
  ratio: r.ratio,
  grouping: groupingOf(r),
  extension: r.extension === true,
}));

/** Contribution-based routes answer per interval (`fromTimestamp`/`toTimestamp`). */
export function isIntervalRoute(route: AggregationRoute): boolean {
  return route.family !== 'elements';
}

/** Routes whose output `format=geojson` changes (the boundary groupings, docs/reference/v1-reference-behaviour.md §1.8). */
export function hasGeoJsonOutput(route: AggregationRoute): boolean {
  return route.grouping === 'boundary' || route.grouping === 'boundaryAndTag';
}

const MEASURE_TEXT: Record<Measure, { label: string; unit: string }> = {
  count: { label: 'count', unit: 'absolute values' },
  length: { label: 'length', unit: 'meters' },
  area: { label: 'area', unit: 'square meters' },
  perimeter: { label: 'perimeter', unit: 'meters' },
};

const GROUP_TEXT: Record<RouteGrouping, string> = {
  none: '',
  boundary: '',
  key: ', aggregated on the key',
  tag: ', aggregated on the tag',
  type: ', aggregated on the type',
  contributionType: ', aggregated on the contribution type',
  element: ', aggregated on the element',
  boundaryAndTag: ', aggregated on the boundary and on the tag',
};

/** The `metadata.description` of a route (docs/reference/v1-reference-behaviour.md §4.1). */
export function routeDescription(route: AggregationRoute): string {
  const g = GROUP_TEXT[route.grouping];
  switch (route.family) {
    case 'users':
      return route.density
        ? `Density of distinct active users  per time interval (number of users per square-kilometer)${g}.`
        : `Number of distinct active users per time interval${g}.`;
    case 'contributions':
    case 'contributionsLatest':
      return route.density
        ? `Density of performed contributions per time interval (number of edits per square-kilometer)${g}.`
        : `Number of performed contributions per time interval${g}.`;
    case 'elements': {
      const { label, unit } = MEASURE_TEXT[route.measure];
      if (route.ratio) {
        return `Total ${label} of items in ${unit} satisfying the filter2 parameter (= value2 output), as well as items selected by the filter parameter (= value output) and the quotient (= ratio output) of value2 to value.`;
      }
      if (route.density) return `Density of selected items (${label} of items in ${unit} divided by the area in square kilometers)${g}.`;
      return `Total ${label} of items in ${unit}${g}.`;
    }
  }
}
