/**
 * The requests the HTTP benchmarks send, each with the raw DuckDB statement computing the same
 * numbers on the store's `states` table, as lean as we can write it by hand (issue 21: the raw
 * queries before session 15 counted other things: every state, never-tagged nodes included, for
 * contributions; the unclipped bbox rows for (b); they now compute the answer, what each leaves
 * out said at it): bench/v1.bench.ts, bench/v2.bench.ts and bench/ab.bench.ts (before/after) all
 * read them from here.
 */
import { areaOf } from '../src/geometry/measures.js';
import { clipToPolygon } from '../src/geometry/clip.js';
import { decodeWkb } from '../src/geometry/wkb.js';

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
type Box = readonly [number, number, number, number];
/** SQL: the row's bbox meets `box` (a prefix names the columns: `ext_` for the element extent). */
const meetsSql = (box: Box, prefix = '') =>
  `${prefix}xmax >= ${box[0]} AND ${prefix}xmin <= ${box[2]} AND ${prefix}ymax >= ${box[1]} AND ${prefix}ymin <= ${box[3]}`;
const borderBbox: Box = [
  Math.min(...BORDER.map((p) => p[0])),
  Math.min(...BORDER.map((p) => p[1])),
  Math.max(...BORDER.map((p) => p[0])),
  Math.max(...BORDER.map((p) => p[1])),
];
const borderSql = meetsSql(borderBbox);

/**
 * The convex BORDER polygon's half-planes (counter-clockwise: a point is inside when it is left of
 * every edge), SQL: the bbox of the row of `alias` lies inside the polygon (its four corners do).
 * With the bbox test, the raw query of (b) splits the rows as the engine does: these are summed
 * with their stored measure, the others (`boundary`) are clipped by the geometry kernel.
 */
function insideBorderSql(alias: string): string {
  const parts: string[] = [];
  for (let i = 0; i + 1 < BORDER.length; i++) {
    const [[x0, y0], [x1, y1]] = [BORDER[i], BORDER[i + 1]];
    for (const [x, y] of [
      ['xmin', 'ymin'],
      ['xmin', 'ymax'],
      ['xmax', 'ymin'],
      ['xmax', 'ymax'],
    ])
      parts.push(`(${x1 - x0}) * (${alias}${y} - ${y0}) - (${y1 - y0}) * (${alias}${x} - ${x0}) >= 0`);
  }
  return `(${parts.join(' AND ')})`;
}

const T0 = MONTHLY[0];
const T1 = MONTHLY[MONTHLY.length - 1];
/** SQL: the index of the month of 2008–2016 holding `valid_from` (the interval [t_k, t_k+1) of the monthly series). */
const MONTH_OF_VALID_FROM = `datediff('month', TIMESTAMP '2008-01-01', make_timestamp(valid_from * 1000000))`;

/**
 * The raw form of the v1 contributions over BBOX, monthly 2008–2016, with no filter, as the engine
 * computes them from the SQL facts (src/engines/duckdb/sql/aggregation.ts, `contributionCandidatesSql`):
 * `s0` the kept states before t_last of the v1 scope (no never-tagged node) whose element's extent
 * meets BBOX, with i: "in" (not deleted and its bbox meets BBOX); `e` the elements with a state in;
 * `s` their states. A contribution is a kept (not collapsed) state of [t_0, t_last) that is in or
 * whose previous kept state was (pi: the kept state with `edits - 1`, by a self join; until schema
 * version 6 a window over the element's history, 54 against 43 ms for (d)). `c`: those states with
 * their month `k` and `cols`. Until session 31, `e` was a scan of its own by the bbox and `s` a
 * semi join of the whole table with it (25.3 against 14.9 ms for (d) on the same machine); the
 * engine reads once too since then. What the engine adds: the states on the box's edge are clipped
 * to it rather than taken by their bbox, and states without geometry are placed by their history's
 * bbox (src/query/empty-placement.ts) — the answers differ by 0.3 % (bench/RESULTS.md).
 * `latest`: only each element's last contribution (contributions/latest). `box`: the area, BBOX
 * unless said (the element extent of the row, every state of its element, is tested against it too).
 */
