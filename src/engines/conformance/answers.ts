/**
 * Running a conformance case against an engine bundle, the engine-neutral answer it gives (plain
 * JSON, the golden files' `answer`), and the comparison of two answers: counts exactly, lengths,
 * areas and perimeters within 0.5 %, coordinates of bboxes within 1e-6°.
 */
import { parseFilter, type Filter } from '../../filter/index.js';
import { bboxOf } from '../../geometry/clip.js';
import { areaOf, lengthOf } from '../../geometry/measures.js';
import type { BBox, Geometry, MultiPolygon, Polygon } from '../../geometry/types.js';
import { decodeWkb } from '../../geometry/wkb.js';
import type { Engines } from '../../query/engines.js';
import type { ExtractedFeature } from '../../query/extraction.js';
import type { AreaOfInterest, GroupKey } from '../../query/model.js';
import type { ExtractionRecord, ExtractionRequest } from '../../query/v2-requests.js';
import { AREAS, epochOf, isExactCase, type AreaSpec, type ConformanceCase } from './cases.js';

/** One series of an answer: a group label and its values (`values2`: ratio's second series). */
export interface SeriesAnswer {
  key: string;
  values: number[];
  values2?: number[];
}

/** A geometry as compared: its type, bbox, length and area (coordinates of clipped vertices may differ in the last bits). */
export interface GeometrySummary {
  type: string;
  bbox: BBox | null;
  length: number;
  area: number;
}

export type Answer = { series: SeriesAnswer[] } | { records: Record<string, unknown>[] };

// ---------------------------------------------------------------------------------------------
// Areas, filters, labels

export function areaOfSpec(id: string, spec: AreaSpec): AreaOfInterest {
  if ('bbox' in spec) {
    const [a, b, c, d] = spec.bbox;
    return {
      id,
      bbox: spec.bbox,
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [a, b],
            [c, b],
            [c, d],
            [a, d],
            [a, b],
          ],
        ],
      },
    };
  }
  return { id, bbox: bboxOf(spec.polygon as Polygon | MultiPolygon)!, geometry: spec.polygon };
}

export function caseArea(c: ConformanceCase, name: string): AreaOfInterest {
  const spec = AREAS[c.fixture][name];
  if (!spec) throw new Error(`${c.fixture}/${c.id}: no area ${name}`);
  return areaOfSpec(name, spec);
}

function v1(text: string): Filter {
  return parseFilter(text, { version: 1 });
}
function v2(text: string): Filter {
  return parseFilter(text, { version: 2 });
}

