/**
 * The fuzzer's requests: request `index` of the run with seed `seed` is `fuzzRequest(seed, index)`,
 * the same every time (each request draws from its own generator, rng.ts), so a failure is replayed
 * by its seed and index. The first requests of every run are the catalogue of known hostile inputs
 * (HOSTILE, issue 17: empty list items, 1e308, NaN, 100,000 bboxes, 10,000 bcircles, 200,001
 * timestamps, 70 groupBy keys, deep and long filters, non-UTF-8 escapes, truncated and boundary-less
 * multipart, bad JSON, huge query strings, …), one each; then random requests over every route of
 * both versions: well-formed ones, mutations of well-formed ones, catalogue entries again, odd
 * methods and paths, and requests whose client hangs up while the server works.
 */
import fc from 'fast-check';
import { printFilter } from '../../filter/printer.js';
import { treeArb } from '../../filter/testing/arbitraries.js';
import { acceptedParameters, V1_ROUTES, type V1Route } from '../../api/v1/params/route-parameters.js';
import { type Rng, rngFor } from './rng.js';

export interface FuzzRequest {
  index: number;
  /** What it is, e.g. `v1-get`, `v2-stats-mutated`, `hostile:100000-bboxes`. */
  kind: string;
  method: string;
  /** Path and query string, already percent-encoded (may hold deliberately invalid escapes). */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The client hangs up this many milliseconds after sending (a deliberate disconnect). */
  disconnectAfterMs?: number;
}

type Draft = Omit<FuzzRequest, 'index'>;
type Pairs = [string, string][];

// ---------------------------------------------------------------------------------------------
// Parameter pools (the four-country sample: Andorra, the Faroe Islands, Equatorial Guinea, the
// Maldives; some values reach beyond it on purpose).

const ANDORRA = '1.412368,42.4276,1.787481,42.65717';
const BBOXES = [
  ANDORRA,
  '1.52,42.50,1.54,42.52',
  '1.5,42.5,1.6,42.6',
  '-7.5,61.8,-6.5,62.4',
  '73.4,4.1,73.6,4.3',
  '8.7,3.6,8.9,3.8',
  'a:1.5,42.5,1.55,42.55|b:1.6,42.5,1.65,42.55',
  'x:-7.0,62.0,-6.7,62.2|y:73.5,4.15,73.55,4.2|z:1.52,42.50,1.54,42.52',
  '-180,-90,180,90',
  '10,10,11,11',
];
/** Extraction streams every matching geometry: small areas. */
const EXTRACTION_BBOXES = ['1.52,42.50,1.54,42.52', '1.53,42.51,1.535,42.515', '-6.8,62.0,-6.75,62.02', '73.5,4.15,73.55,4.2', '8.75,3.7,8.8,3.75'];
const BCIRCLES = ['1.52,42.51,1000', 'c1:1.52,42.51,500|c2:-6.77,62.0,2000', '73.5,4.17,300', '1.6,42.55,20000', '0,0,1'];
const POLY_RING = '1.5,42.5,1.55,42.5,1.55,42.55,1.5,42.55,1.5,42.5';
const BPOLYS = [
  POLY_RING,
  // Boundaries by relation id (issue 22): multipolygons of the four-country store, an id it lacks, odd ids.
  'relation/3729343',
  'a:relation/3729316|b:relation/3731148',
  'relation/3067431',
  'relation/1',
  'x:relation/99999999999999999999',
  'relation/-5|relation/abc',
  `a:${POLY_RING}|b:-7.0,62.0,-6.8,62.0,-6.8,62.1,-7.0,62.0`,
  '1.42,42.43,1.78,42.43,1.70,42.55,1.78,42.65,1.42,42.65,1.42,42.43',
  JSON.stringify({
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        id: 'f1',
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
    ],
  }),
];
const V1_TIMES = [
  '2016-01-01',
  '2008-01-01/2017-01-01/P1Y',
  '2010-01-01/2016-01-01/P1M',
  '2014-01-01,2015-01-01,2016-01-01',
  '2015-01-01/2016-01-01/P1D',
  '2012-01-01/2017-01-01/P1D',
  '/',
  '//P1Y',
  '2016-01-01/',
  '2014',
  '2016-06-01T12:00:00Z',
  '2016-01-01/2016-02-01/PT1H',
  '2007-01-01/2017-01-01/P3M',
];
const KEYS = ['building', 'highway', 'amenity', 'landuse', 'name', 'natural', 'surface', 'shop', 'waterway'];
const VALUES = ['yes', 'residential', 'primary', 'track', 'house', 'school', 'water', 'forest', 'asphalt', '*'];
const FILTERS = [
  'building=*',
  'type:way and highway in (residential, track)',
  'not name=* or geometry:polygon',
  'id:(1..100000)',
  'changeset:5',
  'area:(10..)',
  'type:node',
  'highway=* and length:(100..)',
  'natural=water and geometry:polygon',
  '*',
  '',
];
const V1_TYPES = ['way', 'node,way', 'point,line', 'polygon', 'relation', 'other'];
const FORMATS = ['json', 'csv', 'geojson'];
const TIMEOUTS = ['1', '5', '0.5', '10', '30', '0.01'];
const CONTRIBUTION_TYPES = ['creation', 'deletion', 'tagChange', 'geometryChange', 'creation,deletion', 'tagChange,geometryChange'];

/** Values that stress a parser wherever they land. */
const HOSTILE_VALUES = [
  '',
  ',,,',
  ',',
  '|',
  ':',
  'a:b:c',
  '1e308',
  '-1e308',
  '1e-320',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '0x10',
  '9'.repeat(400),
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '{"type":',
  "'; DROP TABLE contributions; --",
  '" OR 1=1 --',
  '../../../../etc/passwd',
  'é€𝄞',
  '\u0000',
  '\t\n',
  'x'.repeat(5000),
  '1,2,3',
  '1.5,42.5,1.5,42.5',
  '2016-13-45',
  'P0D',
  'PT0S',
  '9999-12-31',
  '0000-01-01',
];
/** Already-encoded fragments: invalid UTF-8, lone surrogates, broken escapes. */
const RAW_ESCAPES = ['%FF', '%FE%FF', '%C3%28', '%E0%80%80', '%ED%A0%80', '%F4%90%80%80', '%', '%G1', '%2', '%00', '%C0%AF', '+', '&', '=', '%26%3D'];

