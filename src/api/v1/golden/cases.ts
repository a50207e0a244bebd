/**
 * The golden requests on the bundled sample (sample/andorra.osh.pbf): every route family, every
 * parameter form, and every error message of docs/reference/v1-reference-behaviour.md §1–§2 that a query string can
 * provoke. Each case is a path below /v1 and its parameters in order.
 */

export interface GoldenCase {
  name: string;
  path: string;
  params: [string, string][];
}

/** The sample's spatial extent (its declared bbox): the whole-area query. */
export const WHOLE = '1.412368,42.4276,1.787481,42.65717';
/** Andorra la Vella and Escaldes. */
const TOWN = '1.515,42.500,1.540,42.515';
const TWO_BOXES = 'vella:1.515,42.500,1.530,42.510|escaldes:1.525,42.505,1.545,42.515';
const CIRCLES = '1.5218,42.5063,500|1.5347,42.5094,800';
const TEXT_POLYS = '1.50,42.50,1.56,42.50,1.53,42.55,1.50,42.50|1.55,42.53,1.60,42.53,1.60,42.58,1.55,42.53';
const GEOJSON_POLYS = JSON.stringify({
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      id: 7,
      properties: {},
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [1.5, 42.5],
            [1.56, 42.5],
            [1.53, 42.55],
            [1.5, 42.5],
          ],
        ],
      },
    },
    {
      type: 'Feature',
      properties: { id: 'north' },
      geometry: {
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [1.55, 42.53],
              [1.6, 42.53],
              [1.6, 42.58],
              [1.55, 42.53],
            ],
          ],
          [
            [
              [1.45, 42.55],
              [1.48, 42.55],
              [1.48, 42.58],
              [1.45, 42.55],
            ],
          ],
        ],
      },
    },
  ],
});
const YEARLY = '2008-01-01/2016-01-01/P1Y';
const BIYEARLY = '2010-01-01/2016-01-01/P2Y';

const c = (name: string, path: string, params: Record<string, string>): GoldenCase => ({ name, path, params: Object.entries(params) });

