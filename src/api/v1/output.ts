/**
 * Turns the engine's unrounded series into the v1 answers (docs/reference/v1-reference-behaviour.md §3.2, §3.3, §3.6, §4.1–§4.3): density
 * per km², ratios, rounding, then JSON, CSV or GeoJSON text.
 */
import type { GroupKey, GroupedSeries, RatioSeries } from '../../query/model.js';
import { API_VERSION, ATTRIBUTION } from '../attribution.js';
import { csvNumber, writeCsv } from '../format/csv.js';
import { round2, round6 } from '../format/decimal-format.js';
import { JsonText, RecordsLayout, prettyJsonPaced, type JsonValue } from '../format/pretty-json.js';
import { slicer, type Pause } from '../../core/yielding.js';
import { hasGeoJsonOutput, isIntervalRoute, type AggregationRoute } from './route-table.js';

export type OutputFormat = 'json' | 'csv' | 'geojson';

/** A boundary object as the output needs it. */
export interface OutputBoundary {
  id: string;
  /** How the id prints in `groupByObject` (numeric GeoJSON ids are numbers). */
  idValue?: string | number;
  /** GeoJSON geometry echoed in `format=geojson` output. */
  geometry: JsonValue;
}

export interface OutputMetadata {
  executionTime: number;
  description: string;
  /** Present for GET requests only. */
  requestUrl?: string;
}

export interface OutputRequest {
  route: AggregationRoute;
  format: OutputFormat;
  /** Epoch seconds of the request's timestamps. */
  timestamps: number[];
  boundaries: OutputBoundary[];
  metadata?: OutputMetadata;
}

/** One output group after density, ratio and rounding. */
export interface OutputGroup {
  key: GroupKey;
  values: number[];
  values2?: number[];
  ratios?: number[];
}