const enc = encodeURIComponent;
const query = (pairs: Pairs) => pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');

function filterArb(version: 1 | 2) {
  return treeArb({ version, keys: fc.constantFrom(...KEYS), values: fc.constantFrom(...VALUES.filter((v) => v !== '*')), maxDepth: 3 }).map(printFilter);
}
const V1_FILTER_ARB = filterArb(1);
const V2_FILTER_ARB = filterArb(2);

function generatedFilter(rng: Rng, version: 1 | 2): string {
  return fc.sample(version === 1 ? V1_FILTER_ARB : V2_FILTER_ARB, { seed: rng.u32() | 0, numRuns: 1 })[0];
}

function v1Filter(rng: Rng): string {
  return rng.chance(0.6) ? rng.pick(FILTERS) : generatedFilter(rng, 1);
}

// ---------------------------------------------------------------------------------------------
// Bodies

const FORM = 'application/x-www-form-urlencoded';

function multipart(rng: Rng, pairs: Pairs): { body: Buffer; contentType: string } {
  const boundary = `----fuzz${rng.u32().toString(16)}`;
  const parts = pairs.map(([k, v]) => {
    const file = rng.chance(0.15) ? `; filename="${k}.txt"\r\nContent-Type: text/plain` : '';
    return `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, '_')}"${file}\r\n\r\n${v}\r\n`;
  });
  return { body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A v1 request of the given pairs, as GET, POST form or POST multipart. */
function v1Send(
  rng: Rng,
  kind: string,
  route: string,
  pairs: Pairs,
  how = rng.weighted([[5, 'get'] as const, [3, 'form'] as const, [2, 'multipart'] as const, [2, 'json'] as const]),
): Draft {
  const path = `/v1${route}`;
  if (how === 'json')
    return {
      kind: `${kind}-json`,
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify(v1Json(rng, pairs))),
    };
  if (how === 'get') return { kind: `${kind}-get`, method: 'GET', path: pairs.length ? `${path}?${query(pairs)}` : path, headers: {} };
  if (how === 'form') return { kind: `${kind}-form`, method: 'POST', path, headers: { 'content-type': FORM }, body: Buffer.from(query(pairs)) };
  const m = multipart(rng, pairs);
  return { kind: `${kind}-multipart`, method: 'POST', path, headers: { 'content-type': m.contentType }, body: m.body };
}

/**
 * The pairs as a v1 JSON body (issue 22): strings, or — for lists — arrays of strings or numbers, a
 * GeoJSON object for bpolys, and now and then a value of the wrong JSON type.
 */
function v1Json(rng: Rng, pairs: Pairs): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of pairs) {
    if (rng.chance(0.03)) out[k] = rng.pick([null, 1e308, true, {}, [[]], [null], -1]);
    else if (k === 'bpolys' && v.startsWith('{') && rng.chance(0.5)) out[k] = JSON.parse(v);
    else if ((k === 'bboxes' || k === 'bcircles') && rng.chance(0.4)) out[k] = v.split('|').map((b) => (rng.chance(0.5) ? b : b.split(',').map(Number)));
    else if (['time', 'groupByKeys', 'groupByValues', 'keys', 'values', 'types', 'properties'].includes(k) && rng.chance(0.4)) out[k] = v.split(',');
    else out[k] = v;
  }
  return out;
}

function json(kind: string, method: string, path: string, value: unknown): Draft {
  return { kind, method, path, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(value)) };
}

// ---------------------------------------------------------------------------------------------
// Well-formed requests

const V1_AGGREGATION = V1_ROUTES.filter((r) => r.geometryType === undefined && r.family !== 'metadata');
const V1_EXTRACTION = V1_ROUTES.filter((r) => r.geometryType !== undefined);

/** Pairs for a v1 route: a boundary, and each accepted parameter with some chance. */
function v1Pairs(rng: Rng, route: V1Route, extraction: boolean): Pairs {
  const pairs: Pairs = [];
  const boundary = rng.weighted([
    [10, 'bboxes'],
    [3, 'bcircles'],
    [3, 'bpolys'],
    [1, 'none'],
    [1, 'two'],
  ] as const);
  const small = extraction ? EXTRACTION_BBOXES : BBOXES;
  if (boundary === 'bboxes' || boundary === 'two') pairs.push(['bboxes', rng.pick(small)]);
  if (boundary === 'bcircles' || boundary === 'two') pairs.push(['bcircles', rng.pick(BCIRCLES.slice(0, extraction ? 3 : 5))]);
  if (boundary === 'bpolys') pairs.push(['bpolys', rng.pick(BPOLYS)]);
  const fullHistory = route.family !== 'elements' && route.family !== 'elementsExtraction';
  for (const name of acceptedParameters(route.path)) {
    if (name === 'bboxes' || name === 'bcircles' || name === 'bpolys') continue;
    if (!rng.chance(name === 'time' || name === 'filter' || name === 'groupByKey' || name === 'filter2' ? 0.85 : 0.3)) continue;
    pairs.push([name, v1Value(rng, name, extraction, fullHistory)]);
  }
  if (rng.chance(0.03)) pairs.push([rng.pick(['bbox', 'Bboxes', 'filters', 'grupByKey', 'x', 'time ']), rng.pick(HOSTILE_VALUES)]);
  // Most requests carry a small time limit, so that a heavy combination costs seconds, not minutes.
  if (!pairs.some(([k]) => k === 'timeout') && rng.chance(0.9)) pairs.push(['timeout', rng.pick(['1', '2', '5', '0.5'])]);
  return rng.chance(0.5) ? pairs : pairs.sort(() => rng.float() - 0.5);
}

