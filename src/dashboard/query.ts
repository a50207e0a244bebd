/**
 * The dashboard's query model, without the DOM (the browser client imports it; node tests check
 * it): a query is a v1 aggregation endpoint and its v1 parameters, exactly as the API takes them.
 * The page URL (the permalink), the API URL and the `curl` command are three spellings of it.
 * The answers are turned into one table (rows: timestamps; columns: groups) that the chart and
 * the table both show.
 */

/** The measures the form offers: the v1 route below `/v1` without density or grouping. */
export const MEASURES = [
  'elements/count',
  'elements/length',
  'elements/area',
  'elements/perimeter',
  'users/count',
  'contributions/count',
  'contributions/latest/count',
] as const;
export type Measure = (typeof MEASURES)[number];

export const GROUPINGS = ['', 'tag', 'type', 'boundary', 'key', 'contributionType'] as const;
export type Grouping = (typeof GROUPINGS)[number];

/**
 * The v1 routes the dashboard offers (a node test checks each against the server's route table):
 * every measure with or without density, grouped by nothing, tag, type, boundary, key or (the
 * contributions) contribution type where v1 has the route.
 */
export const ENDPOINTS: readonly string[] = MEASURES.flatMap((m) =>
  [false, true].flatMap((density) => GROUPINGS.map((g) => endpointOf(m, density, g))).filter((e) => isOffered(e)),
);

function isOffered(endpoint: string): boolean {
  const [family] = endpoint.split('/');
  const grouping = /\/groupBy\/(\w+)$/.exec(endpoint)?.[1] ?? '';
  const density = endpoint.includes('/density');
  if (family === 'elements' || family === 'users') return grouping !== 'contributionType' && !(density && grouping === 'key');
  // contributions/count: boundary, and maphist's tag, type and contributionType (issue 22);
  // contributions/latest/count: the same but boundary.
  const kinds = ['', 'tag', 'type', 'contributionType'];
  if (endpoint.startsWith('contributions/latest/')) return kinds.includes(grouping);
  return kinds.includes(grouping) || grouping === 'boundary';
}

export function endpointOf(measure: Measure, density: boolean, grouping: Grouping): string {
  return `${measure}${density ? '/density' : ''}${grouping ? `/groupBy/${grouping}` : ''}`;
}

/** The parts of an endpoint (undefined when the dashboard does not offer it). */
export function partsOf(endpoint: string): { measure: Measure; density: boolean; grouping: Grouping } | undefined {
  if (!ENDPOINTS.includes(endpoint)) return undefined;
  const grouping = (/\/groupBy\/(\w+)$/.exec(endpoint)?.[1] ?? '') as Grouping;
  const density = endpoint.includes('/density');
  const measure = endpoint.replace(/\/groupBy\/\w+$/, '').replace(/\/density$/, '') as Measure;
  return { measure, density, grouping };
}

/** The v1 parameters the form sets, in the order the permalink writes them. */
export const PARAMETERS = ['bboxes', 'bpolys', 'bcircles', 'time', 'filter', 'groupByKey', 'groupByValues', 'groupByKeys', 'contributionType'] as const;

/** Which parameters an endpoint takes beyond area, time and filter (as the v1 route table says). */
export function extraParameters(endpoint: string): string[] {
  const out: string[] = [];
  if (endpoint.includes('/groupBy/tag')) out.push('groupByKey', 'groupByValues');
  if (endpoint.includes('/groupBy/key')) out.push('groupByKeys');
  if ((endpoint.startsWith('contributions/') && endpoint.includes('/count')) || endpoint.startsWith('users/')) out.push('contributionType');
  return out;
}

export interface Query {
  endpoint: string;
  /** v1 parameter name → value; empty values are left out of every URL. */
  params: Record<string, string>;
}