function contributionFactsSql(cols: string, latest = false, box: Box = BBOX): string {
  return `WITH s0 AS MATERIALIZED (
  SELECT type, id, version, minor_version, valid_from, edits, ${cols}${cols ? ', ' : ''}NOT deleted AND coalesce(${meetsSql(box)}, FALSE) AS i
  FROM states WHERE NOT collapsed AND valid_from < ${T1} AND (type <> 0 OR ever_tagged) AND ${meetsSql(box, 'ext_')}),
e AS (SELECT type, id FROM s0 WHERE i GROUP BY type, id),
s AS MATERIALIZED (SELECT * FROM s0 SEMI JOIN e USING (type, id)),
w AS (SELECT s.*, coalesce(p.i, FALSE) AS pi FROM s LEFT JOIN s p ON p.type = s.type AND p.id = s.id AND p.edits = s.edits - 1),
c AS (
  SELECT *, ${MONTH_OF_VALID_FROM} AS k FROM w WHERE valid_from >= ${T0} AND (i OR pi)${
    latest ? '\n  QUALIFY row_number() OVER (PARTITION BY type, id ORDER BY valid_from DESC, version DESC, minor_version DESC) = 1' : ''
  })`;
}

const BY_CONTRIBUTION_TYPE = `SELECT k, count(*) FILTER (i AND NOT pi) AS creation, count(*) FILTER (pi AND NOT i) AS deletion,
  count(*) FILTER (i AND pi AND tag_change) AS "tagChange", count(*) FILTER (i AND pi AND geometry_change) AS "geometryChange" FROM c GROUP BY k ORDER BY k`;

export interface V1Case {
  id: string;
  what: string;
  path: string;
  params: Record<string, string>;
  /** The raw DuckDB statement computing the same numbers, where there is one. */
  sql?: string;
  /**
   * `sql` then gives the rows inside the area summed per timestamp (t, v) and lists those on its
   * edge (r, valid_from, valid_to): each of those is read by rowid, clipped to `polygon`, measured
   * by the geometry kernel and added at the timestamps it is alive at (`runRaw`): the raw work of
   * the same answer.
   */
  boundary?: { polygon: [number, number][]; timestamps: number[]; measure: 'area' };
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
    sql: `SELECT ts.t, count(s.id) FROM (VALUES ${tsValues(MONTHLY)}) ts(t) LEFT JOIN states s ON s.valid_from <= ts.t AND ts.t < s.valid_to AND NOT s.deleted AND map_contains(s.tags, 'building') AND ${meetsSql(BBOX, 's.')} GROUP BY ts.t ORDER BY ts.t`,
  },
  {
    id: 'b',
    what: 'elements/area, yearly, bpolys border polygon, building=*',
    path: '/v1/elements/area',
    params: { bpolys: BPOLYS, time: '2008-01-01/2017-01-01/P1Y', filter: 'building=*' },
    // One scan: the rows inside the polygon summed per timestamp (t, v); those on its edge listed (r, valid_from, valid_to).
    sql: `WITH s AS MATERIALIZED (
  SELECT rowid AS r, valid_from, valid_to, area, ${insideBorderSql('')} AS inside FROM states
  WHERE NOT deleted AND valid_from <= ${YEARLY[YEARLY.length - 1]} AND valid_to > ${YEARLY[0]} AND map_contains(tags, 'building') AND geometry_type <> 0 AND ${borderSql})
SELECT ts.t, sum(s.area) AS v, NULL::BIGINT AS r, NULL::BIGINT AS valid_from, NULL::BIGINT AS valid_to
FROM (VALUES ${tsValues(YEARLY)}) ts(t) LEFT JOIN s ON s.valid_from <= ts.t AND ts.t < s.valid_to AND s.inside GROUP BY ts.t
UNION ALL
SELECT NULL, NULL, r, valid_from, valid_to FROM s WHERE NOT inside
ORDER BY t`,
    boundary: {
      polygon: BORDER,
      timestamps: YEARLY,
      measure: 'area',
    },
  },
  {
    id: 'c',
    what: 'users/count, monthly 2008–2017, bbox',
    path: '/v1/users/count',
    params: { bboxes: BBOX.join(','), time: '2008-01-01/2017-01-01/P1M' },
    sql: `${contributionFactsSql('user_id')} SELECT k, count(DISTINCT user_id) FROM c GROUP BY k ORDER BY k`,
  },
  {
    id: 'd',
    what: 'contributions/count, monthly 2008–2017, bbox',
    path: '/v1/contributions/count',
    params: { bboxes: BBOX.join(','), time: '2008-01-01/2017-01-01/P1M' },
    sql: `${contributionFactsSql('')} SELECT k, count(*) FROM c GROUP BY k ORDER BY k`,
  },
  {
    id: 'e',
    what: 'elements/length/groupBy/tag highway, yearly, bbox',
    path: '/v1/elements/length/groupBy/tag',
    params: { bboxes: BBOX.join(','), time: '2008-01-01/2017-01-01/P1Y', groupByKey: 'highway', filter: 'type:way' },
    sql: `SELECT ts.t, s.tags['highway'] AS v, sum(s.length) FROM (VALUES ${tsValues(YEARLY)}) ts(t) JOIN states s ON s.valid_from <= ts.t AND ts.t < s.valid_to AND NOT s.deleted AND s.type = 1 AND ${meetsSql(BBOX, 's.')} GROUP BY ALL ORDER BY ALL`,
  },
];