function v1Value(rng: Rng, name: string, extraction: boolean, fullHistory: boolean): string {
  switch (name) {
    case 'time':
      if (extraction)
        return fullHistory ? rng.pick(['2015-01-01,2016-01-01', '2014-01-01/2016-01-01', '2016-01-01,2017-01-01']) : rng.pick(['2016-01-01', '2014-06-01']);
      return rng.pick(V1_TIMES);
    case 'filter':
    case 'filter2':
      return v1Filter(rng);
    case 'types':
    case 'types2':
      return rng.pick(V1_TYPES);
    case 'keys':
    case 'keys2':
      return rng.some(KEYS, 1, 2).join(',');
    case 'values':
    case 'values2':
      return rng.some(VALUES, 1, 2).join(',');
    case 'groupByKey':
      return rng.pick(KEYS);
    case 'groupByValues':
      return rng.some(VALUES, 0, 4).join(',');
    case 'groupByKeys':
      return rng.some(KEYS, 1, 4).join(',');
    case 'format':
      return rng.pick(FORMATS);
    case 'showMetadata':
      return rng.pick(['true', 'false', 'yes', 'no']);
    case 'timeout':
      return rng.pick(TIMEOUTS);
    case 'contributionType':
      return rng.pick(CONTRIBUTION_TYPES);
    case 'properties':
      return rng.pick(['tags', 'metadata', 'tags,metadata', 'unclipped', 'contributionTypes', 'tags,metadata,unclipped']);
    case 'clipGeometry':
      return rng.pick(['true', 'false']);
    default:
      return rng.pick(HOSTILE_VALUES);
  }
}

function v1Aggregation(rng: Rng): Draft {
  const route = rng.pick(V1_AGGREGATION);
  return v1Send(rng, 'v1-aggregation', route.path, v1Pairs(rng, route, false));
}

function v1Extraction(rng: Rng): Draft {
  const route = rng.pick(V1_EXTRACTION);
  const pairs = v1Pairs(rng, route, true);
  if (!pairs.some(([k]) => k === 'filter'))
    pairs.push(['filter', rng.pick(['building=*', 'amenity=*', 'type:node and shop=*', 'highway=primary', 'natural=*'])]);
  return v1Send(rng, 'v1-extraction', route.path, pairs);
}

const V2_AOIS: unknown[] = [
  [1.5, 42.5, 1.55, 42.55],
  [1.412368, 42.4276, 1.787481, 42.65717],
  [-7.5, 61.8, -6.5, 62.4],
  [73.4, 4.1, 73.6, 4.3],
  [-180, -90, 180, 90],
  [179, -10, 181, 10],
  {
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
  {
    type: 'MultiPolygon',
    coordinates: [
      [
        [
          [1.5, 42.5],
          [1.52, 42.5],
          [1.51, 42.52],
          [1.5, 42.5],
        ],
      ],
      [
        [
          [-7, 62],
          [-6.9, 62],
          [-6.95, 62.05],
          [-7, 62],
        ],
      ],
    ],
  },
  'POLYGON((1.5 42.5, 1.56 42.5, 1.53 42.55, 1.5 42.5))',
  '[1.5,42.5,1.55,42.55]',
];
const V2_TIMESTAMPS = ['latest', '2016-01-01T00:00:00Z', '2014-06-01', '2012-01-01T00:00:00+00:00', 'earliest'];
const INTERVALS = ['P1Y', 'P1M', 'P6M', 'P7D', 'P3M', 'PT12H', 'P1D'];

function v2Filter(rng: Rng): string {
  return rng.chance(0.5)
    ? rng.pick(['*', 'building=*', 'highway=*', 'highway ~ motor*', 'natural=water and geometry:polygon', 'type:node'])
    : generatedFilter(rng, 2);
}

function v2Series(rng: Rng): unknown {
  const start = rng.pick(['2008-01-01T00:00:00Z', '2012-01-01T00:00:00Z', '2015-06-01T00:00:00Z', 'earliest']);
  const end = rng.pick(['2017-01-01T00:00:00Z', 'latest', '2016-01-01T00:00:00Z']);
  const t: Record<string, string> = { start, end };
  if (rng.chance(0.8)) t[rng.chance(0.8) ? 'interval' : 'binSize'] = rng.pick(INTERVALS);
  return t;
}

const V2_STATS: [string, 'features' | 'bins' | 'currentness'][] = [];
for (const format of ['json', 'csv']) {
  for (const m of ['count', 'length', 'area']) {
    V2_STATS.push([`/stats/features/${m}.${format}`, 'features'], [`/stats/currentness/${m}.${format}`, 'currentness']);
  }
  V2_STATS.push([`/stats/contributors/count.${format}`, 'bins'], [`/stats/contributions/count.${format}`, 'bins']);
}
const V2_PREFIXES = ['/v2-rc', '/v2'];

function v2StatsBody(rng: Rng, kind: 'features' | 'bins' | 'currentness'): Record<string, unknown> {
  const body: Record<string, unknown> = { aoi: rng.pick(V2_AOIS), filter: v2Filter(rng) };
  body.time = kind === 'features' && rng.chance(0.4) ? rng.pick(V2_TIMESTAMPS) : v2Series(rng);
  // groupBy by tag (with or without values) and by type on every statistic (issue 22).
  if (rng.chance(0.3))
    body.groupBy = rng.weighted<unknown>([
      [5, { type: 'byTag', key: rng.pick(KEYS) }],
      [2, { type: 'byTag', key: rng.pick(KEYS), values: rng.some(VALUES, 0, 3) }],
      [2, { type: 'byType' }],
      [1, null],
      [1, { type: rng.pick(['byKey', 'bytype', '']), key: rng.pick(HOSTILE_VALUES) }],
    ]);
  if (kind !== 'bins' && rng.chance(0.4)) body.clip = rng.chance(0.5);
  return body;
}

function v2Stats(rng: Rng): Draft {
  const [route, kind] = rng.pick(V2_STATS);
  return json('v2-stats', 'POST', `${rng.pick(V2_PREFIXES)}${route}`, v2StatsBody(rng, kind));
}

const V2_EXTRACTION_KINDS = ['features', 'collections', 'collections_members', 'contributions'] as const;

function v2ExtractionFields(rng: Rng, kind: (typeof V2_EXTRACTION_KINDS)[number], get: boolean): Record<string, unknown> {
  const aoi = get
    ? rng.pick(['1.52,42.50,1.54,42.52', '-6.8,62.0,-6.75,62.02', '73.5,4.15,73.55,4.2'])
    : rng.pick(V2_AOIS.slice(0, 1).concat(V2_AOIS.slice(6)));
  const fields: Record<string, unknown> = { aoi, filter: rng.pick(['building=*', 'highway=*', 'type:relation', 'amenity=*', 'natural=water', '*']) };
  if (kind === 'contributions')
    fields.time = get ? '2015-01-01T00:00:00Z/2016-01-01T00:00:00Z' : { start: '2015-01-01T00:00:00Z', end: rng.pick(['2016-01-01T00:00:00Z', 'latest']) };
  else if (kind === 'features' && rng.chance(0.3))
    fields.time = get ? '2014-01-01T00:00:00Z/2016-01-01T00:00:00Z' : { start: '2014-01-01T00:00:00Z', end: '2016-01-01T00:00:00Z' };
  else fields.time = rng.pick(V2_TIMESTAMPS.slice(0, 4));
  if (kind.startsWith('collections') && rng.chance(0.4)) fields.member_filter = rng.chance(0.7) ? 'building=*' : null;
  if (kind !== 'contributions' && rng.chance(0.3)) fields.clip = rng.chance(0.5);
  return fields;
}

function v2Extraction(rng: Rng): Draft {
  const kind = rng.pick(V2_EXTRACTION_KINDS);
  const get = rng.chance(0.5);
  const path = `${rng.pick(V2_PREFIXES)}/extraction/${kind}.parquet`;
  const fields = v2ExtractionFields(rng, kind, get);
  if (!get) return json('v2-extraction-post', 'POST', path, fields);
  const pairs = Object.entries(fields)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => [k, String(v)] as [string, string]);
  return { kind: 'v2-extraction-get', method: 'GET', path: `${path}?${query(pairs)}`, headers: {} };
}

