/**
 * The requests the HTTP benchmarks send, each with the raw DuckDB statement computing the same
 * numbers unclipped (bbox tests only) on the store's `states` table: bench/v1.bench.ts,
 * bench/v2.bench.ts and bench/ab.bench.ts (before/after) all read them from here.
 */

const BBOX = [1.4, 42.42, 1.8, 42.66] as const;
const BORDER: [number, number][] = [
  [1.42, 42.43],
  [1.6, 42.43],
  [1.79, 42.48],
  [1.79, 42.6],
  [1.65, 42.66],
  [1.42, 42.62],
  [1.42, 42.43],
];
const BPOLYS = JSON.stringify({
  type: 'FeatureCollection',
  features: [{ type: 'Feature', properties: { id: 'border' }, geometry: { type: 'Polygon', coordinates: [BORDER] } }],
});

function series(from: string, to: string, months: number): number[] {
  const out: number[] = [];
  const start = new Date(from);
  for (let k = 0; ; k++) {
    const d = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + k * months, 1));
    if (d.getTime() > Date.parse(to)) break;
    out.push(d.getTime() / 1000);
  }
  return out;
}
export const MONTHLY = series('2008-01-01', '2017-01-01', 1);
const YEARLY = series('2008-01-01', '2017-01-01', 12);
const tsValues = (ts: number[]) => ts.map((t) => `(${t})`).join(',');
const bboxSql = `xmax >= ${BBOX[0]} AND xmin <= ${BBOX[2]} AND ymax >= ${BBOX[1]} AND ymin <= ${BBOX[3]}`;
const borderBbox = [
  Math.min(...BORDER.map((p) => p[0])),
  Math.min(...BORDER.map((p) => p[1])),
  Math.max(...BORDER.map((p) => p[0])),
  Math.max(...BORDER.map((p) => p[1])),
];
const borderSql = `xmax >= ${borderBbox[0]} AND xmin <= ${borderBbox[2]} AND ymax >= ${borderBbox[1]} AND ymin <= ${borderBbox[3]}`;

export interface V1Case {
  id: string;
  what: string;
  path: string;
  params: Record<string, string>;
  /** The raw DuckDB statement computing the same numbers, where there is one. */
  sql?: string;
  /** Sent as a POST body of this kind rather than a GET query. */
  post?: 'form' | 'json';
  /** The case this one is timed against (issue 22: each new route within 1.5× of it). */
  against?: string;
}