export const GOLDEN_CASES: GoldenCase[] = [
  // ---- elements: plain, forms of time, oracle overlaps ----
  c('elements-count-ways-2010', '/elements/count', { bboxes: WHOLE, time: '2010-01-01', filter: 'type:way' }),
  c('elements-count-highways-yearly', '/elements/count', { bboxes: WHOLE, time: YEARLY, filter: 'type:way and highway=*' }),
  c('elements-count-buildings-yearly', '/elements/count', { bboxes: WHOLE, time: YEARLY, filter: 'type:way and building=*' }),
  c('elements-count-nwr-buildings-yearly', '/elements/count', { bboxes: WHOLE, time: YEARLY, filter: 'building=*' }),
  c('elements-count-amenity-nodes', '/elements/count', { bboxes: WHOLE, time: '2010-01-01,2014-01-01', filter: 'type:node and amenity=*' }),
  c('elements-count-multipolygons', '/elements/count', { bboxes: WHOLE, time: '2012-01-01', filter: 'type:relation and type=multipolygon' }),
  c('elements-count-time-list-unsorted', '/elements/count', { bboxes: TOWN, time: '2014-01-01, 2012-01-01', filter: 'building=*' }),
  c('elements-count-time-start-end', '/elements/count', { bboxes: TOWN, time: '2012-01-01/2015-06-01', filter: 'building=*' }),
  c('elements-count-time-open-start', '/elements/count', { bboxes: TOWN, time: '/2012-01-01/P2Y', filter: 'building=*' }),
  c('elements-count-time-open-end', '/elements/count', { bboxes: TOWN, time: '2015-01-01//P1Y', filter: 'building=*' }),
  c('elements-count-time-default', '/elements/count', { bboxes: TOWN, filter: 'highway=residential' }),
  c('elements-count-time-short-forms', '/elements/count', { bboxes: TOWN, time: '2014,2015-06,20160101,2016-02-01T12:30Z', filter: 'highway=*' }),
  c('elements-count-no-filter', '/elements/count', { bboxes: TOWN, time: '2016-01-01' }),
  c('elements-count-csv', '/elements/count', { bboxes: TOWN, time: BIYEARLY, filter: 'building=*', format: 'csv' }),
  c('elements-count-csv-metadata', '/elements/count', { bboxes: TOWN, time: '2016-01-01', filter: 'building=*', format: 'CSV', showMetadata: 'yes' }),
  c('elements-count-metadata', '/elements/count', { bboxes: TOWN, time: '2016-01-01', filter: 'building=*', showMetadata: 'true' }),
  c('elements-count-geojson-ignored', '/elements/count', { bboxes: TOWN, time: '2016-01-01', filter: 'building=*', format: 'geojson' }),
  c('elements-count-bcircles', '/elements/count', { bcircles: CIRCLES, time: '2016-01-01', filter: 'highway=*' }),
  c('elements-count-bpolys-text', '/elements/count', { bpolys: TEXT_POLYS, time: '2016-01-01', filter: 'highway=*' }),
  c('elements-count-bpolys-geojson', '/elements/count', { bpolys: GEOJSON_POLYS, time: '2016-01-01', filter: 'highway=*' }),
  c('elements-count-timeout-param', '/elements/count', { bboxes: TOWN, time: '2016-01-01', filter: 'building=*', timeout: '50.5' }),
  c('elements-count-density', '/elements/count/density', { bboxes: TOWN, time: BIYEARLY, filter: 'type:way and building=*' }),
  c('elements-count-density-two-boxes', '/elements/count/density', { bboxes: TWO_BOXES, time: '2016-01-01', filter: 'building=*' }),
  c('elements-length-highways', '/elements/length', { bboxes: TOWN, time: BIYEARLY, filter: 'type:way and highway=*' }),
  c('elements-length-density', '/elements/length/density', { bboxes: TOWN, time: '2016-01-01', filter: 'highway=*' }),
  c('elements-area-buildings', '/elements/area', { bboxes: TOWN, time: BIYEARLY, filter: 'building=*' }),
  c('elements-area-density-csv', '/elements/area/density', { bboxes: TOWN, time: '2016-01-01', filter: 'building=*', format: 'csv' }),
  c('elements-perimeter-buildings', '/elements/perimeter', { bboxes: TOWN, time: '2016-01-01', filter: 'building=*' }),
  c('elements-perimeter-density', '/elements/perimeter/density', { bcircles: CIRCLES, time: '2016-01-01', filter: 'landuse=*' }),
  // ---- ratio ----
  c('elements-count-ratio', '/elements/count/ratio', { bboxes: TOWN, time: BIYEARLY, filter: 'type:way', filter2: 'building=*' }),
  c('elements-count-ratio-no-filter', '/elements/count/ratio', { bboxes: TOWN, time: '2016-01-01', filter2: 'highway=*' }),
  c('elements-count-ratio-nan', '/elements/count/ratio', { bboxes: TOWN, time: '2008-01-01', filter: 'building=*', filter2: 'amenity=*' }),
  c('elements-count-ratio-csv', '/elements/count/ratio', { bboxes: TOWN, time: BIYEARLY, filter: 'type:way', filter2: 'building=*', format: 'csv' }),
  c('elements-area-ratio', '/elements/area/ratio', { bboxes: TOWN, time: '2016-01-01', filter: 'building=*', filter2: 'building=yes' }),
  c('elements-length-ratio-deprecated', '/elements/length/ratio', {
    bboxes: TOWN,
    time: '2016-01-01',
    types: 'way',
    keys: 'highway',
    keys2: 'highway',
    values2: 'residential',
  }),
  c('elements-count-ratio-groupby-boundary', '/elements/count/ratio/groupBy/boundary', {
    bboxes: TWO_BOXES,
    time: BIYEARLY,
    filter: 'type:way',
    filter2: 'building=*',
  }),
  c('elements-count-ratio-groupby-boundary-geojson', '/elements/count/ratio/groupBy/boundary', {
    bboxes: TWO_BOXES,
    time: '2016-01-01',
    filter: 'type:way',
    filter2: 'building=*',
    format: 'geojson',
  }),
  c('elements-count-ratio-groupby-boundary-csv', '/elements/count/ratio/groupBy/boundary', {
    bboxes: TWO_BOXES,
    time: '2016-01-01',
    filter: 'type:way',
    filter2: 'building=*',
    format: 'csv',
  }),
  // ---- groupBy ----
  c('elements-count-groupby-boundary-ids', '/elements/count/groupBy/boundary', {
    bboxes: TWO_BOXES,
    time: BIYEARLY,
    filter: 'building=*',
    showMetadata: 'true',
  }),
  c('elements-count-groupby-boundary-bcircles', '/elements/count/groupBy/boundary', { bcircles: CIRCLES, time: '2016-01-01', filter: 'building=*' }),
  c('elements-count-groupby-boundary-bpolys-text', '/elements/count/groupBy/boundary', { bpolys: TEXT_POLYS, time: '2016-01-01', filter: 'building=*' }),
  c('elements-count-groupby-boundary-bpolys-geojson', '/elements/count/groupBy/boundary', {
    bpolys: GEOJSON_POLYS,
    time: '2016-01-01',
    filter: 'building=*',
    format: 'geojson',
  }),
  c('elements-count-groupby-boundary-geojson-ids-json', '/elements/count/groupBy/boundary', {
    bpolys: GEOJSON_POLYS,
    time: '2016-01-01',
    filter: 'building=*',
  }),
  c('elements-count-groupby-boundary-csv', '/elements/count/groupBy/boundary', { bboxes: TWO_BOXES, time: BIYEARLY, filter: 'building=*', format: 'csv' }),
  c('elements-area-groupby-boundary', '/elements/area/groupBy/boundary', { bboxes: TWO_BOXES, time: '2016-01-01', filter: 'building=*' }),
  c('elements-count-groupby-boundary-tag', '/elements/count/groupBy/boundary/groupBy/tag', {
    bboxes: TWO_BOXES,
    time: '2016-01-01',
    groupByKey: 'building',
    groupByValues: 'yes,house,DoesNotExist',
    filter: 'type:way',
  }),
  c('elements-count-groupby-boundary-tag-csv', '/elements/count/groupBy/boundary/groupBy/tag', {
    bboxes: TWO_BOXES,
    time: '2016-01-01',
    groupByKey: 'building',
    groupByValues: 'yes',
    format: 'csv',
  }),
  c('elements-count-groupby-boundary-tag-geojson', '/elements/count/groupBy/boundary/groupBy/tag', {
    bboxes: TWO_BOXES,
    time: '2016-01-01',
    groupByKey: 'building',
    groupByValues: 'yes',
    format: 'geojson',
  }),
  c('elements-area-density-groupby-boundary-tag', '/elements/area/density/groupBy/boundary/groupBy/tag', {
    bboxes: TWO_BOXES,
    time: '2016-01-01',
    groupByKey: 'building',
    groupByValues: 'yes,residential',
  }),
  c('elements-count-groupby-tag', '/elements/count/groupBy/tag', { bboxes: TOWN, time: '2016-01-01', groupByKey: 'highway', filter: 'type:way' }),
  c('elements-count-groupby-tag-values', '/elements/count/groupBy/tag', {
    bboxes: TOWN,
    time: BIYEARLY,
    groupByKey: 'highway',
    groupByValues: 'residential, track ,Does Not Exist',
    filter: 'type:way',
  }),
  c('elements-length-groupby-tag-csv', '/elements/length/groupBy/tag', {
    bboxes: TOWN,
    time: '2016-01-01',
    groupByKey: 'highway',
    groupByValues: 'residential,primary',
    format: 'csv',
  }),
  c('elements-count-groupby-key', '/elements/count/groupBy/key', { bboxes: TOWN, time: BIYEARLY, groupByKeys: 'building,highway,name', filter: 'type:way' }),
  c('elements-length-groupby-key', '/elements/length/groupBy/key', { bboxes: TOWN, time: '2016-01-01', groupByKeys: 'highway,railway' }),
  c('elements-count-groupby-type', '/elements/count/groupBy/type', { bboxes: TOWN, time: BIYEARLY, filter: 'building=*' }),
  c('elements-perimeter-groupby-type', '/elements/perimeter/groupBy/type', { bboxes: TOWN, time: '2016-01-01', filter: 'building=*' }),
  c('elements-count-groupby-type-deprecated-types', '/elements/count/groupBy/type', { bboxes: TOWN, time: '2016-01-01', types: 'node,way', keys: 'building' }),
  c('elements-count-groupby-type-polygon-types', '/elements/count/groupBy/type', { bboxes: TOWN, time: '2016-01-01', types: 'polygon' }),
  c('elements-count-density-groupby-boundary', '/elements/count/density/groupBy/boundary', {
    bboxes: TWO_BOXES,
    time: '2016-01-01',
    filter: 'building=*',
    format: 'geojson',
  }),
  c('elements-count-density-groupby-tag', '/elements/count/density/groupBy/tag', {
    bboxes: TOWN,
    time: '2016-01-01',
    groupByKey: 'building',
    groupByValues: 'yes',
  }),
  c('elements-length-density-groupby-type', '/elements/length/density/groupBy/type', { bboxes: TOWN, time: '2016-01-01', filter: 'highway=*' }),
  c('elements-count-deprecated-keys-values', '/elements/count', { bboxes: TOWN, time: '2016-01-01', keys: 'highway,name', values: 'residential' }),
  // ---- users ----
  c('users-count', '/users/count', { bboxes: WHOLE, time: YEARLY, filter: 'building=*' }),
  c('users-count-default-time', '/users/count', { bboxes: TOWN }),
  c('users-count-creation', '/users/count', { bboxes: TOWN, time: BIYEARLY, contributionType: 'CREATION' }),
  c('users-count-csv', '/users/count', { bboxes: TOWN, time: BIYEARLY, format: 'csv' }),
  c('users-count-density', '/users/count/density', { bboxes: TOWN, time: BIYEARLY, filter: 'highway=*' }),
  c('users-count-groupby-boundary', '/users/count/groupBy/boundary', { bboxes: TWO_BOXES, time: BIYEARLY, filter: 'building=*' }),
  c('users-count-groupby-boundary-geojson', '/users/count/groupBy/boundary', { bboxes: TWO_BOXES, time: BIYEARLY, filter: 'building=*', format: 'geojson' }),
  c('users-count-groupby-tag', '/users/count/groupBy/tag', {
    bboxes: TOWN,
    time: BIYEARLY,
    groupByKey: 'building',
    groupByValues: 'yes,DoesNotExist',
    filter: 'type:way',
  }),
  c('users-count-groupby-tag-csv', '/users/count/groupBy/tag', { bboxes: TOWN, time: BIYEARLY, groupByKey: 'building', groupByValues: 'yes', format: 'csv' }),
  c('users-count-groupby-key', '/users/count/groupBy/key', { bboxes: TOWN, time: BIYEARLY, groupByKeys: 'building,highway' }),
  c('users-count-groupby-type', '/users/count/groupBy/type', { bboxes: TOWN, time: BIYEARLY, filter: 'building=*' }),
  c('users-count-density-groupby-boundary', '/users/count/density/groupBy/boundary', { bcircles: CIRCLES, time: BIYEARLY }),
  c('users-count-density-groupby-tag', '/users/count/density/groupBy/tag', {
    bboxes: TOWN,
    time: BIYEARLY,
    groupByKey: 'highway',
    groupByValues: 'residential',
  }),
  c('users-count-density-groupby-type', '/users/count/density/groupBy/type', { bboxes: TOWN, time: BIYEARLY }),
  // ---- contributions ----
  c('contributions-count', '/contributions/count', { bboxes: WHOLE, time: YEARLY, filter: 'building=*' }),
  c('contributions-count-types', '/contributions/count', { bboxes: TOWN, time: BIYEARLY, filter: 'highway=*', contributionType: 'tagChange,geometryChange' }),
  c('contributions-count-deletion', '/contributions/count', { bboxes: TOWN, time: BIYEARLY, contributionType: 'deletion' }),
  // The reference engine's own figures (reference-figures.test.ts): never-tagged nodes, and geometry changes that are only a repeated node.
  c('contributions-count-country-monthly-2016', '/contributions/count', { bboxes: '1.41,42.42,1.79,42.66', time: '2016-01-01/2017-01-01/P1M' }),
  c('contributions-count-building-geometry-change', '/contributions/count', {
    bboxes: '1.50,42.49,1.55,42.52',
    time: '2010-01-01,2014-06-01,2017-01-01',
    filter: 'type:way and building=*',
    contributionType: 'geometryChange',
  }),
  c('contributions-count-highway-tag-geometry-monthly', '/contributions/count', {
    bboxes: '1.525,42.500,1.560,42.520',
    time: '2015-01-01/2016-01-01/P1M',
    filter: 'highway=*',
    contributionType: 'tagChange,geometryChange',
  }),
  c('contributions-latest-count-highway-geometry', '/contributions/latest/count', {
    bboxes: '1.41,42.42,1.79,42.66',
    time: '2014-01-01/2017-01-01/P1Y',
    filter: 'highway=*',
    contributionType: 'geometryChange',
  }),
  // The v2 filter's value patterns in v1 (a maphist extension).
  c('elements-count-filter-pattern', '/elements/count', { bboxes: TOWN, time: '2016-01-01', filter: 'highway=* and name~Carrer*' }),
  // The reference's answer, 144: 142 GeometryCollections meeting the area, and two hiking routes
  // (r318027, r2018553) left with only relation members, whose empty collections count because their
  // history lies inside the area (src/query/README.md, "Elements without geometry").
  c('elements-count-geometry-other', '/elements/count', { bboxes: '1.41,42.42,1.79,42.66', time: '2017-01-01', filter: 'geometry:other' }),
  c('contributions-count-changeset-filter', '/contributions/count', { bboxes: WHOLE, time: '2008-01-01,2017-01-01', filter: 'changeset:(1..1000000)' }),
  c('contributions-count-csv-metadata', '/contributions/count', { bboxes: TOWN, time: BIYEARLY, format: 'csv', showMetadata: 'true' }),
  c('contributions-count-density', '/contributions/count/density', { bboxes: TOWN, time: BIYEARLY, filter: 'building=*' }),
  c('contributions-count-groupby-boundary', '/contributions/count/groupBy/boundary', { bboxes: TWO_BOXES, time: BIYEARLY, filter: 'building=*' }),
  c('contributions-count-groupby-boundary-geojson', '/contributions/count/groupBy/boundary', { bboxes: TWO_BOXES, time: BIYEARLY, format: 'geojson' }),
  c('contributions-count-density-groupby-boundary', '/contributions/count/density/groupBy/boundary', {
    bcircles: CIRCLES,
    time: BIYEARLY,
    showMetadata: 'true',
  }),
  c('contributions-latest-count', '/contributions/latest/count', { bboxes: TOWN, time: BIYEARLY, filter: 'building=*' }),
  c('contributions-latest-count-types', '/contributions/latest/count', {
    bboxes: TOWN,
    time: BIYEARLY,
    filter: 'building=*',
    contributionType: 'geometryChange',
  }),
  c('contributions-latest-count-density', '/contributions/latest/count/density', { bboxes: TOWN, time: BIYEARLY, format: 'csv' }),
  // ---- contributions by kind: maphist's extension routes (issue 22; numbers checked against the
  // brute-force oracle in src/api/v1/contribution-kinds.http.test.ts and kinds-golden.oracle.test.ts) ----
  c('contributions-count-groupby-type', '/contributions/count/groupBy/type', { bboxes: TOWN, time: BIYEARLY, filter: 'building=* or highway=*' }),
  c('contributions-count-groupby-tag', '/contributions/count/groupBy/tag', { bboxes: TOWN, time: BIYEARLY, filter: 'highway=*', groupByKey: 'highway' }),
  c('contributions-count-groupby-tag-values-csv', '/contributions/count/groupBy/tag', {
    bboxes: TOWN,
    time: BIYEARLY,
    groupByKey: 'building',
    groupByValues: 'yes,house',
    format: 'csv',
  }),
  c('contributions-count-groupby-contribution-type', '/contributions/count/groupBy/contributionType', { bboxes: TOWN, time: BIYEARLY, filter: 'building=*' }),
  c('contributions-count-groupby-contribution-type-filtered', '/contributions/count/groupBy/contributionType', {
    bpolys: TEXT_POLYS,
    time: BIYEARLY,
    filter: 'highway=*',
    contributionType: 'tagChange,geometryChange',
  }),
  c('contributions-count-groupby-contribution-type-csv', '/contributions/count/groupBy/contributionType', {
    bboxes: TOWN,
    time: BIYEARLY,
    format: 'csv',
    showMetadata: 'true',
  }),
  c('contributions-count-density-groupby-type', '/contributions/count/density/groupBy/type', {
    bboxes: TOWN,
    time: BIYEARLY,
    filter: 'building=* or highway=*',
  }),
  c('contributions-count-density-groupby-tag', '/contributions/count/density/groupBy/tag', { bcircles: CIRCLES, time: BIYEARLY, groupByKey: 'building' }),
  c('contributions-count-density-groupby-contribution-type', '/contributions/count/density/groupBy/contributionType', {
    bboxes: TOWN,
    time: BIYEARLY,
    filter: 'highway=*',
    showMetadata: 'true',
  }),
  c('contributions-latest-count-groupby-type', '/contributions/latest/count/groupBy/type', { bboxes: TOWN, time: BIYEARLY, filter: 'building=* or highway=*' }),
  c('contributions-latest-count-groupby-tag', '/contributions/latest/count/groupBy/tag', {
    bboxes: TOWN,
    time: BIYEARLY,
    groupByKey: 'highway',
    groupByValues: 'residential,service',
  }),
  c('contributions-latest-count-groupby-contribution-type', '/contributions/latest/count/groupBy/contributionType', {
    bboxes: TOWN,
    time: BIYEARLY,
    filter: 'building=*',
  }),
  c('contributions-latest-count-density-groupby-type', '/contributions/latest/count/density/groupBy/type', { bboxes: TOWN, time: BIYEARLY, format: 'csv' }),
  c('contributions-latest-count-density-groupby-tag', '/contributions/latest/count/density/groupBy/tag', {
    bboxes: TOWN,
    time: BIYEARLY,
    groupByKey: 'building',
  }),
  c('contributions-latest-count-density-groupby-contribution-type', '/contributions/latest/count/density/groupBy/contributionType', {
    bboxes: TOWN,
    time: BIYEARLY,
    filter: 'building=* or highway=*',
  }),
  c('users-count-groupby-element', '/users/count/groupBy/element', { bboxes: '1.52,42.505,1.525,42.508', time: BIYEARLY, filter: 'building=*' }),
  c('users-count-groupby-element-csv', '/users/count/groupBy/element', {
    bboxes: '1.52,42.505,1.525,42.508',
    time: '2014-01-01,2016-01-01',
    filter: 'highway=*',
    contributionType: 'geometryChange',
    format: 'csv',
  }),
  c('error-contributions-groupby-tag-no-key', '/contributions/count/groupBy/tag', { bboxes: TOWN, time: BIYEARLY }),
  c('error-contributions-groupby-type-types', '/contributions/count/groupBy/type', { bboxes: TOWN, time: BIYEARLY, types: 'way' }),
  // ---- errors (docs/reference/v1-reference-behaviour.md §1–§2) ----
  c('error-no-params', '/elements/count', {}),
  c('error-unknown-param', '/elements/area', { bboxes: TOWN, filterr: 'building=*' }),
  c('error-unknown-param-two-suggestions', '/elements/perimeter/groupBy/key', { bboxes: TOWN, tim: '2016-01-01' }),
  c('error-unknown-param-no-suggestion', '/elements/count/ratio', { bboxes: TOWN, properties: 'tags' }),
  c('error-filter2-on-density', '/elements/count/density', { bboxes: TOWN, filter2: 'building=*' }),
  {
    name: 'error-duplicate-filter',
    path: '/elements/count',
    params: [
      ['bboxes', TOWN],
      ['filter', 'building=*'],
      ['time', '2016-01-01'],
      ['filter', 'highway=*'],
    ],
  },
  c('error-no-boundary', '/elements/count', { time: '2016-01-01' }),
  c('error-two-boundaries', '/elements/count', { bboxes: TOWN, bcircles: CIRCLES }),
  c('error-bboxes-numbers', '/elements/count', { bboxes: '1.5,42.5,x,42.6' }),
  c('error-boundary-format', '/elements/count', { bboxes: '1.5,42.5,1.6' }),
  c('error-boundary-ids-mixed', '/elements/count', { bboxes: 'a:1.5,42.5,1.52,42.52|1.53,42.53,1.54,42.54' }),
  c('error-bcircles-format', '/elements/count', { bcircles: '1.5,42.5,abc' }),
  c('error-bpolys-one-pair', '/elements/count', { bpolys: '1.5,42.5' }),
  c('error-bpolys-invalid-geometry', '/elements/count', { bpolys: '1.5,42.5,1.6,42.6,1.6,42.5,1.5,42.6,1.5,42.5' }),
  c('error-geojson-not-feature-collection', '/elements/count', { bpolys: '{"type":"Polygon"}' }),
  c('error-geojson-not-convertible', '/elements/count', {
    bpolys: '{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1.5,42.5]}}]}',
  }),
  c('error-geojson-csv-semicolon-id', '/elements/count/groupBy/boundary', {
    bpolys: JSON.stringify({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          id: 'a;b',
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [1.5, 42.5],
                [1.56, 42.5],
                [1.53, 42.55],
                [1.5, 42.5],
              ],
            ],
          },
        },
      ],
    }),
    format: 'csv',
  }),
  c('error-boundary-outside', '/elements/count', { bboxes: '8.6,49.3,8.7,49.4' }),
  c('error-bcircle-outside', '/users/count', { bcircles: '8.457261,49.488483,100' }),
  c('error-time-format', '/elements/count', { bboxes: TOWN, time: '2016-13-45' }),
  c('error-time-period', '/elements/count', { bboxes: TOWN, time: '2010-01-01/2016-01-01/P1X' }),
  c('error-time-outside', '/elements/count', { bboxes: TOWN, time: '2004-01-01' }),
  c('error-users-one-timestamp', '/users/count', { bboxes: TOWN, time: '2016-01-01' }),
  // Full-history and contributions extraction take `t1,t2` or `t1/t2` (the spec's slash form), nothing else;
  // their parameter errors come before the first byte, as ordinary error answers.
  c('error-fullhistory-time-period', '/elementsFullHistory/geometry', { bboxes: TOWN, time: '2014-01-01/2016-01-01/P1Y' }),
  c('error-contributions-extraction-three-timestamps', '/contributions/centroid', { bboxes: TOWN, time: '2014-01-01,2015-01-01,2016-01-01' }),
  c('error-filter-syntax', '/elements/count', { bboxes: TOWN, filter: 'building=* and' }),
  c('error-filter-changeset-snapshot', '/elements/count', { bboxes: TOWN, filter: 'changeset:123' }),
  c('error-filter-and-types', '/elements/count', { bboxes: TOWN, filter: 'building=*', types: 'way' }),
  c('error-values-more-than-keys', '/elements/count', { bboxes: TOWN, keys: 'building', values: 'yes,no' }),
  c('error-types-too-many', '/elements/count', { bboxes: TOWN, types: 'node,way,relation,node,way' }),
  c('error-types-invalid', '/elements/count', { bboxes: TOWN, types: 'node,polygon' }),
  c('error-deprecated-on-contributions', '/contributions/count', { bboxes: TOWN, types: 'way' }),
  c('error-filter2-missing', '/elements/count/ratio', { bboxes: TOWN, filter: 'building=*' }),
  c('error-groupbykeys-missing', '/elements/count/groupBy/key', { bboxes: TOWN }),
  c('error-groupbykey-missing', '/elements/count/groupBy/tag', { bboxes: TOWN }),
  c('error-groupbykey-comma', '/users/count/groupBy/tag', { bboxes: TOWN, groupByKey: 'building,highway' }),
  c('error-format', '/elements/count', { bboxes: TOWN, format: 'xml' }),
  c('error-show-metadata', '/elements/count', { bboxes: TOWN, showMetadata: 'maybe' }),
  c('error-contribution-type', '/contributions/count', { bboxes: TOWN, contributionType: 'creation,edit' }),
  c('error-timeout-format', '/elements/count', { bboxes: TOWN, timeout: '1,5' }),
  c('error-timeout-too-long', '/elements/count', { bboxes: TOWN, timeout: '100000' }),
  c('error-unknown-path', '/elements/countt', { bboxes: TOWN }),
  c('error-metadata-params', '/metadata', { groupByKey: 'highway' }),
];