function v2Small(rng: Rng): Draft {
  const prefix = rng.pick(V2_PREFIXES);
  switch (rng.int(0, 5)) {
    case 0:
      return { kind: 'v2-health', method: rng.pick(['GET', 'HEAD']), path: `${prefix}/health`, headers: {} };
    case 1:
      return { kind: 'v2-metadata', method: 'GET', path: `${prefix}/metadata`, headers: {} };
    case 2: {
      const f = rng.chance(0.7) ? v2Filter(rng) : rng.pick(HOSTILE_VALUES);
      return { kind: 'v2-filter-get', method: 'GET', path: `${prefix}/filter/${rng.pick(['validation', 'validate'])}?filter=${enc(f)}`, headers: {} };
    }
    case 3:
      return json('v2-filter-post', 'POST', `${prefix}/filter/${rng.pick(['validation', 'validate'])}`, {
        filter: rng.chance(0.7) ? v2Filter(rng) : rng.pick(HOSTILE_VALUES),
      });
    case 4:
      return {
        kind: 'docs',
        method: 'GET',
        path: `${rng.pick(['/v1', ...V2_PREFIXES])}${rng.pick(['/openapi.json', '/docs', '/docs/', '/docs/json'])}`,
        headers: {},
      };
    default:
      return { kind: 'v1-metadata', method: rng.pick(['GET', 'POST', 'HEAD']), path: '/v1/metadata', headers: {} };
  }
}

// ---------------------------------------------------------------------------------------------
// Mutations

/** `text` with one random edit: a cut, an inserted value or escape, a duplicated or truncated stretch. */
function mutateText(rng: Rng, text: string, encoded: boolean): string {
  const at = rng.int(0, text.length);
  const to = Math.min(text.length, at + rng.int(0, 20));
  switch (rng.int(0, 6)) {
    case 0:
      return text.slice(0, at) + text.slice(to);
    case 1: {
      const v = rng.pick(HOSTILE_VALUES).slice(0, 200);
      return text.slice(0, at) + (encoded ? enc(v) : v) + text.slice(at);
    }
    case 2:
      return text.slice(0, at) + (encoded ? rng.pick(RAW_ESCAPES) : String.fromCharCode(rng.int(0, 0xffff) & 0xd7ff)) + text.slice(at);
    case 3:
      return text.slice(0, at);
    case 4:
      return text.slice(0, to) + text.slice(at, to).repeat(rng.int(2, 50)) + text.slice(to);
    case 5:
      return text.slice(0, at) + rng.pick(['1e308', 'NaN', ',', '|', '-', '(', ')', '"', '/', ':']) + text.slice(to);
    default:
      return text.replace(/[0-9]/, () => String(rng.int(0, 9)));
  }
}

/** A value inside a JSON document replaced by a hostile one. */
function mutateJson(rng: Rng, value: unknown, depth = 0): unknown {
  const hostile = () =>
    rng.pick<unknown>([
      null,
      1e308,
      -1e308,
      0,
      -1,
      '',
      [],
      {},
      true,
      'NaN',
      'x'.repeat(10000),
      [[[[[]]]]],
      [1e308, 1e308, -1e308, -1e308],
      { type: 'Polygon', coordinates: [] },
      { type: 'byTag', key: '' },
      { start: 'latest', end: 'earliest', interval: 'PT1S' },
      rng.pick(HOSTILE_VALUES),
    ]);
  if (depth > 4 || value === null || typeof value !== 'object' || rng.chance(0.3)) return hostile();
  if (Array.isArray(value)) {
    const out = [...value];
    if (out.length === 0 || rng.chance(0.2)) out.push(hostile());
    else {
      const i = rng.int(0, out.length - 1);
      out[i] = mutateJson(rng, out[i], depth + 1);
    }
    return out;
  }
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const keys = Object.keys(out);
  const roll = rng.float();
  if (keys.length === 0 || roll < 0.15) out[rng.pick(['extra', 'aoi', 'time', 'filter', 'groupBy', 'clip', '__proto__', 'constructor'])] = hostile();
  else if (roll < 0.3) delete out[rng.pick(keys)];
  else {
    const k = rng.pick(keys);
    out[k] = mutateJson(rng, out[k], depth + 1);
  }
  return out;
}