export const V1_CASES: V1Case[] = [
  {
    id: 'a',
    what: 'elements/count, monthly 2008–2017, bbox, building=*',
    path: '/v1/elements/count',
    params: { bboxes: BBOX.join(','), time: '2008-01-01/2017-01-01/P1M', filter: 'building=*' },
    sql: `SELECT ts.t, count(s.id) FROM (VALUES ${tsValues(MONTHLY)}) ts(t) LEFT JOIN states s ON s.valid_from <= ts.t AND ts.t < s.valid_to AND NOT s.deleted AND map_contains(s.tags, 'building') AND ${bboxSql.replace(/(x|y)(min|max)/g, 's.$1$2')} GROUP BY ts.t ORDER BY ts.t`,
  },
  {
    id: 'b',
    what: 'elements/area, yearly, bpolys border polygon, building=*',
    path: '/v1/elements/area',
    params: { bpolys: BPOLYS, time: '2008-01-01/2017-01-01/P1Y', filter: 'building=*' },
    sql: `SELECT ts.t, sum(s.area) FROM (VALUES ${tsValues(YEARLY)}) ts(t) LEFT JOIN states s ON s.valid_from <= ts.t AND ts.t < s.valid_to AND NOT s.deleted AND map_contains(s.tags, 'building') AND ${borderSql.replace(/(x|y)(min|max)/g, 's.$1$2')} GROUP BY ts.t ORDER BY ts.t`,
  },
  {
    id: 'c',
    what: 'users/count, monthly 2008–2017, bbox',
    path: '/v1/users/count',
    params: { bboxes: BBOX.join(','), time: '2008-01-01/2017-01-01/P1M' },
    sql: `SELECT ts.t, count(DISTINCT s.user_id) FROM (SELECT t, lead(t) OVER (ORDER BY t) AS t2 FROM (VALUES ${tsValues(MONTHLY)}) v(t)) ts LEFT JOIN states s ON s.valid_from >= ts.t AND s.valid_from < ts.t2 AND NOT s.collapsed AND ${bboxSql.replace(/(x|y)(min|max)/g, 's.$1$2')} WHERE ts.t2 IS NOT NULL GROUP BY ts.t ORDER BY ts.t`,
  },
  {
    id: 'd',
    what: 'contributions/count, monthly 2008–2017, bbox',
    path: '/v1/contributions/count',
    params: { bboxes: BBOX.join(','), time: '2008-01-01/2017-01-01/P1M' },
    sql: `SELECT ts.t, count(s.id) FROM (SELECT t, lead(t) OVER (ORDER BY t) AS t2 FROM (VALUES ${tsValues(MONTHLY)}) v(t)) ts LEFT JOIN states s ON s.valid_from >= ts.t AND s.valid_from < ts.t2 AND NOT s.collapsed AND ${bboxSql.replace(/(x|y)(min|max)/g, 's.$1$2')} WHERE ts.t2 IS NOT NULL GROUP BY ts.t ORDER BY ts.t`,
  },
  {
    id: 'e',
    what: 'elements/length/groupBy/tag highway, yearly, bbox',
    path: '/v1/elements/length/groupBy/tag',
    params: { bboxes: BBOX.join(','), time: '2008-01-01/2017-01-01/P1Y', groupByKey: 'highway', filter: 'type:way' },
    sql: `SELECT ts.t, s.tags['highway'] AS v, sum(s.length) FROM (VALUES ${tsValues(YEARLY)}) ts(t) JOIN states s ON s.valid_from <= ts.t AND ts.t < s.valid_to AND NOT s.deleted AND s.type = 1 AND ${bboxSql.replace(/(x|y)(min|max)/g, 's.$1$2')} GROUP BY ALL ORDER BY ALL`,
  },
];

const contributionIntervals = `(SELECT t, lead(t) OVER (ORDER BY t) AS t2 FROM (VALUES ${tsValues(MONTHLY)}) v(t)) ts`;
const contributionJoin = `LEFT JOIN states s ON s.valid_from >= ts.t AND s.valid_from < ts.t2 AND NOT s.collapsed AND ${bboxSql.replace(/(x|y)(min|max)/g, 's.$1$2')} WHERE ts.t2 IS NOT NULL`;

/**
 * Contributions by kind (issue 22): maphist's extension routes, each beside (d), the ungrouped
 * contributions/count with the same area and time. The raw queries count states per group
 * unclipped (the kind from the store's flags, not the classification against the area).
 */