export interface RenderedBody {
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

/** Area divisor per group for density (km²): the union for ungrouped outputs, each boundary otherwise. */
export interface DensityAreas {
  unionKm2: number;
  byBoundaryKm2: Map<string, number>;
}

function boundaryIdOf(key: GroupKey): string | undefined {
  if (key.kind === 'boundary' || key.kind === 'boundaryAndTag') return key.id;
  return undefined;
}

/**
 * Applies density (value / km², docs/reference/v1-reference-behaviour.md §3.2) and rounding (§3.6)
 * to a grouped series, giving the event loop a turn between groups when `pause` asks for one.
 */
export async function finishSeries(series: GroupedSeries, density: DensityAreas | undefined, pause: Pause = slicer()): Promise<OutputGroup[]> {
  const out: OutputGroup[] = [];
  for (const { key, values } of series.groups) {
    let divisor = 1;
    if (density) {
      const id = boundaryIdOf(key);
      divisor = id !== undefined ? (density.byBoundaryKm2.get(id) ?? density.unionKm2) : density.unionKm2;
    }
    out.push({ key, values: values.map((v) => round2(density ? v / divisor : v)) });
    const turn = pause();
    if (turn) await turn;
  }
  return out;
}

/** Ratio (docs/reference/v1-reference-behaviour.md §3.3): value and value2 rounded to 2 decimals, ratio = value2 / value rounded to 6. */
export function finishRatio(series: RatioSeries): OutputGroup[] {
  return series.groups.map(({ key, values, values2 }) => {
    const v = values.map(round2);
    const v2 = values2.map(round2);
    return { key, values: v, values2: v2, ratios: v.map((x, i) => round6(v2[i] / x)) };
  });
}

/** Users and contributions groupBy/boundary answer in the order of the ids (Java string order), docs/reference/v1-reference-behaviour.md §3.4. */
export function sortBoundaryGroupsById(groups: OutputGroup[]): OutputGroup[] {
  return [...groups].sort((a, b) => {
    const x = boundaryIdOf(a.key) ?? '';
    const y = boundaryIdOf(b.key) ?? '';
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

export function isoSeconds(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function tagLabel(tag: { key: string; value: string } | 'remainder'): string {
  return tag === 'remainder' ? 'remainder' : `${tag.key}=${tag.value}`;
}

/** A boundary id as `groupByObject` prints it: numeric GeoJSON ids as integers. */
function idObject(key: { id: string }, boundaries: OutputBoundary[]): JsonValue {
  const v = boundaries.find((b) => b.id === key.id)?.idValue ?? key.id;
  return typeof v === 'number' && Number.isSafeInteger(v) ? BigInt(v) : v;
}

function groupObject(key: GroupKey, boundaries: OutputBoundary[]): JsonValue {
  switch (key.kind) {
    case 'total':
      return 'total';
    case 'boundary':
      return idObject(key, boundaries);
    case 'type':
      return key.type;
    case 'tag':
      return `${key.key}=${key.value}`;
    case 'key':
      return key.key;
    case 'remainder':
      return 'remainder';
    case 'contributionType':
      return key.type;
    case 'element':
      return `${key.type}/${key.id}`;
    case 'boundaryAndTag':
      return [idObject(key, boundaries), tagLabel(key.tag)];
  }
}

/** Name of a group in CSV headers and GeoJSON ids (`<boundaryId>_<tag>` for boundary+tag). */
function groupLabel(key: GroupKey): string {
  switch (key.kind) {
    case 'boundaryAndTag':
      return `${key.id}_${tagLabel(key.tag)}`;
    case 'boundary':
      return key.id;
    default: {
      const o = groupObject(key, []);
      return typeof o === 'string' ? o : String(o);
    }
  }
}

interface TimeColumn {
  json: Record<string, string>;
  csv: string[];
  geojson: Record<string, string>;
  featureSuffix: string;
}

function timeColumns(req: OutputRequest): { header: string[]; cols: TimeColumn[] } {
  const ts = req.timestamps.map(isoSeconds);
  if (isIntervalRoute(req.route)) {
    const cols: TimeColumn[] = [];
    for (let i = 0; i + 1 < ts.length; i++) {
      cols.push({
        json: { fromTimestamp: ts[i], toTimestamp: ts[i + 1] },
        csv: [ts[i], ts[i + 1]],
        geojson: { timestampFrom: ts[i], timestampTo: ts[i + 1] },
        featureSuffix: `${ts[i]}-${ts[i + 1]}`,
      });
    }
    return { header: ['fromTimestamp', 'toTimestamp'], cols };
  }
  return {
    header: ['timestamp'],
    cols: ts.map((t) => ({ json: { timestamp: t }, csv: [t], geojson: { timestamp: t }, featureSuffix: t })),
  };
}

function envelope(req: OutputRequest): Record<string, JsonValue> {
  return {
    attribution: { url: ATTRIBUTION.url, text: ATTRIBUTION.text },
    apiVersion: API_VERSION,
    metadata: req.metadata
      ? { executionTime: BigInt(Math.round(req.metadata.executionTime)), description: req.metadata.description, requestUrl: req.metadata.requestUrl }
      : undefined,
  };
}

/**
 * Writes a group's `result` (or `ratioResult`) items, `{ <time columns>, value[, value2, ratio] }`
 * per timestamp, for the JSON level the array goes at (1 in an ungrouped answer, 2 in a group).
 */
function resultItems(cols: TimeColumn[], level: number): (group: OutputGroup) => JsonText {
  const fixed = cols.map((c) => c.json);
  // Each layout is built on first use: an answer has ratios in all its groups or in none.
  let plain: RecordsLayout | undefined;
  let ratio: RecordsLayout | undefined;
  return (g) => {
    if (g.ratios) return (ratio ??= new RecordsLayout(fixed, ['value', 'value2', 'ratio'], level)).write([g.values, g.values2!, g.ratios]);
    return (plain ??= new RecordsLayout(fixed, ['value'], level)).write([g.values]);
  };
}

/** `f` of each item in order, with a turn of the event loop whenever `pause` asks for one. */
async function mapPaced<T, U>(items: readonly T[], f: (item: T, i: number) => U, pause: Pause): Promise<U[]> {
  const out: U[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    out[i] = f(items[i], i);
    const turn = pause();
    if (turn) await turn;
  }
  return out;
}

/**
 * Renders the finished groups in the requested format. Big answers (a thousand groups of a daily
 * series) are built and written with turns of the event loop between groups and rows (`pause`):
 * one such answer held every other client for five seconds (bench/RESULTS.md).
 */
export async function render(req: OutputRequest, groups: OutputGroup[], pause: Pause = slicer()): Promise<RenderedBody> {
  const { route } = req;
  const { header, cols } = timeColumns(req);
  const grouped = route.grouping !== 'none';
  if (req.format === 'geojson' && hasGeoJsonOutput(route)) return renderGeoJson(req, groups, cols, pause);
  if (req.format === 'csv') {
    const comments = [`Copyright URL: ${ATTRIBUTION.url}`, `Copyright Text: ${ATTRIBUTION.text}`, `API Version: ${API_VERSION}`];
    if (req.metadata) {
      comments.push(`Execution Time: ${Math.round(req.metadata.executionTime)}`, `Description: ${req.metadata.description}`);
      if (req.metadata.requestUrl !== undefined) comments.push(`Request URL: ${req.metadata.requestUrl}`);
    }
    let csvHeader: string[];
    let rows: string[][];
    if (!grouped) {
      const g = groups[0] ?? { key: { kind: 'total' }, values: cols.map(() => 0) };
      csvHeader = g.ratios ? [...header, 'value', 'value2', 'ratio'] : [...header, 'value'];
      rows = await mapPaced(
        cols,
        (c, i) => (g.ratios ? [...c.csv, csvNumber(g.values[i]), csvNumber(g.values2![i]), csvNumber(g.ratios[i])] : [...c.csv, csvNumber(g.values[i])]),
        pause,
      );
    } else if (route.ratio) {
      csvHeader = [...header, ...groups.flatMap((g) => [`${groupLabel(g.key)}_value`, `${groupLabel(g.key)}_value2`, `${groupLabel(g.key)}_ratio`])];
      rows = await mapPaced(
        cols,
        (c, i) => [...c.csv, ...groups.flatMap((g) => [csvNumber(g.values[i]), csvNumber(g.values2![i]), csvNumber(g.ratios![i])])],
        pause,
      );
    } else {
      csvHeader = [...header, ...groups.map((g) => groupLabel(g.key))];
      rows = await mapPaced(cols, (c, i) => [...c.csv, ...groups.map((g) => csvNumber(g.values[i]))], pause);
    }
    return {
      contentType: 'text/csv;charset=UTF-8',
      headers: { 'content-disposition': 'attachment;filename=ohsome.csv' },
      body: writeCsv({ comments, header: csvHeader, rows, quoteRows: !grouped }),
    };
  }
  const doc = envelope(req);
  if (!grouped) {
    const g = groups[0] ?? { key: { kind: 'total' }, values: cols.map(() => 0) };
    const items = resultItems(cols, 1)(g);
    if (g.ratios) doc.ratioResult = items;
    else doc.result = items;
  } else if (route.ratio) {
    const items = resultItems(cols, 2);
    doc.groupByBoundaryResult = await mapPaced(groups, (g) => ({ groupByObject: groupObject(g.key, req.boundaries), ratioResult: items(g) }), pause);
  } else {
    const items = resultItems(cols, 2);
    doc.groupByResult = await mapPaced(groups, (g) => ({ result: items(g), groupByObject: groupObject(g.key, req.boundaries) }), pause);
  }
  return { contentType: 'application/json', body: await prettyJsonPaced(doc, pause) };
}

async function renderGeoJson(req: OutputRequest, groups: OutputGroup[], cols: TimeColumn[], pause: Pause): Promise<RenderedBody> {
  const doc = envelope(req);
  doc.type = 'FeatureCollection';
  const features: JsonValue[] = [];
  for (const g of groups) {
    const turn = pause();
    if (turn) await turn;
    const id = boundaryIdOf(g.key);
    const boundary = req.boundaries.find((b) => b.id === id);
    const label = groupLabel(g.key);
    cols.forEach((c, i) => {
      const properties: Record<string, JsonValue> = { groupByBoundaryId: label, ...c.geojson, value: g.values[i] };
      if (g.ratios) {
        properties.value2 = g.values2![i];
        properties.ratio = g.ratios[i];
      }
      features.push({ type: 'Feature', id: `${label}@${c.featureSuffix}`, geometry: boundary?.geometry ?? null, properties });
    });
  }
  doc.features = features;
  return { contentType: 'application/geo+json;charset=utf-8', body: await prettyJsonPaced(doc, pause) };
}