function mutated(rng: Rng): Draft {
  const base = rng.weighted<() => Draft>([
    [5, () => v1Aggregation(rng)],
    [2, () => v1Extraction(rng)],
    [3, () => v2Stats(rng)],
    [2, () => v2Extraction(rng)],
  ])();
  const kind = `${base.kind}-mutated`;
  const ct = base.headers['content-type'] ?? '';
  if (base.body === undefined) {
    const q = base.path.indexOf('?');
    const head = q < 0 ? base.path : base.path.slice(0, q);
    const tail = q < 0 ? '' : base.path.slice(q + 1);
    const edits = rng.int(1, 3);
    let t = tail;
    for (let i = 0; i < edits; i++) t = mutateText(rng, t, true);
    return { ...base, kind, path: `${head}?${t}`.replace(/[^\x21-\x7e]/g, (c) => enc(c)) };
  }
  if (ct === 'application/json' && rng.chance(0.7)) {
    return { ...base, kind, body: Buffer.from(JSON.stringify(mutateJson(rng, JSON.parse(base.body.toString())))) };
  }
  let t = base.body.toString('latin1');
  const edits = rng.int(1, 3);
  for (let i = 0; i < edits; i++) t = mutateText(rng, t, ct === FORM);
  return { ...base, kind, body: Buffer.from(t, ct === FORM ? 'latin1' : 'utf8') };
}

// ---------------------------------------------------------------------------------------------
// Odd methods, paths and headers

function oddities(rng: Rng): Draft {
  const route = rng.chance(0.5) ? `/v1${rng.pick(V1_ROUTES).path}` : `${rng.pick(V2_PREFIXES)}${rng.pick(V2_STATS)[0]}`;
  switch (rng.int(0, 7)) {
    case 0:
      return { kind: 'odd-method', method: rng.pick(['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE']), path: route, headers: {} };
    case 1:
      return {
        kind: 'odd-path',
        method: 'GET',
        path: rng.pick(['/v1/', '/v1//elements/count', '/v1/elements/count/', '/v1/../v1/metadata', '/v3/x', '/', '/v2-rc', '/v1/elements/count/groupBy']),
        headers: {},
      };
    case 2:
      return { kind: 'odd-path', method: 'GET', path: `${route}${rng.pick(RAW_ESCAPES)}`, headers: {} };
    case 3:
      return { kind: 'odd-path', method: 'GET', path: `/v1/${'a/'.repeat(rng.int(10, 2000))}`, headers: {} };
    case 4:
      return {
        kind: 'odd-content-type',
        method: 'POST',
        path: route,
        headers: {
          'content-type': rng.pick([
            'text/plain',
            'application/xml',
            'multipart/mixed',
            'application/json; charset=latin1',
            'application/x-www-form-urlencoded; charset=utf-16',
            '*/*',
            'bogus',
          ]),
        },
        body: Buffer.from(rng.pick(['bboxes=1,2,3,4', '{"aoi":[1,2,3,4]}', '\u0000\u0001', ''])),
      };
    case 5:
      return {
        kind: 'odd-encoding',
        method: 'POST',
        path: route,
        headers: { 'content-type': rng.pick(['application/json', FORM]), 'content-encoding': rng.pick(['gzip', 'deflate', 'br', 'bogus']) },
        body: Buffer.from('not compressed at all'),
      };
    case 6:
      return {
        kind: 'odd-headers',
        method: 'GET',
        path: '/v1/elements/count?bboxes=1.5,42.5,1.55,42.55&time=2016-01-01',
        headers: {
          'accept-encoding': rng.pick(['gzip', 'br', 'deflate', 'identity;q=0', '*;q=0', 'x'.repeat(3000)]),
          accept: rng.pick(['text/csv', 'application/xml', '*/*', '']),
          origin: 'https://example.org',
        },
      };
    default:
      return {
        kind: 'odd-headers',
        method: 'OPTIONS',
        path: route,
        headers: { origin: 'https://example.org', 'access-control-request-method': rng.pick(['GET', 'POST', 'DELETE']) },
      };
  }
}

// ---------------------------------------------------------------------------------------------
// The catalogue of known hostile inputs

const many = (n: number, item: (i: number) => string, sep: string) => Array.from({ length: n }, (_, i) => item(i)).join(sep);
const v1Form = (kind: string, route: string, pairs: Pairs): Draft => ({
  kind: `hostile:${kind}`,
  method: 'POST',
  path: `/v1${route}`,
  headers: { 'content-type': FORM },
  body: Buffer.from(query(pairs)),
});
const v1Get = (kind: string, route: string, rawQuery: string): Draft => ({
  kind: `hostile:${kind}`,
  method: 'GET',
  path: `/v1${route}?${rawQuery}`,
  headers: {},
});
const v2Post = (kind: string, route: string, body: string | Buffer, contentType = 'application/json'): Draft => ({
  kind: `hostile:${kind}`,
  method: 'POST',
  path: `/v2-rc${route}`,
  headers: { 'content-type': contentType },
  body: Buffer.isBuffer(body) ? body : Buffer.from(body),
});
const T = 'time=2016-01-01';
const B = 'bboxes=1.5,42.5,1.55,42.55';
const polygonRing = (n: number, cx = 1.55, cy = 42.55, r = 0.05) =>
  Array.from({ length: n + 1 }, (_, i) => {
    const a = ((i % n) / n) * 2 * Math.PI;
    return [Number((cx + r * Math.cos(a)).toFixed(7)), Number((cy + r * Math.sin(a)).toFixed(7))];
  });
const STATS_OK = { aoi: [1.5, 42.5, 1.55, 42.55], filter: 'building=*', time: '2016-01-01T00:00:00Z' };

/** Built once, on first use (some are megabytes); each entry's request is built once too. */
let catalogue: (() => Draft)[] | undefined;