/** The parameters that apply to the query's endpoint, non-empty, in PARAMETERS order. */
export function effectiveParams(q: Query): [string, string][] {
  const extra = extraParameters(q.endpoint);
  const out: [string, string][] = [];
  for (const name of PARAMETERS) {
    const v = q.params[name]?.trim();
    if (!v) continue;
    if ((name === 'groupByKey' || name === 'groupByValues' || name === 'groupByKeys' || name === 'contributionType') && !extra.includes(name)) continue;
    out.push([name, v]);
  }
  return out;
}

/** `endpoint=…&bboxes=…&time=…` (the page's query string, the permalink). */
export function permalinkSearch(q: Query): string {
  const s = new URLSearchParams([['endpoint', q.endpoint], ...effectiveParams(q)]);
  return s.toString();
}

/** The query of a page URL's query string; undefined without an endpoint the dashboard offers. */
export function queryOfSearch(search: string): Query | undefined {
  const s = new URLSearchParams(search);
  const endpoint = (s.get('endpoint') ?? '').replace(/^\/+/, '').replace(/^v1\//, '');
  if (!partsOf(endpoint)) return undefined;
  const params: Record<string, string> = {};
  for (const name of PARAMETERS) {
    const v = s.get(name);
    if (v !== null) params[name] = v;
  }
  return { endpoint, params };
}

/** The API URL of the query (path and query string; `format` added when given). */
export function apiPath(q: Query, format?: 'csv' | 'json'): string {
  const s = new URLSearchParams(effectiveParams(q));
  if (format) s.set('format', format);
  const qs = s.toString();
  return `/v1/${q.endpoint}${qs ? `?${qs}` : ''}`;
}

/** A shell command that asks the same question (POST form, so long polygons fit). */
export function curlCommand(origin: string, q: Query): string {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const parts = [`curl -sS ${quote(`${origin}/v1/${q.endpoint}`)}`];
  for (const [k, v] of effectiveParams(q)) parts.push(`--data-urlencode ${quote(`${k}=${v}`)}`);
  return parts.join(' \\\n  ');
}

/** A time parameter as the form shows it: one start/end/interval range, or a list. */
export type TimeForm = { mode: 'range'; start: string; end: string; interval: string } | { mode: 'list'; list: string };

export function timeFormOf(time: string): TimeForm {
  const parts = time.trim().split('/');
  if (!time.includes(',') && parts.length === 3) return { mode: 'range', start: parts[0]!, end: parts[1]!, interval: parts[2]! };
  if (!time.includes(',') && parts.length === 2) return { mode: 'range', start: parts[0]!, end: parts[1]!, interval: '' };
  return { mode: 'list', list: time.trim() };
}

export function timeOfForm(t: TimeForm): string {
  if (t.mode === 'list') return t.list.trim();
  const start = t.start.trim();
  const end = t.end.trim();
  if (!start && !end) return '';
  return [start, end, t.interval.trim()].filter((x, i) => x !== '' || i < 2).join('/');
}

/** The interval presets of the form. */
export const INTERVALS: readonly { label: string; value: string }[] = [
  { label: 'yearly', value: 'P1Y' },
  { label: 'quarterly', value: 'P3M' },
  { label: 'monthly', value: 'P1M' },
  { label: 'weekly', value: 'P1W' },
  { label: 'daily', value: 'P1D' },
];

/** One table of an answer: a row per timestamp, a column per group. */
export interface ResultTable {
  /** `timestamp` (elements) or `fromTimestamp`/`toTimestamp` (users, contributions). */
  interval: boolean;
  /** Row keys: the timestamp, or the interval's start. */
  timestamps: string[];
  /** The interval ends (interval answers only). */
  ends: string[];
  /** One column per group (`value` without grouping). */
  columns: { name: string; values: (number | null)[] }[];
}

interface Point {
  timestamp?: string;
  fromTimestamp?: string;
  toTimestamp?: string;
  value: number | null;
}

/** The table of a v1 aggregation answer (`result` or `groupByResult`). */
export function tableOf(answer: unknown): ResultTable {
  const a = answer as { result?: Point[]; groupByResult?: { groupByObject: unknown; result: Point[] }[] };
  const groups: { name: string; points: Point[] }[] = a.groupByResult
    ? a.groupByResult.map((g) => ({ name: groupName(g.groupByObject), points: g.result }))
    : [{ name: 'value', points: a.result ?? [] }];
  const first = groups[0]?.points ?? [];
  const interval = first.length > 0 && first[0]!.fromTimestamp !== undefined;
  const keyOf = (p: Point) => (interval ? p.fromTimestamp! : p.timestamp!);
  const timestamps: string[] = [];
  const ends: string[] = [];
  const seen = new Map<string, number>();
  for (const g of groups)
    for (const p of g.points) {
      const k = keyOf(p);
      if (seen.has(k)) continue;
      seen.set(k, timestamps.length);
      timestamps.push(k);
      ends.push(p.toTimestamp ?? '');
    }
  const columns = groups.map((g) => {
    const values: (number | null)[] = timestamps.map(() => null);
    for (const p of g.points) values[seen.get(keyOf(p))!] = typeof p.value === 'number' ? p.value : null;
    return { name: g.name, values };
  });
  return { interval, timestamps, ends, columns };
}

function groupName(o: unknown): string {
  return Array.isArray(o) ? o.map(String).join(' · ') : String(o);
}

/** Seconds since the epoch of an ISO timestamp (the chart's x axis). */
export function epochSeconds(iso: string): number {
  return Date.parse(/Z$|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`) / 1000;
}

/**
 * Where a filter error is (1-based line and column), read from the validation route's message
 * (`line 1, column 24: …`); undefined when the message names no position.
 */
export function filterErrorPosition(message: string): { line: number; column: number } | undefined {
  const m = /line (\d+), column (\d+)/.exec(message);
  return m ? { line: Number(m[1]), column: Number(m[2]) } : undefined;
}

/** The 0-based offset in `text` of a 1-based line and column. */
export function offsetOf(text: string, pos: { line: number; column: number }): number {
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < pos.line - 1 && i < lines.length; i++) offset += lines[i]!.length + 1;
  return Math.min(text.length, offset + pos.column - 1);
}

/** The bbox `[minLon, minLat, maxLon, maxLat]` of a GeoJSON geometry's coordinates. */
export function bboxOfCoordinates(coordinates: unknown): [number, number, number, number] | undefined {
  let box: [number, number, number, number] | undefined;
  const walk = (c: unknown): void => {
    if (!Array.isArray(c)) return;
    if (typeof c[0] === 'number' && typeof c[1] === 'number') {
      const [x, y] = c as [number, number];
      box = box ? [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x), Math.max(box[3], y)] : [x, y, x, y];
      return;
    }
    for (const d of c) walk(d);
  };
  walk(coordinates);
  return box;
}

/** `lon,lat,lon,lat` with at most 7 decimals (what a drawn rectangle adds to `bboxes`). */
export function bboxText(b: readonly number[]): string {
  return b.map((x) => String(Number(x.toFixed(7)))).join(',');
}

/**
 * The boxes of a `bboxes` parameter (`[id:]minLon,minLat,maxLon,maxLat` separated by `|`), for the
 * map; the entries it cannot read are skipped (the API says what is wrong with them).
 */
export function parseBboxes(text: string): { id?: string; box: [number, number, number, number] }[] {
  const out: { id?: string; box: [number, number, number, number] }[] = [];
  for (const part of text.split('|')) {
    const m = /^\s*(?:([^:|]+):)?\s*([^:|]+)$/.exec(part);
    if (!m) continue;
    const n = m[2]!.split(',').map((x) => Number(x.trim()));
    if (n.length === 4 && n.every((x) => Number.isFinite(x))) out.push({ id: m[1]?.trim(), box: n as [number, number, number, number] });
  }
  return out;
}