/**
 * Contributions by kind (issue 22): maphist's extension routes, each beside (d), the ungrouped
 * contributions/count with the same area and time. The raw queries classify by the SQL facts
 * (`contributionFactsSql`): the kind from "in" now and before, the change flags from the store.
 */
export const V1_KIND_CASES: V1Case[] = [
  {
    id: 'f',
    against: 'd',
    what: 'contributions/count/groupBy/contributionType, monthly 2008–2017, bbox',
    path: '/v1/contributions/count/groupBy/contributionType',
    params: { bboxes: BBOX.join(','), time: '2008-01-01/2017-01-01/P1M' },
    sql: `${contributionFactsSql('tag_change, geometry_change')} ${BY_CONTRIBUTION_TYPE}`,
  },
  {
    id: 'g',
    against: 'd',
    what: 'contributions/count/groupBy/type, monthly 2008–2017, bbox',
    path: '/v1/contributions/count/groupBy/type',
    params: { bboxes: BBOX.join(','), time: '2008-01-01/2017-01-01/P1M' },
    sql: `${contributionFactsSql('')} SELECT k, type, count(*) FROM c GROUP BY ALL ORDER BY ALL`,
  },
  {
    id: 'h',
    against: 'd',
    what: 'contributions/count/groupBy/tag highway, monthly 2008–2017, bbox',
    path: '/v1/contributions/count/groupBy/tag',
    params: { bboxes: BBOX.join(','), time: '2008-01-01/2017-01-01/P1M', groupByKey: 'highway' },
    // A creation is labelled by its tags after, a deletion by its tags before, a change by both (src/query/groups.ts labelsOfCodes).
    sql: `${contributionFactsSql("tags['highway'] AS a, tags_before['highway'] AS bf")} SELECT k, label, count(*) FROM (
      SELECT k, unnest(CASE WHEN len(l) = 0 THEN ['remainder'] ELSE l END) AS label
      FROM (SELECT k, list_distinct(CASE WHEN i AND NOT pi THEN [a] WHEN pi AND NOT i THEN [bf] ELSE [a, bf] END) AS l FROM c)) GROUP BY ALL ORDER BY ALL`,
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
    sql: `${contributionFactsSql('tag_change, geometry_change', true)} ${BY_CONTRIBUTION_TYPE}`,
  },
];

/** A box of the Atlantic with no contribution in the four-country history (only the extents of a few huge elements meet it). */
const EMPTY_BOX = [-30, 30, -29.9, 30.1] as const;

/**
 * (c) and (d) over EMPTY_BOX: every value 0. What a request costs whatever its rows: the HTTP round
 * trip, parsing, planning the statement and its pipelines, the answer. Their raw queries are (c)'s
 * and (d)'s over the same box. Not part of the default runs (`bench:ab --only 'v1 (c0),v1 (d0)'`).
 */