function hostileCatalogue(): (() => Draft)[] {
  if (catalogue) return catalogue;
  const truncatedMultipart = (() => {
    const b = '----fuzzBoundary';
    const full = `--${b}\r\nContent-Disposition: form-data; name="bboxes"\r\n\r\n1.5,42.5,1.55,42.55\r\n--${b}\r\nContent-Disposition: form-data; name="time"\r\n\r\n2016-`;
    return { b, full };
  })();
  catalogue = [
    () => v1Get('empty-bboxes', '/elements/count', `bboxes=,,,&${T}`),
    () => v1Get('empty-bboxes-list', '/elements/area/groupBy/boundary', `bboxes=|||&${T}`),
    () => v1Get('bboxes-1e308', '/elements/count', `bboxes=1e308,1e308,1e308,1e308&${T}`),
    () => v1Get('bboxes-mixed-1e308', '/elements/length', `bboxes=-1e308,-1e308,1e308,1e308&${T}`),
    () => v1Get('bboxes-nan', '/elements/count/density', `bboxes=NaN,NaN,NaN,NaN&${T}`),
    () => v1Get('bboxes-infinity', '/users/count', `bboxes=-Infinity,-90,Infinity,90&time=2015-01-01,2016-01-01`),
    () => v1Get('bcircles-1e308', '/elements/count', `bcircles=1e308,42,1e308&${T}`),
    () => v1Get('bcircles-huge-radius', '/elements/area', `bcircles=1.5,42.5,1e9&${T}`),
    () => v1Get('bcircles-nan', '/elements/count', `bcircles=NaN,NaN,NaN&${T}`),
    () => v1Get('bpolys-1e308', '/elements/area', `bpolys=1e308,1e308,-1e308,1e308,0,-1e308,1e308,1e308&${T}`),
    () => v1Get('empty-time', '/elements/count', `${B}&time=,,,`),
    () => v1Get('empty-time-users', '/users/count', `${B}&time=,,,`),
    () => v1Get('empty-time-contributions', '/contributions/count', `${B}&time=,,,`),
    () => v1Get('time-slashes', '/elements/count', `${B}&time=///`),
    () => v1Get('time-1e308', '/elements/count', `${B}&time=1e308`),
    () => v1Get('timeout-1e308', '/elements/count', `${B}&${T}&timeout=1e308`),
    () => v1Get('timeout-negative', '/elements/count', `${B}&${T}&timeout=-1`),
    () => v1Get('timeout-nan', '/elements/count', `${B}&${T}&timeout=NaN`),
    () =>
      v1Form('100000-bboxes', '/elements/count/groupBy/boundary', [
        ['bboxes', many(100_000, (i) => `b${i}:1.5,42.5,1.5${i % 10},42.55`, '|')],
        ['time', '2016-01-01'],
      ]),
    () =>
      v1Form('100000-identical-bboxes', '/elements/count', [
        ['bboxes', many(100_000, () => '1.5,42.5,1.55,42.55', '|')],
        ['time', '2016-01-01'],
      ]),
    () =>
      v1Form('1000000-bboxes', '/elements/count', [
        ['bboxes', many(1_000_000, () => '1,2,3,4', '|')],
        ['time', '2016-01-01'],
      ]),
    () =>
      v1Form('10000-bcircles', '/elements/count/groupBy/boundary', [
        ['bcircles', many(10_000, (i) => `c${i}:1.5${i % 10},42.5,${100 + (i % 900)}`, '|')],
        ['time', '2016-01-01'],
      ]),
    () =>
      v1Form('200001-timestamps', '/elements/count', [
        ['bboxes', '1.5,42.5,1.55,42.55'],
        ['time', many(200_001, (i) => new Date(Date.UTC(2008, 0, 1) + i * 60_000).toISOString(), ',')],
      ]),
    () => v1Get('hourly-ten-years', '/elements/count', `${B}&time=2007-01-01/2017-01-01/PT1H`),
    () => v1Get('minutely-series', '/users/count', `${B}&time=2007-01-01/2017-01-01/PT1M`),
    () => v1Get('63-groupByKeys', '/elements/count/groupBy/key', `${B}&${T}&groupByKeys=${many(63, (i) => `k${i}`, ',')}`),
    () => v1Get('70-groupByKeys', '/elements/count/groupBy/key', `${B}&${T}&groupByKeys=${many(70, (i) => `k${i}`, ',')}`),
    () =>
      v1Form('5000-groupByKeys', '/elements/count/groupBy/key', [
        ['bboxes', '1.5,42.5,1.55,42.55'],
        ['time', '2016-01-01'],
        ['groupByKeys', many(5000, (i) => `k${i}`, ',')],
      ]),
    () =>
      v1Form('10000-groupByValues', '/elements/count/groupBy/tag', [
        ['bboxes', '1.5,42.5,1.55,42.55'],
        ['time', '2016-01-01'],
        ['groupByKey', 'building'],
        ['groupByValues', many(10_000, (i) => `v${i}`, ',')],
      ]),
    () => v1Get('deep-filter', '/elements/count', `${B}&${T}&filter=${enc(`${'('.repeat(5000)}building=yes${')'.repeat(5000)}`)}`),
    () =>
      v1Form('deeper-filter', '/elements/count', [
        ['bboxes', '1.5,42.5,1.55,42.55'],
        ['time', '2016-01-01'],
        ['filter', `${'not '.repeat(50_000)}building=yes`],
      ]),
    () =>
      v1Form('long-filter', '/elements/count', [
        ['bboxes', '1.5,42.5,1.55,42.55'],
        ['time', '2016-01-01'],
        ['filter', many(20_000, (i) => `k${i}=v${i}`, ' or ')],
      ]),
    () =>
      v1Form('long-id-list', '/elements/count', [
        ['bboxes', '1.5,42.5,1.55,42.55'],
        ['time', '2016-01-01'],
        ['filter', `id:(${many(100_000, (i) => String(i), ',')})`],
      ]),
    () => v1Get('non-utf8-filter', '/elements/count', `${B}&${T}&filter=%FF%FE`),
    () => v1Get('non-utf8-bboxes', '/elements/count', `bboxes=%C3%28&${T}`),
    () => v1Get('lone-surrogate', '/elements/count', `${B}&${T}&filter=building%3D%ED%A0%80`),
    () => v1Get('broken-escape', '/elements/count', `${B}&${T}&filter=%G1%`),
    () => ({ kind: 'hostile:non-utf8-path', method: 'GET', path: `/v1/elements/count%FF?${B}&${T}`, headers: {} }),
    () => ({
      kind: 'hostile:non-utf8-form',
      method: 'POST',
      path: '/v1/elements/count',
      headers: { 'content-type': FORM },
      body: Buffer.from([...Buffer.from(`${B}&${T}&filter=`), 0xff, 0xfe, 0xc3, 0x28]),
    }),
    () => v1Get('huge-query-string', '/elements/count', `${B}&${T}&filter=${'a'.repeat(1_000_000)}`),
    () =>
      v1Get(
        'many-params',
        '/elements/count',
        many(20_000, (i) => `p${i}=${i}`, '&'),
      ),
    () =>
      v1Form(
        'many-form-params',
        '/elements/count',
        Array.from({ length: 100_000 }, () => ['bboxes', '1.5,42.5,1.55,42.55'] as [string, string]),
      ),
    () =>
      v1Form('bpolys-100000-vertices', '/elements/area', [
        ['bpolys', polygonRing(100_000).flat().join(',')],
        ['time', '2016-01-01'],
      ]),
    () =>
      v1Form('bpolys-geojson-deep', '/elements/count', [
        ['bpolys', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
        ['time', '2016-01-01'],
      ]),
    () => ({
      kind: 'hostile:multipart-truncated',
      method: 'POST',
      path: '/v1/elements/count',
      headers: { 'content-type': `multipart/form-data; boundary=${truncatedMultipart.b}` },
      body: Buffer.from(truncatedMultipart.full),
    }),
    () => ({
      kind: 'hostile:multipart-no-boundary',
      method: 'POST',
      path: '/v1/elements/count',
      headers: { 'content-type': 'multipart/form-data' },
      body: Buffer.from(`--x\r\nContent-Disposition: form-data; name="bboxes"\r\n\r\n1,2,3,4\r\n--x--\r\n`),
    }),
    () => ({
      kind: 'hostile:multipart-wrong-boundary',
      method: 'POST',
      path: '/v1/elements/count',
      headers: { 'content-type': 'multipart/form-data; boundary=abc' },
      body: Buffer.from('garbage without any boundary'),
    }),
    () => ({
      kind: 'hostile:multipart-empty',
      method: 'POST',
      path: '/v1/users/count',
      headers: { 'content-type': 'multipart/form-data; boundary=abc' },
      body: Buffer.alloc(0),
    }),
    () => ({
      kind: 'hostile:multipart-20000-parts',
      method: 'POST',
      path: '/v1/elements/count',
      headers: { 'content-type': 'multipart/form-data; boundary=zz' },
      body: Buffer.from(`${many(20_000, (i) => `--zz\r\nContent-Disposition: form-data; name="p${i}"\r\n\r\n${i}\r\n`, '')}--zz--\r\n`),
    }),
    () => ({
      kind: 'hostile:multipart-no-name',
      method: 'POST',
      path: '/v1/elements/count',
      headers: { 'content-type': 'multipart/form-data; boundary=zz' },
      body: Buffer.from('--zz\r\nContent-Disposition: form-data\r\n\r\n1\r\n--zz--\r\n'),
    }),
    () => ({
      kind: 'hostile:json-to-v1',
      method: 'POST',
      path: '/v1/elements/count',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"bboxes":"1,2,3,4"}'),
    }),
    () => ({
      kind: 'hostile:form-truncated-escape',
      method: 'POST',
      path: '/v1/elements/count',
      headers: { 'content-type': FORM },
      body: Buffer.from(`${B}&${T}&filter=%E2%82`),
    }),
    () => v2Post('bad-json', '/stats/features/count.json', '{"aoi":'),
    () => v2Post('json-nan', '/stats/features/count.json', '{"aoi":[NaN,1,2,3],"filter":"*","time":"latest"}'),
    () => v2Post('json-deep', '/stats/features/count.json', `{"aoi":${'['.repeat(100_000)}${']'.repeat(100_000)},"filter":"*","time":"latest"}`),
    () => v2Post('json-1e308', '/stats/features/area.json', JSON.stringify({ ...STATS_OK, aoi: [-1e308, -1e308, 1e308, 1e308] })),
    () => v2Post('json-1e400', '/stats/features/length.json', '{"aoi":[1e400,1,2,3],"filter":"*","time":"latest"}'),
    () => v2Post('json-not-object', '/stats/features/count.json', '[1,2,3]'),
    () => v2Post('json-empty', '/stats/features/count.json', ''),
    () =>
      v2Post(
        'json-proto',
        '/stats/features/count.json',
        '{"__proto__":{"x":1},"constructor":{"prototype":{}},"aoi":[1.5,42.5,1.55,42.55],"filter":"*","time":"latest"}',
      ),
    () =>
      v2Post(
        'aoi-100000-vertices',
        '/stats/features/area.json',
        JSON.stringify({ ...STATS_OK, aoi: { type: 'Polygon', coordinates: [polygonRing(100_000)] } }),
      ),
    () =>
      v2Post(
        'aoi-10000-polygons',
        '/stats/features/count.json',
        JSON.stringify({
          ...STATS_OK,
          aoi: {
            type: 'MultiPolygon',
            coordinates: Array.from({ length: 10_000 }, (_, i) => [polygonRing(4, 1.5 + (i % 100) * 0.003, 42.5 + Math.floor(i / 100) * 0.003, 0.001)]),
          },
        }),
      ),
    () =>
      v2Post(
        'series-1001-points',
        '/stats/features/count.json',
        JSON.stringify({ ...STATS_OK, time: { start: '2010-01-01T00:00:00Z', end: '2016-01-01T00:00:00Z', interval: 'P1D' } }),
      ),
    () =>
      v2Post('series-seconds', '/stats/contributors/count.json', JSON.stringify({ ...STATS_OK, time: { start: 'earliest', end: 'latest', interval: 'PT1S' } })),
    () =>
      v2Post('interval-zero', '/stats/contributions/count.json', JSON.stringify({ ...STATS_OK, time: { start: 'earliest', end: 'latest', interval: 'P0D' } })),
    () => v2Post('deep-filter', '/stats/features/count.json', JSON.stringify({ ...STATS_OK, filter: `${'('.repeat(5000)}building=yes${')'.repeat(5000)}` })),
    () => v2Post('long-filter', '/stats/features/count.json', JSON.stringify({ ...STATS_OK, filter: many(20_000, (i) => `k${i}=v${i}`, ' or ') })),
    () => v2Post('long-groupBy-key', '/stats/features/count.json', JSON.stringify({ ...STATS_OK, groupBy: { type: 'byTag', key: 'k'.repeat(100_000) } })),
    () => v2Post('filter-validation-deep', '/filter/validation', JSON.stringify({ filter: `${'not '.repeat(50_000)}a=b` })),
    () => v2Post('form-to-v2', '/stats/features/count.json', 'aoi=1,2,3,4', FORM),
    () => v2Post('multipart-to-v2', '/stats/features/count.json', '--x\r\n\r\n--x--', 'multipart/form-data; boundary=x'),
    () => v2Post('invalid-utf8-json', '/stats/features/count.json', Buffer.from([0x7b, 0x22, 0x61, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])),
    () => v2Post('extraction-bad-json', '/extraction/features.parquet', '{"aoi":[1,2'),
    () => ({ kind: 'hostile:v2-get-empty-aoi', method: 'GET', path: '/v2-rc/extraction/features.parquet?aoi=,,,&filter=*&time=latest', headers: {} }),
    () => ({
      kind: 'hostile:v2-get-aoi-1e308',
      method: 'GET',
      path: '/v2-rc/extraction/features.parquet?aoi=1e308,1e308,1e308,1e308&filter=*&time=latest',
      headers: {},
    }),
    () => ({
      kind: 'hostile:v2-get-time-1e308',
      method: 'GET',
      path: '/v2-rc/extraction/contributions.parquet?aoi=1.5,42.5,1.55,42.55&filter=*&time=1e308/1e309',
      headers: {},
    }),
    () => ({ kind: 'hostile:v2-get-non-utf8', method: 'GET', path: '/v2-rc/filter/validation?filter=%FF%FE', headers: {} }),
    // Issue 22's inputs: a JSON body of 100,000 bboxes, 1,000 relations, 1,001 v2 groupBy values, deep JSON.
    () =>
      json('hostile:v1-json-100000-bboxes', 'POST', '/v1/elements/count/groupBy/boundary', {
        bboxes: many(100_000, (i) => `b${i}:1.5,42.5,1.51,42.51`, '|').split('|'),
        time: '2016-01-01',
      }),
    () => v1Get('1000-relations', '/elements/area/groupBy/boundary', `bpolys=${many(1000, (i) => `r${i}:relation/${3_700_000 + i}`, '|')}&time=2016-01-01`),
    () =>
      json('hostile:v2-1001-groupBy-values', 'POST', '/v2-rc/stats/features/count.json', {
        ...STATS_OK,
        groupBy: { type: 'byTag', key: 'building', values: many(1001, (i) => `v${i}`, ',').split(',') },
      }),
    () => ({
      kind: 'hostile:v1-json-deep',
      method: 'POST',
      path: '/v1/elements/count',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(`${'['.repeat(100_000)}${']'.repeat(100_000)}`),
    }),
    () => ({ kind: 'hostile:v2-huge-query', method: 'GET', path: `/v2-rc/filter/validation?filter=${'a'.repeat(200_000)}`, headers: {} }),
    () => ({
      kind: 'hostile:gzip-garbage',
      method: 'POST',
      path: '/v2-rc/stats/features/count.json',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: Buffer.from('not gzip'),
    }),
  ].map((build) => {
    let built: Draft | undefined;
    return () => (built ??= build());
  });
  return catalogue;
}