export const V1_KIND_CASES: V1Case[] = [
  {
    id: 'f',
    against: 'd',
    what: 'contributions/count/groupBy/contributionType, monthly 2008–2017, bbox',
    path: '/v1/contributions/count/groupBy/contributionType',
    params: { bboxes: BBOX.join(','), time: '2008-01-01/2017-01-01/P1M' },
    sql: `SELECT ts.t, count(s.id) FILTER (s.is_creation), count(s.id) FILTER (s.is_deletion), count(s.id) FILTER (s.tag_change), count(s.id) FILTER (s.geometry_change) FROM ${contributionIntervals} ${contributionJoin} GROUP BY ts.t ORDER BY ts.t`,
  },
  {
    id: 'g',
    against: 'd',
    what: 'contributions/count/groupBy/type, monthly 2008–2017, bbox',
    path: '/v1/contributions/count/groupBy/type',
    params: { bboxes: BBOX.join(','), time: '2008-01-01/2017-01-01/P1M' },
    sql: `SELECT ts.t, s.type, count(s.id) FROM ${contributionIntervals} ${contributionJoin} GROUP BY ALL ORDER BY ALL`,
  },
  {
    id: 'h',
    against: 'd',
    what: 'contributions/count/groupBy/tag highway, monthly 2008–2017, bbox',
    path: '/v1/contributions/count/groupBy/tag',
    params: { bboxes: BBOX.join(','), time: '2008-01-01/2017-01-01/P1M', groupByKey: 'highway' },
    sql: `SELECT ts.t, s.tags['highway'] AS v, count(s.id) FROM ${contributionIntervals} ${contributionJoin} GROUP BY ALL ORDER BY ALL`,
  },
  {
    id: 'dl',
    what: 'contributions/latest/count, monthly 2008–2017, bbox',
    path: '/v1/contributions/latest/count',
    params: { bboxes: BBOX.join(','), time: '2008-01-01/2017-01-01/P1M' },
  },
  {
    id: 'i',
    against: 'dl',
    what: 'contributions/latest/count/groupBy/contributionType, monthly 2008–2017, bbox',
    path: '/v1/contributions/latest/count/groupBy/contributionType',
    params: { bboxes: BBOX.join(','), time: '2008-01-01/2017-01-01/P1M' },
    sql: `SELECT ts.t, count(s.id) FILTER (s.is_creation), count(s.id) FILTER (s.is_deletion), count(s.id) FILTER (s.tag_change), count(s.id) FILTER (s.geometry_change) FROM ${contributionIntervals} ${contributionJoin} GROUP BY ts.t ORDER BY ts.t`,
  },
];

/** Andorra la Vella, the parish (boundary relation, admin_level 7). */
export const VELLA = 2804753;
const HIGHWAY_WAYS = 'type:way and highway=*';

/**
 * Issue 22's other new inputs and routes, each against the ungrouped or usual form of the same
 * question: users per element beside users/count (one interval, the question the route answers:
 * who shaped each feature over a period), a boundary by relation id beside its polygon pasted as
 * bpolys (`vellaPolygon`, filled in by the benchmark from the store), and (d) as a JSON and a form body.
 */
export function v1NewCases(vellaPolygon: string): V1Case[] {
  const period = { bboxes: BBOX.join(','), time: '2008-01-01/2017-01-01', filter: HIGHWAY_WAYS };
  const area = { time: '2010-01-01/2016-01-01/P1Y', filter: 'building=*' };
  const d = V1_CASES.find((c) => c.id === 'd')!;
  return [
    { id: 'j', what: 'users/count, 2008–2017 (one interval), bbox, highway ways', path: '/v1/users/count', params: period },
    {
      id: 'k',
      what: 'users/count/groupBy/element, the same',
      path: '/v1/users/count/groupBy/element',
      params: period,
      against: 'j',
    },
    {
      id: 'l',
      what: 'elements/area, yearly 2010–2016, building=*, bpolys the polygon of relation 2804753 pasted',
      path: '/v1/elements/area',
      params: { ...area, bpolys: vellaPolygon },
    },
    {
      id: 'm',
      what: 'the same with bpolys=relation/2804753',
      path: '/v1/elements/area',
      params: { ...area, bpolys: `relation/${VELLA}` },
      against: 'l',
    },
    { id: 'n', what: '(d) as a JSON body (POST)', path: d.path, params: d.params, sql: d.sql, post: 'json', against: 'd' },
    { id: 'o', what: '(d) as a form body (POST)', path: d.path, params: d.params, sql: d.sql, post: 'form', against: 'd' },
  ];
}

/** All of Andorra (the country's bbox). */
const ANDORRA = [1.4, 42.42, 1.8, 42.66] as const;
const V2_START = '2008-01-01T00:00:00Z';
const V2_END = '2018-01-01T00:00:00Z';