export const V1_FLOOR_CASES: V1Case[] = [
  {
    id: 'c0',
    what: 'users/count, monthly 2008–2017, a box with no contribution',
    path: '/v1/users/count',
    params: { bboxes: EMPTY_BOX.join(','), time: '2008-01-01/2017-01-01/P1M' },
    sql: `${contributionFactsSql('user_id', false, EMPTY_BOX)} SELECT k, count(DISTINCT user_id) FROM c GROUP BY k ORDER BY k`,
  },
  {
    id: 'd0',
    what: 'contributions/count, monthly 2008–2017, a box with no contribution',
    path: '/v1/contributions/count',
    params: { bboxes: EMPTY_BOX.join(','), time: '2008-01-01/2017-01-01/P1M' },
    sql: `${contributionFactsSql('', false, EMPTY_BOX)} SELECT k, count(*) FROM c GROUP BY k ORDER BY k`,
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
const andorraSql = meetsSql(ANDORRA, 's.');

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
    // Calendar-month bins by date arithmetic (no join with the bin list); v2's scope (ever-tagged
    // elements; of the relations, multipolygons and boundaries, now or before). Leaves out the exact
    // intersection test of the states on the box's edge (bbox test only): bench/RESULTS.md says by how much.
    sql: `SELECT datediff('month', TIMESTAMP '2008-01-01', make_timestamp(s.valid_from * 1000000)) AS k, count(DISTINCT s.user_id) FROM states s
      WHERE s.valid_from >= ${MONTHS[0]} AND s.valid_from < ${MONTHS[MONTHS.length - 1]} AND NOT s.collapsed AND s.geometry_type <> 0 AND ${andorraSql}
        AND s.ever_tagged AND (s.type <> 2 OR s.tags['type'] IN ('multipolygon', 'boundary') OR s.tags_before['type'] IN ('multipolygon', 'boundary'))
      GROUP BY k ORDER BY k`,
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

/**
 * The raw work of a case: its `sql`, and with `boundary` the rows on the area's edge clipped and
 * measured by the geometry kernel and added to the series of `sql` (rows (t, value) in timestamp
 * order). Returns the values per timestamp (for checking by hand that they are the answer's).
 */
export async function runRaw(c: V1Case, query: (sql: string) => Promise<Record<string, unknown>[]>): Promise<number[]> {
  const rows = await query(c.sql!);
  if (c.boundary === undefined) return rows.map((r) => Number(Object.values(r)[1] ?? 0));
  const values = rows.filter((r) => r.t !== null).map((r) => Number(r.v ?? 0));
  const boundary = rows.filter((r) => r.r !== null);
  const { polygon, timestamps } = c.boundary;
  const area = { type: 'Polygon' as const, coordinates: [polygon] };
  const measureOf = new Map<string, number>();
  if (boundary.length === 0) return values;
  // The geometries by rowid, as the engine reads them: a scan of the geometry column under the
  // polygon test reads the WKB of every row group the bbox keeps (src/engines/duckdb/sql/aggregation.ts, rowidRangeSql).
  const rowids = boundary.map((r) => Number(r.r));
  const wkbOf = new Map<number, Uint8Array>();
  const geometries = await query(
    `SELECT rowid AS r, geometry FROM states WHERE rowid BETWEEN ${Math.min(...rowids)} AND ${Math.max(...rowids)} AND rowid IN (${rowids.join(', ')})`,
  );
  for (const g of geometries) wkbOf.set(Number(g.r), g.geometry as Uint8Array);
  for (const r of boundary) {
    const wkb = wkbOf.get(Number(r.r))!;
    // Each distinct geometry clipped once (the engine does the same: geometriesByRowidSql).
    const key = Buffer.from(wkb.buffer, wkb.byteOffset, wkb.byteLength).toString('latin1');
    let m = measureOf.get(key);
    if (m === undefined) {
      const clipped = clipToPolygon(decodeWkb(wkb), area);
      m = clipped === null ? 0 : areaOf(clipped);
      measureOf.set(key, m);
    }
    const value = m;
    const from = Number(r.valid_from);
    const to = Number(r.valid_to);
    timestamps.forEach((t, i) => {
      if (from <= t && t < to) values[i] += value;
    });
  }
  return values;
}