/** How many entries the catalogue of hostile inputs has (the first requests of every run). */
export function hostileCount(): number {
  return hostileCatalogue().length;
}

/** Catalogue entries drawn again at random (not the few that send tens of megabytes). */
const REDRAWN_MAX_BYTES = 8 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Requests whose client hangs up

const HEAVY: ((rng: Rng) => Draft)[] = [
  (rng) =>
    v1Send(
      rng,
      'disconnect-v1-aggregation',
      rng.pick(['/elements/area/groupBy/boundary/groupBy/tag', '/users/count/groupBy/tag', '/contributions/count/density/groupBy/boundary']),
      [
        ['bpolys', `a:1.42,42.43,1.78,42.43,1.70,42.55,1.78,42.65,1.42,42.65,1.42,42.43|b:${POLY_RING}`],
        ['time', rng.pick(['2007-01-01/2017-01-01/P1D', '2008-01-01/2017-01-01/P1W'])],
        ['groupByKey', 'building'],
      ],
    ),
  (rng) =>
    v1Send(rng, 'disconnect-v1-extraction', rng.pick(['/elementsFullHistory/geometry', '/contributions/geometry', '/elements/geometry']), [
      ['bboxes', ANDORRA],
      ['time', '2008-01-01,2017-01-01'],
      ['properties', 'tags,metadata'],
    ]),
  (rng) =>
    json('disconnect-v2-stats', 'POST', '/v2-rc/stats/features/length.json', {
      aoi: rng.pick(V2_AOIS.slice(1, 5)),
      filter: '*',
      time: { start: '2008-01-01T00:00:00Z', end: '2017-01-01T00:00:00Z', interval: 'P7D' },
      groupBy: { type: 'byTag', key: 'highway' },
      clip: true,
    }),
  (rng) =>
    json('disconnect-v2-extraction', 'POST', `/v2-rc/extraction/${rng.pick(['features', 'contributions'])}.parquet`, {
      aoi: [1.412368, 42.4276, 1.787481, 42.65717],
      filter: '*',
      time: { start: '2008-01-01T00:00:00Z', end: '2017-01-01T00:00:00Z' },
    }),
];

function disconnecting(rng: Rng): Draft {
  return { ...rng.pick(HEAVY)(rng), disconnectAfterMs: rng.int(5, 1500) };
}

// ---------------------------------------------------------------------------------------------

/** Request `index` of the run with `seed`. */
export function fuzzRequest(seed: number, index: number): FuzzRequest {
  const cat = hostileCatalogue();
  if (index < cat.length) return { index, ...cat[index]() };
  const rng = rngFor(seed, index);
  const draft = rng.weighted<() => Draft>([
    [26, () => v1Aggregation(rng)],
    [8, () => v1Extraction(rng)],
    [14, () => v2Stats(rng)],
    [6, () => v2Extraction(rng)],
    [6, () => v2Small(rng)],
    [26, () => mutated(rng)],
    [5, () => oddities(rng)],
    [1, () => hostileRedrawn(rng)],
    [0.6, () => disconnecting(rng)],
  ])();
  return { index, ...draft };
}

function hostileRedrawn(rng: Rng): Draft {
  for (;;) {
    const d = rng.pick(hostileCatalogue())();
    if ((d.body?.length ?? 0) + d.path.length <= REDRAWN_MAX_BYTES) return d;
  }
}
