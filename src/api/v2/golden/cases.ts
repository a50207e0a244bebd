/**
 * The version 2 golden requests on the bundled sample (sample/andorra.osh.pbf): every endpoint in
 * each format, and every error shape. Cases with `engine: true` run the statistics engine or the
 * GeoParquet extraction. Regenerate with `node dist/src/api/v2/golden/update-golden.js` and review
 * the diff.
 */

export interface V2GoldenCase {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'HEAD';
  /** Below /v2-rc. */
  path: string;
  query?: Record<string, string>;
  /** A JSON body (sent as application/json) or a raw body with its content type. */
  body?: unknown;
  raw?: { text: string; contentType: string };
  engine?: boolean;
}

export const TOWN = [1.515, 42.5, 1.54, 42.515];
const TOWN_TEXT = TOWN.join(',');
const TOWN_POLYGON = {
  type: 'Polygon',
  coordinates: [
    [
      [1.515, 42.5],
      [1.54, 42.5],
      [1.54, 42.515],
      [1.515, 42.515],
      [1.515, 42.5],
    ],
  ],
};
const TOWN_WKT = 'POLYGON((1.515 42.5, 1.54 42.5, 1.54 42.515, 1.515 42.515, 1.515 42.5))';
const SERIES = { start: '2010-01-01T00:00:00Z', end: '2017-01-01T00:00:00Z', interval: 'P1Y' };
const BINS = { start: '2010-01-01T00:00:00Z', end: '2017-01-01T00:00:00Z', binSize: 'P1Y' };
const BUILDINGS = 'building=* and geometry:polygon';
const HIGHWAYS = 'highway=* and geometry:line';
/** The whole sample (Andorra), where its route and multipolygon relations are. */
const COUNTRY = [1.4, 42.4, 1.8, 42.7];
const ROUTES = 'type:relation and type=route';

const stats = (name: string, path: string, body: unknown): V2GoldenCase => ({ name, method: 'POST', path, body, engine: true });
const bad = (name: string, path: string, body: unknown): V2GoldenCase => ({ name, method: 'POST', path, body });