/** A grouped v2 statistic as series: `total`, then `group:<label>` in code-point order of the labels. */
export function groupedSeries(total: number[], groups: ReadonlyMap<string, number[]>): SeriesAnswer[] {
  const names = [...groups.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [{ key: 'total', values: total }, ...names.map((n) => ({ key: `group:${n}`, values: groups.get(n)! }))];
}

/** The label of a group key: `total`, `remainder`, `boundary:<id>`, `type:<t>`, `tag:<k>=<v>`, `key:<k>`, `<id>|tag:<k>=<v>`, `<id>|remainder`. */
export function labelOf(k: GroupKey): string {
  switch (k.kind) {
    case 'total':
    case 'remainder':
      return k.kind;
    case 'boundary':
      return `boundary:${k.id}`;
    case 'type':
      return `type:${k.type}`;
    case 'tag':
      return `tag:${k.key}=${k.value}`;
    case 'key':
      return `key:${k.key}`;
    case 'contributionType':
      return `contributionType:${k.type}`;
    case 'element':
      return `element:${k.type}/${k.id}`;
    case 'boundaryAndTag':
      return `${k.id}|${k.tag === 'remainder' ? 'remainder' : `tag:${k.tag.key}=${k.tag.value}`}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Normal forms

export function summarize(g: Geometry | null): GeometrySummary | null {
  if (g === null) return null;
  return { type: g.type, bbox: bboxOf(g), length: lengthOf(g), area: areaOf(g) };
}

const byJson = (a: unknown, b: unknown) => {
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
};

/** Records in a canonical order: by their identifying fields, then by the whole record. */
export function sortRecords(records: Record<string, unknown>[], keys: string[]): Record<string, unknown>[] {
  return records.sort((a, b) => {
    for (const k of keys) {
      const x = a[k] as number | string | undefined;
      const y = b[k] as number | string | undefined;
      if (x === y) continue;
      if (x === undefined || x === null) return -1;
      if (y === undefined || y === null) return 1;
      return x < y ? -1 : 1;
    }
    return byJson(a, b);
  });
}

const sortedTags = (tags: [string, string][]) => [...tags].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

export function featureRecord(f: ExtractedFeature): Record<string, unknown> {
  const r: Record<string, unknown> = {
    type: f.type,
    id: f.id,
    version: f.version,
    changeset: f.changeset,
    time: f.time,
  };
  if (f.time2 !== undefined) r.time2 = f.time2;
  if (f.contribution) r.contribution = { ...f.contribution };
  r.tags = sortedTags(f.tags);
  r.geometry = summarize(f.geometry);
  return r;
}

/** A decoded Parquet value in plain JSON: bigints and timestamps as numbers, maps as sorted pairs, WKB as a summary. */
function plain(column: string, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return v.getTime() / 1000;
  if (v instanceof Uint8Array) return column === 'geom' ? summarize(decodeWkb(v)) : Buffer.from(v).toString('hex');
  if (Array.isArray(v)) {
    if (v.every((e) => e && typeof e === 'object' && 'key' in e && 'value' in e)) {
      return sortedTags((v as { key: unknown; value: unknown }[]).map((e) => [String(e.key), String(e.value)]));
    }
    return v.map((e) => plain(column, e));
  }
  if (typeof v === 'object') {
    // hyparquet decodes a MAP column to an object
    if (column === 'tags' || column === 'tags_before' || column === 'changeset_tags') {
      return sortedTags(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, String(x)]));
    }
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v as object).sort()) out[k] = plain(k, (v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

/** Timestamp columns: microseconds in a record, seconds in an answer (as a decoded Parquet TIMESTAMP). */
const MICROS_COLUMNS = new Set(['edit_timestamp', 'valid_to_timestamp']);

/**
 * An engine's extraction record in the plain form of a decoded Parquet row (\`decodeParquet\`): the
 * suite checks the engine's records, not the GeoParquet writer (the API's, tested by the v2 goldens).
 */
function plainRecord(r: ExtractionRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(r).sort()) {
    const v = (r as unknown as Record<string, unknown>)[k];
    if (v === undefined) continue;
    out[k] = MICROS_COLUMNS.has(k) && typeof v === 'bigint' ? Number(v) / 1e6 : plain(k, v);
  }
  return out;
}

const PARQUET_ORDER = ['collection_osm_id', 'member_pos', 'osm_type', 'osm_id', 'edit_timestamp', 'version', 'minor_version', 'geom_type'];

// ---------------------------------------------------------------------------------------------
// Running a case

export async function runCase(engines: Engines, c: ConformanceCase): Promise<Answer> {
  switch (c.op) {
    case 'snapshots': {
      const r = await engines.aggregation.aggregateSnapshots({
        areas: c.areas.map((a) => caseArea(c, a)),
        timestamps: c.timestamps.map(epochOf),
        filter: v1(c.filter),
        measure: c.measure,
        grouping: c.grouping,
      });
      return { series: r.groups.map((g) => ({ key: labelOf(g.key), values: g.values })) };
    }
    case 'ratio': {
      const r = await engines.aggregation.ratio({
        areas: c.areas.map((a) => caseArea(c, a)),
        timestamps: c.timestamps.map(epochOf),
        filter: v1(c.filter),
        filter2: v1(c.filter2),
        measure: c.measure,
        perBoundary: c.perBoundary,
      });
      return { series: r.groups.map((g) => ({ key: labelOf(g.key), values: g.values, values2: g.values2 })) };
    }
    case 'contributions':
    case 'latest':
    case 'users': {
      const q = {
        areas: c.areas.map((a) => caseArea(c, a)),
        timestamps: c.timestamps.map(epochOf),
        filter: v1(c.filter),
        grouping: c.grouping,
        ...(c.contributionTypes ? { contributionTypes: c.contributionTypes } : {}),
      };
      const a = engines.aggregation;
      const r = await (c.op === 'contributions' ? a.countContributions(q) : c.op === 'latest' ? a.countLatestContributions(q) : a.countUsers(q));
      return { series: r.groups.map((g) => ({ key: labelOf(g.key), values: g.values })) };
    }
    case 'extract': {
      const x = await engines.extraction();
      const records: Record<string, unknown>[] = [];
      for await (const f of x.extract({
        kind: c.kind,
        areas: c.areas.map((a) => caseArea(c, a)),
        timestamps: c.timestamps.map(epochOf),
        filter: v1(c.filter),
        clipGeometry: c.clipGeometry,
      })) {
        records.push(featureRecord(f));
      }
      return { records: sortRecords(records, ['type', 'id', 'time', 'version']) };
    }
    case 'stats.features': {
      const r = await engines.stats.features({
        aoi: caseArea(c, c.aoi),
        timestamps: c.timestamps.map(epochOf),
        filter: v2(c.filter),
        measure: c.measure,
        clip: c.clip,
        ...(c.groupByKey !== undefined ? { groupByKey: c.groupByKey } : {}),
        ...(c.groupBy !== undefined ? { groupBy: c.groupBy } : {}),
      });
      if (c.groupBy !== undefined) return { series: groupedSeries(r.total, r.groups ?? new Map()) };
      const series: SeriesAnswer[] = [{ key: 'total', values: r.total }];
      if (c.groupByKey !== undefined) {
        const names = [...(r.groups ?? new Map<string, number[]>()).keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        for (const v of names) series.push({ key: `tag:${c.groupByKey}=${v}`, values: r.groups!.get(v)! });
      }
      return { series };
    }
    case 'stats.contributions':
    case 'stats.contributors': {
      const q = { aoi: caseArea(c, c.aoi), edges: c.edges.map(epochOf), filter: v2(c.filter) };
      if (c.groupBy !== undefined) {
        const r = await engines.stats.groupedBins(c.op === 'stats.contributions' ? 'contributions' : 'contributors', q, c.groupBy);
        return { series: groupedSeries(r.total, r.groups) };
      }
      const values = c.op === 'stats.contributions' ? await engines.stats.contributions(q) : await engines.stats.contributors(q);
      return { series: [{ key: 'total', values }] };
    }
    case 'stats.currentness': {
      const q = { aoi: caseArea(c, c.aoi), edges: c.edges.map(epochOf), filter: v2(c.filter), measure: c.measure, clip: c.clip };
      if (c.groupBy !== undefined) {
        const r = await engines.stats.groupedBins('currentness', q, c.groupBy);
        return { series: groupedSeries(r.total, r.groups) };
      }
      const values = await engines.stats.currentness(q);
      return { series: [{ key: 'total', values }] };
    }
    case 'parquet': {
      const aoi = caseArea(c, c.aoi);
      const filter = v2(c.filter);
      let request: ExtractionRequest;
      if (c.kind === 'features') {
        const time = 'at' in c.time ? { at: epochOf(c.time.at) } : { start: epochOf(c.time.start), end: epochOf(c.time.end) };
        request = { kind: 'features', aoi, time, filter, clip: c.clip };
      } else if (c.kind === 'contributions') {
        if ('at' in c.time) throw new Error(`${c.id}: contributions need a time range`);
        request = { kind: 'contributions', aoi, time: { start: epochOf(c.time.start), end: epochOf(c.time.end) }, filter };
      } else {
        if (!('at' in c.time)) throw new Error(`${c.id}: collections need an instant`);
        request = { kind: c.kind, aoi, time: { at: epochOf(c.time.at) }, filter, memberFilter: c.memberFilter ? v2(c.memberFilter) : null, clip: c.clip };
      }
      const records: Record<string, unknown>[] = [];
      for await (const batch of engines.parquet.records(request)) for (const r of batch) records.push(plainRecord(r));
      return { records: sortRecords(records, PARQUET_ORDER) };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Comparing

const REL = 0.005;
const COORD = 1e-6;

function closeEnough(got: number, want: number, rel: number): boolean {
  if (got === want) return true;
  return Math.abs(got - want) <= rel * Math.max(Math.abs(got), Math.abs(want)) + 1e-9;
}

/** Where a value's path says it is a measure (relative tolerance) or a coordinate (absolute). */
function tolerance(path: string[], exact: boolean): { rel?: number; abs?: number } | null {
  if (path.includes('bbox')) return { abs: COORD };
  const last = path[path.length - 1];
  if (path.includes('geometry') || path.includes('geom')) return last === 'length' || last === 'area' ? { rel: REL } : null;
  if (!exact && (path.includes('values') || path.includes('values2'))) return { rel: REL };
  return null;
}

function diff(got: unknown, want: unknown, path: string[], exact: boolean, out: string[]): void {
  if (out.length >= 10) return;
  const at = path.join('.') || '(answer)';
  if (typeof want === 'number' && typeof got === 'number') {
    const tol = tolerance(path, exact);
    const ok = tol === null ? got === want : tol.abs !== undefined ? Math.abs(got - want) <= tol.abs : closeEnough(got, want, tol.rel!);
    if (!ok) out.push(`${at}: ${got} instead of ${want}`);
    return;
  }
  if (Array.isArray(want)) {
    if (!Array.isArray(got)) {
      out.push(`${at}: ${JSON.stringify(got)} instead of an array`);
      return;
    }
    if (got.length !== want.length) out.push(`${at}: ${got.length} entries instead of ${want.length}`);
    for (let i = 0; i < Math.min(got.length, want.length); i++) diff(got[i], want[i], [...path, String(i)], exact, out);
    return;
  }
  if (want !== null && typeof want === 'object') {
    if (got === null || typeof got !== 'object' || Array.isArray(got)) {
      out.push(`${at}: ${JSON.stringify(got)} instead of ${JSON.stringify(want)}`);
      return;
    }
    const keys = new Set([...Object.keys(want), ...Object.keys(got)]);
    for (const k of keys) {
      if (!(k in (got as object))) out.push(`${at}: no ${k}`);
      else if (!(k in (want as object))) out.push(`${at}: unexpected ${k}`);
      else diff((got as Record<string, unknown>)[k], (want as Record<string, unknown>)[k], [...path, k], exact, out);
    }
    return;
  }
  if (got !== want) out.push(`${at}: ${JSON.stringify(got)} instead of ${JSON.stringify(want)}`);
}

/**
 * The differences between an engine's answer and the golden one (empty: conforms). Series are
 * compared group by group in order (the group order is part of the contract); records one by one
 * in their canonical order, with a short note of the first record that differs.
 */
export function compareAnswers(c: ConformanceCase, got: Answer, want: Answer): string[] {
  const out: string[] = [];
  const exact = isExactCase(c);
  if ('series' in want) {
    if (!('series' in got)) return ['a record list instead of series'];
    const gk = got.series.map((s) => s.key);
    const wk = want.series.map((s) => s.key);
    if (JSON.stringify(gk) !== JSON.stringify(wk)) out.push(`groups ${JSON.stringify(gk)} instead of ${JSON.stringify(wk)}`);
    want.series.forEach((w, i) => {
      const g = got.series.find((s) => s.key === w.key);
      if (g) diff(g, w, ['series', String(i)], exact, out);
    });
    return out;
  }
  if (!('records' in got)) return ['series instead of a record list'];
  if (got.records.length !== want.records.length) out.push(`${got.records.length} records instead of ${want.records.length}`);
  for (let i = 0; i < Math.min(got.records.length, want.records.length) && out.length < 10; i++) {
    const before = out.length;
    diff(got.records[i], want.records[i], ['records', String(i)], exact, out);
    if (out.length > before)
      out.push(`  record ${i} is ${JSON.stringify(got.records[i]).slice(0, 300)}, golden ${JSON.stringify(want.records[i]).slice(0, 300)}`);
  }
  return out;
}