function monthly(): number[] {
  const out: number[] = [];
  for (let k = 0; k <= 120; k++) out.push(Date.UTC(2008, k, 1) / 1000);
  return out;
}
const MONTHS = monthly();
/** SQL: how many of the monthly timestamps lie before the epoch seconds `x`. */
function monthsBefore(x: string): string {
  const t = `make_timestamp((${x}) * 1000000)`;
  return `(CASE WHEN ${t} <= TIMESTAMP '2008-01-01' THEN 0 ELSE least(${MONTHS.length}, datediff('month', TIMESTAMP '2008-01-01', date_trunc('month', ${t})) + CASE WHEN ${t} > date_trunc('month', ${t}) THEN 1 ELSE 0 END) END)`;
}
const andorraSql = `s.xmax >= ${ANDORRA[0]} AND s.xmin <= ${ANDORRA[2]} AND s.ymax >= ${ANDORRA[1]} AND s.ymin <= ${ANDORRA[3]}`;

export interface V2Case {
  id: string;
  what: string;
  path: string;
  body: unknown;
  sql: string;
}

export const V2_CASES: V2Case[] = [
  {
    id: 'a',
    what: 'stats/features/count, monthly 2008–2018 (121 timestamps), Andorra, building=*',
    path: '/v2-rc/stats/features/count.json',
    body: { aoi: [...ANDORRA], filter: 'building=*', time: { start: V2_START, end: V2_END, interval: 'P1M' } },
    // Per state: #timestamps before valid_from and before valid_to by month arithmetic; counts by a running sum.
    sql: `WITH r AS (
        SELECT ${monthsBefore('s.valid_from')} AS f, ${monthsBefore('least(s.valid_to, 4102444800)')} AS e FROM states s
        WHERE NOT s.deleted AND s.geometry_valid AND s.geometry_type BETWEEN 1 AND 6 AND map_contains(s.tags, 'building') AND ${andorraSql}
          AND s.valid_from <= ${MONTHS[MONTHS.length - 1]} AND s.valid_to > ${MONTHS[0]}),
      d AS (SELECT f AS i, 1 AS c FROM r WHERE f < e UNION ALL SELECT e, -1 FROM r WHERE f < e)
      SELECT i, sum(sum(c)) OVER (ORDER BY i) FROM d GROUP BY i ORDER BY i`,
  },
  {
    id: 'b',
    what: 'stats/contributors/count, monthly bins 2008–2018 (120 bins), Andorra, no filter',
    path: '/v2-rc/stats/contributors/count.json',
    body: { aoi: [...ANDORRA], filter: '*', time: { start: V2_START, end: V2_END, binSize: 'P1M' } },
    // Calendar-month bins by date arithmetic (no join with the bin list).
    sql: `SELECT datediff('month', TIMESTAMP '2008-01-01', make_timestamp(s.valid_from * 1000000)) AS k, count(DISTINCT s.user_id) FROM states s
      WHERE s.valid_from >= ${MONTHS[0]} AND s.valid_from < ${MONTHS[MONTHS.length - 1]} AND NOT s.collapsed AND s.geometry_type <> 0 AND ${andorraSql} GROUP BY k ORDER BY k`,
  },
];

/** Extraction requests over HTTP (GET): the features streamed to the client as GeoJSON (v1) or GeoParquet (v2). */
export interface ExtractionCase {
  id: string;
  what: string;
  /** Path and query. */
  url: string;
}

export const EXTRACTION_CASES: ExtractionCase[] = [
  {
    id: 'v1 extraction',
    what: 'elements/geometry, buildings of Andorra at 2017-01-01, tags',
    url: `/v1/elements/geometry?${new URLSearchParams({ bboxes: BBOX.join(','), time: '2017-01-01', filter: 'building=*', properties: 'tags' })}`,
  },
  {
    id: 'v2 extraction',
    what: 'extraction/features.parquet, buildings of Andorra at 2017-01-01',
    url: `/v2-rc/extraction/features.parquet?${new URLSearchParams({ aoi: ANDORRA.join(','), time: '2017-01-01T00:00:00Z', filter: 'building=*' })}`,
  },
];