export const V2_GOLDEN_CASES: V2GoldenCase[] = [
  // ---- statistics (need the engine) ----
  stats('stats-features-count-json', '/stats/features/count.json', { aoi: TOWN, filter: BUILDINGS, time: SERIES }),
  stats('stats-features-count-csv', '/stats/features/count.csv', { aoi: TOWN, filter: BUILDINGS, time: SERIES }),
  stats('stats-features-count-latest', '/stats/features/count.json', { aoi: TOWN, filter: 'amenity=*', time: 'latest' }),
  stats('stats-features-count-geojson-aoi', '/stats/features/count.json', { aoi: TOWN_POLYGON, filter: BUILDINGS, time: '2016-01-01T00:00:00Z' }),
  stats('stats-features-count-wkt-aoi', '/stats/features/count.json', { aoi: TOWN_WKT, filter: BUILDINGS, time: '2016-01-01T00:00:00Z' }),
  stats('stats-features-count-everything', '/stats/features/count.json', { aoi: TOWN, filter: '*', time: '2016-01-01T00:00:00Z' }),
  stats('stats-features-length-json', '/stats/features/length.json', { aoi: TOWN, filter: HIGHWAYS, time: SERIES }),
  stats('stats-features-length-clip', '/stats/features/length.json', { aoi: TOWN, filter: HIGHWAYS, time: SERIES, clip: true }),
  stats('stats-features-area-csv', '/stats/features/area.csv', { aoi: TOWN, filter: BUILDINGS, time: SERIES }),
  stats('stats-features-count-groupby-json', '/stats/features/count.json', {
    aoi: TOWN,
    filter: 'highway=*',
    time: SERIES,
    groupBy: { type: 'byTag', key: 'highway' },
  }),
  stats('stats-features-count-groupby-csv', '/stats/features/count.csv', {
    aoi: TOWN,
    filter: 'highway=*',
    time: SERIES,
    groupBy: { type: 'byTag', key: 'highway' },
  }),
  stats('stats-features-count-uneven', '/stats/features/count.json', {
    aoi: TOWN,
    filter: BUILDINGS,
    time: { start: '2010-01-31', end: '2010-06-15', interval: 'P1M' },
  }),
  stats('stats-contributors-count-json', '/stats/contributors/count.json', { aoi: TOWN, filter: BUILDINGS, time: BINS }),
  stats('stats-contributors-count-csv', '/stats/contributors/count.csv', { aoi: TOWN, filter: BUILDINGS, time: BINS }),
  stats('stats-contributions-count-json', '/stats/contributions/count.json', { aoi: TOWN, filter: BUILDINGS, time: BINS }),
  stats('stats-contributions-count-csv', '/stats/contributions/count.csv', { aoi: TOWN, filter: BUILDINGS, time: { start: 'earliest', end: 'latest' } }),
  stats('stats-currentness-count-json', '/stats/currentness/count.json', {
    aoi: TOWN,
    filter: BUILDINGS,
    time: { start: 'earliest', end: 'latest', binSize: 'P1Y' },
  }),
  stats('stats-currentness-count-csv', '/stats/currentness/count.csv', { aoi: TOWN, filter: BUILDINGS, time: BINS }),
  stats('stats-currentness-length-json', '/stats/currentness/length.json', { aoi: TOWN, filter: HIGHWAYS, time: BINS }),
  stats('stats-currentness-area-json', '/stats/currentness/area.json', { aoi: TOWN, filter: BUILDINGS, time: BINS, clip: true }),
  // ---- groupBy on every statistic (issue 22: byTag with values, byType; numbers checked against the
  // brute-force oracle in src/engines/conformance cases stats-*-groupBy-* and src/api/v2/groupby.http.test.ts) ----
  stats('stats-features-count-groupby-type', '/stats/features/count.json', { aoi: TOWN, filter: '*', time: SERIES, groupBy: { type: 'byType' } }),
  stats('stats-features-length-groupby-values-csv', '/stats/features/length.csv', {
    aoi: TOWN,
    filter: HIGHWAYS,
    time: SERIES,
    clip: true,
    groupBy: { type: 'byTag', key: 'highway', values: ['residential', 'primary', 'motorway'] },
  }),
  stats('stats-features-area-groupby-type-csv', '/stats/features/area.csv', {
    aoi: TOWN,
    filter: 'geometry:polygon',
    time: SERIES,
    groupBy: { type: 'byType' },
  }),
  stats('stats-contributors-count-groupby-tag', '/stats/contributors/count.json', {
    aoi: TOWN,
    filter: 'highway=*',
    time: BINS,
    groupBy: { type: 'byTag', key: 'highway' },
  }),
  stats('stats-contributors-count-groupby-type-csv', '/stats/contributors/count.csv', { aoi: TOWN, filter: '*', time: BINS, groupBy: { type: 'byType' } }),
  stats('stats-contributions-count-groupby-type', '/stats/contributions/count.json', {
    aoi: TOWN,
    filter: BUILDINGS + ' or ' + HIGHWAYS,
    time: BINS,
    groupBy: { type: 'byType' },
  }),
  stats('stats-contributions-count-groupby-values-csv', '/stats/contributions/count.csv', {
    aoi: TOWN,
    filter: 'building=*',
    time: BINS,
    groupBy: { type: 'byTag', key: 'building', values: ['yes', 'house'] },
  }),
  stats('stats-currentness-count-groupby-tag', '/stats/currentness/count.json', {
    aoi: TOWN,
    filter: HIGHWAYS,
    time: BINS,
    groupBy: { type: 'byTag', key: 'highway' },
  }),
  stats('stats-currentness-area-groupby-type-csv', '/stats/currentness/area.csv', {
    aoi: TOWN,
    filter: 'geometry:polygon',
    time: BINS,
    clip: true,
    groupBy: { type: 'byType' },
  }),
  bad('error-groupby-type-with-key', '/stats/contributions/count.json', { aoi: TOWN, filter: '*', time: BINS, groupBy: { type: 'byType', key: 'highway' } }),
  bad('error-groupby-values-empty', '/stats/currentness/count.json', {
    aoi: TOWN,
    filter: '*',
    time: BINS,
    groupBy: { type: 'byTag', key: 'highway', values: [] },
  }),
  // ---- version 2's scope: nodes, ways, multipolygon and boundary relations (testdata/testcases/v2-scope pins the rule) ----
  stats('stats-features-count-route-relations', '/stats/features/count.json', { aoi: COUNTRY, filter: ROUTES, time: SERIES }),
  stats('stats-contributions-count-route-relations', '/stats/contributions/count.json', { aoi: COUNTRY, filter: ROUTES, time: SERIES }),
  stats('stats-contributors-count-route-relations', '/stats/contributors/count.json', { aoi: COUNTRY, filter: ROUTES, time: SERIES }),
  stats('stats-currentness-count-route-relations', '/stats/currentness/count.json', { aoi: COUNTRY, filter: ROUTES, time: SERIES }),
  stats('stats-features-count-relations', '/stats/features/count.json', { aoi: COUNTRY, filter: 'type:relation', time: SERIES }),
  stats('stats-contributions-count-relations', '/stats/contributions/count.json', { aoi: COUNTRY, filter: 'type:relation', time: SERIES }),
  stats('stats-contributions-count-multipolygons', '/stats/contributions/count.json', {
    aoi: COUNTRY,
    filter: 'type:relation and type=multipolygon',
    time: SERIES,
  }),
  stats('extraction-contributions-route-relations', '/extraction/contributions.parquet', {
    aoi: COUNTRY,
    filter: ROUTES,
    time: { start: '2010-01-01', end: '2017-01-01' },
  }),
  stats('extraction-features-route-relations', '/extraction/features.parquet', {
    aoi: COUNTRY,
    filter: ROUTES,
    time: { start: '2010-01-01', end: '2017-01-01' },
  }),
  stats('extraction-collections-route-relations', '/extraction/collections.parquet', {
    aoi: COUNTRY,
    filter: ROUTES,
    time: '2016-01-01T00:00:00Z',
    clip: false,
  }),
  // ---- extraction (need the GeoParquet extraction) ----
  {
    name: 'extraction-features-get',
    method: 'GET',
    path: '/extraction/features.parquet',
    query: { aoi: TOWN_TEXT, filter: BUILDINGS, time: 'latest' },
    engine: true,
  },
  {
    name: 'extraction-features-get-range',
    method: 'GET',
    path: '/extraction/features.parquet',
    query: { aoi: TOWN_TEXT, filter: BUILDINGS, time: '2015-01-01/2016-01-01', clip: 'false' },
    engine: true,
  },
  stats('extraction-features-post', '/extraction/features.parquet', { aoi: TOWN_POLYGON, filter: BUILDINGS, time: '2016-01-01T00:00:00Z' }),
  {
    name: 'extraction-collections-get',
    method: 'GET',
    path: '/extraction/collections.parquet',
    query: { aoi: TOWN_TEXT, filter: 'type:relation', time: 'latest' },
    engine: true,
  },
  stats('extraction-collections-post', '/extraction/collections.parquet', { aoi: TOWN, filter: 'type:relation', time: 'latest', member_filter: 'type:way' }),
  {
    name: 'extraction-collections-members-get',
    method: 'GET',
    path: '/extraction/collections_members.parquet',
    query: { aoi: TOWN_TEXT, filter: 'type:relation', time: 'latest' },
    engine: true,
  },
  stats('extraction-collections-members-post', '/extraction/collections_members.parquet', { aoi: TOWN, filter: 'type:relation', time: 'latest' }),
  {
    name: 'extraction-contributions-get',
    method: 'GET',
    path: '/extraction/contributions.parquet',
    query: { aoi: TOWN_TEXT, filter: BUILDINGS, time: '2015-01-01/2016-01-01' },
    engine: true,
  },
  stats('extraction-contributions-post', '/extraction/contributions.parquet', {
    aoi: TOWN,
    filter: BUILDINGS,
    time: { start: '2015-01-01', end: '2016-01-01' },
  }),

  // ---- no engine needed ----
  { name: 'metadata', method: 'GET', path: '/metadata' },
  { name: 'health', method: 'GET', path: '/health' },
  { name: 'filter-validation-get', method: 'GET', path: '/filter/validation', query: { filter: 'highway ~ motor* and not geometry:collection' } },
  { name: 'filter-validation-get-everything', method: 'GET', path: '/filter/validation', query: { filter: '*' } },
  { name: 'filter-validation-post', method: 'POST', path: '/filter/validation', body: { filter: BUILDINGS } },
  { name: 'error-filter-validation-syntax', method: 'GET', path: '/filter/validation', query: { filter: 'building=* and (' } },
  { name: 'error-filter-validation-empty', method: 'POST', path: '/filter/validation', body: { filter: '' } },
  { name: 'error-filter-validation-not-allowed', method: 'GET', path: '/filter/validation', query: { filter: 'perimeter:(1..10)' } },
  { name: 'error-filter-validation-no-query', method: 'GET', path: '/filter/validation' },
  // the migration table's name of the same routes
  { name: 'filter-validate-get', method: 'GET', path: '/filter/validate', query: { filter: 'type:relation and type in (multipolygon, boundary)' } },
  { name: 'error-filter-validate-geometry-other', method: 'POST', path: '/filter/validate', body: { filter: 'geometry:other' } },

  // ---- 404 / 405 ----
  { name: 'error-no-format-suffix', method: 'POST', path: '/stats/currentness/count', body: { aoi: TOWN, filter: '*', time: BINS } },
  { name: 'error-unknown-measure', method: 'POST', path: '/stats/features/perimeter.json', body: { aoi: TOWN, filter: '*', time: 'latest' } },
  { name: 'error-unknown-path', method: 'GET', path: '/elements/count' },
  { name: 'error-method-stats-get', method: 'GET', path: '/stats/features/count.json' },
  { name: 'error-method-metadata-post', method: 'POST', path: '/metadata', body: {} },
  { name: 'error-method-health-post', method: 'POST', path: '/health', body: {} },
  { name: 'error-method-extraction-put', method: 'PUT', path: '/extraction/features.parquet', body: {} },

  // ---- bodies ----
  { name: 'error-body-missing', method: 'POST', path: '/stats/features/count.json' },
  { name: 'error-body-form', method: 'POST', path: '/stats/features/count.json', raw: { text: 'filter=*', contentType: 'application/x-www-form-urlencoded' } },
  { name: 'error-body-not-json', method: 'POST', path: '/stats/features/count.json', raw: { text: '{"aoi": [1,2,3,4],', contentType: 'application/json' } },
  bad('error-body-not-object', '/stats/features/count.json', [TOWN]),
  bad('error-field-unknown', '/stats/features/count.json', { aoi: TOWN, filter: '*', time: 'latest', format: 'csv' }),
  bad('error-field-missing', '/stats/features/count.json', { aoi: TOWN, time: 'latest' }),
  bad('error-field-snake-case', '/stats/features/count.json', { aoi: TOWN, filter: '*', time: 'latest', group_by: { type: 'byTag', key: 'x' } }),
  bad('error-clip-not-boolean', '/stats/features/count.json', { aoi: TOWN, filter: '*', time: 'latest', clip: 'yes' }),
  bad('error-clip-on-contributors', '/stats/contributors/count.json', { aoi: TOWN, filter: '*', time: BINS, clip: true }),
  // ---- aoi ----
  bad('error-aoi-type', '/stats/features/count.json', { aoi: 5, filter: '*', time: 'latest' }),
  bad('error-aoi-three-numbers', '/stats/features/count.json', { aoi: [1, 2, 3], filter: '*', time: 'latest' }),
  bad('error-aoi-bbox-order', '/stats/features/count.json', { aoi: [1.54, 42.5, 1.515, 42.515], filter: '*', time: 'latest' }),
  bad('error-aoi-bbox-latitude', '/stats/features/count.json', { aoi: [1, -91, 2, 42], filter: '*', time: 'latest' }),
  bad('error-aoi-feature-collection', '/stats/features/count.json', { aoi: { type: 'FeatureCollection', features: [] }, filter: '*', time: 'latest' }),
  bad('error-aoi-self-intersecting', '/stats/features/count.json', {
    aoi: {
      type: 'Polygon',
      coordinates: [
        [
          [1.5, 42.5],
          [1.6, 42.6],
          [1.6, 42.5],
          [1.5, 42.6],
          [1.5, 42.5],
        ],
      ],
    },
    filter: '*',
    time: 'latest',
  }),
  bad('error-aoi-ring-too-short', '/stats/features/count.json', {
    aoi: {
      type: 'Polygon',
      coordinates: [
        [
          [1.5, 42.5],
          [1.6, 42.6],
          [1.5, 42.5],
        ],
      ],
    },
    filter: '*',
    time: 'latest',
  }),
  bad('error-aoi-wkt-point', '/stats/features/count.json', { aoi: 'POINT(1.5 42.5)', filter: '*', time: 'latest' }),
  bad('error-aoi-wkt-syntax', '/stats/features/count.json', { aoi: 'POLYGON((1.5 42.5, 1.6', filter: '*', time: 'latest' }),
  bad('error-aoi-json-text', '/stats/features/count.json', { aoi: '{"type": "Polygon"', filter: '*', time: 'latest' }),
  // ---- time ----
  bad('error-time-offset', '/stats/features/count.json', { aoi: TOWN, filter: '*', time: '2016-01-01T00:00:00+01:00' }),
  bad('error-time-too-early', '/stats/features/count.json', { aoi: TOWN, filter: '*', time: '2007-01-01' }),
  bad('error-time-not-a-date', '/stats/features/count.json', { aoi: TOWN, filter: '*', time: 'yesterday' }),
  bad('error-time-end-before-start', '/stats/features/count.json', { aoi: TOWN, filter: '*', time: { start: '2016-01-01', end: '2015-01-01' } }),
  bad('error-time-equal-start-end', '/stats/contributors/count.json', { aoi: TOWN, filter: '*', time: { start: '2016-01-01', end: '2016-01-01' } }),
  bad('error-time-series-too-large', '/stats/features/count.json', {
    aoi: TOWN,
    filter: '*',
    time: { start: '2008-01-01', end: '2016-01-01', interval: 'P1D' },
  }),
  bad('error-time-bad-duration', '/stats/contributors/count.json', {
    aoi: TOWN,
    filter: '*',
    time: { start: '2010-01-01', end: '2016-01-01', binSize: '1 year' },
  }),
  bad('error-time-missing-start', '/stats/currentness/count.json', { aoi: TOWN, filter: '*', time: { end: '2016-01-01' } }),
  stats('stats-contributors-count-interval', '/stats/contributors/count.json', {
    aoi: TOWN,
    filter: '*',
    time: { start: '2010-01-01', end: '2016-01-01', interval: 'P1Y' },
  }),
  bad('error-time-interval-binsize-differ', '/stats/contributors/count.json', {
    aoi: TOWN,
    filter: '*',
    time: { start: '2010-01-01', end: '2016-01-01', interval: 'P1Y', binSize: 'P1M' },
  }),
  bad('error-filter-geometry-other', '/stats/features/count.json', { aoi: TOWN, filter: 'geometry:other', time: '2016-01-01T00:00:00Z' }),
  bad('error-time-timestamp-on-bins', '/stats/contributors/count.json', { aoi: TOWN, filter: '*', time: '2016-01-01' }),
  bad('error-time-range-on-collections', '/extraction/collections.parquet', { aoi: TOWN, filter: '*', time: { start: '2015-01-01', end: '2016-01-01' } }),
  // ---- filter, groupBy ----
  bad('error-filter-syntax', '/stats/features/count.json', { aoi: TOWN, filter: 'building=* and (highway=*', time: 'latest' }),
  bad('error-filter-empty', '/stats/features/count.json', { aoi: TOWN, filter: '', time: 'latest' }),
  bad('error-filter-v1-only', '/stats/features/count.json', { aoi: TOWN, filter: 'geometry.vertices:(1..10)', time: 'latest' }),
  bad('error-member-filter-syntax', '/extraction/collections.parquet', { aoi: TOWN, filter: 'type:relation', time: 'latest', member_filter: 'a=' }),
  bad('error-groupby-type', '/stats/features/count.json', { aoi: TOWN, filter: '*', time: 'latest', groupBy: { type: 'byKey', key: 'highway' } }),
  bad('error-groupby-no-key', '/stats/features/count.json', { aoi: TOWN, filter: '*', time: 'latest', groupBy: { type: 'byTag' } }),
  // ---- GET extraction ----
  { name: 'error-extraction-get-missing', method: 'GET', path: '/extraction/features.parquet', query: { aoi: TOWN_TEXT } },
  {
    name: 'error-extraction-get-aoi-polygon',
    method: 'GET',
    path: '/extraction/features.parquet',
    query: { aoi: JSON.stringify(TOWN_POLYGON), filter: '*', time: 'latest' },
  },
  { name: 'error-extraction-get-time', method: 'GET', path: '/extraction/contributions.parquet', query: { aoi: TOWN_TEXT, filter: '*', time: 'latest' } },
  {
    name: 'error-extraction-get-clip',
    method: 'GET',
    path: '/extraction/features.parquet',
    query: { aoi: TOWN_TEXT, filter: '*', time: 'latest', clip: 'maybe' },
  },
  {
    name: 'error-extraction-get-unknown',
    method: 'GET',
    path: '/extraction/features.parquet',
    query: { aoi: TOWN_TEXT, filter: '*', time: 'latest', bboxes: TOWN_TEXT },
  },
];
