/**
 * Test oracle for the version 2 statistics (src/query/stats.ts, docs/reference/v2-reference-and-contributions-format.md §2): the semantics
 * evaluated naively in TypeScript over every row of a store (brute-force.ts loadAllRows), with the
 * JavaScript filter predicate (not the SQL), the geometry kernel's clip as the exact intersection
 * test, and measures recomputed from the geometries. No interior/boundary split, no SQL bucketing.
 */
import { compilePredicate, type Filter } from '../../filter/index.js';
import { clipToBBox, clipToPolygon } from '../../geometry/clip.js';
import { areaOf, lengthOf } from '../../geometry/measures.js';
import type { Geometry } from '../../geometry/types.js';
import { STATS_TYPE_GROUPS, type StatsGrouping, type StatsMeasure } from '../../query/stats.js';
import { OPEN_END } from '../../store/schema.js';
import { v2Rows, type BruteArea, type BruteRow } from './brute-force.js';

const MEASURE: Record<StatsMeasure, (g: Geometry) => number> = { count: () => 1, length: lengthOf, area: areaOf };

function exactClip(area: BruteArea): (r: BruteRow) => Geometry | null {
  const cache = new Map<BruteRow, Geometry | null>();
  const clip = 'bbox' in area ? (g: Geometry) => clipToBBox(g, area.bbox) : (g: Geometry) => clipToPolygon(g, area.polygon);
  return (r) => {
    if (r.geometry === null) return null;
    let c = cache.get(r);
    if (c === undefined) cache.set(r, (c = clip(r.geometry)));
    return c;
  };
}

/** A state the measure statistics (features, currentness) may count. */
function measurable(r: BruteRow): boolean {
  return !r.deleted && r.geometryValid && r.geometry !== null && r.state.geometryType !== null && r.state.geometryType !== 'GeometryCollection';
}

function tagValue(tags: readonly string[], key: string): string | undefined {
  for (let i = 0; i < tags.length; i += 2) if (tags[i] === key) return tags[i + 1];
  return undefined;
}

/** Version 2's features: nodes, ways, and relations tagged type=multipolygon or type=boundary (by these tags). */
function isFeature(typeCode: number, tags: readonly string[]): boolean {
  if (typeCode !== 2) return true;
  const t = tagValue(tags, 'type');
  return t === 'multipolygon' || t === 'boundary';
}

/** Bin index k with edges[k] <= x < edges[k+1], or -1. */
function binOf(edges: readonly number[], x: number): number {
  for (let k = 0; k + 1 < edges.length; k++) if (edges[k] <= x && x < edges[k + 1]) return k;
  return -1;
}

/**
 * The groups of a row under a grouping (src/query/stats.ts StatsGrouping), worked out from its own
 * tags: `type` → its type; `tag` → the key's value in `tagSets` (each set that has it), kept only
 * when requested (with `values`).
 */
function groupLabels(groupBy: StatsGrouping, typeCode: number, tagSets: readonly (readonly string[])[]): string[] {
  if (groupBy.by === 'type') return [STATS_TYPE_GROUPS[typeCode]!];
  const out = new Set<string>();
  for (const tags of tagSets) {
    const v = tagValue(tags, groupBy.key);
    if (v !== undefined && (groupBy.values === undefined || groupBy.values.includes(v))) out.add(v);
  }
  return [...out];
}

/** The labels a grouping answers even when empty (types; requested values). */
function alwaysLabels(groupBy: StatsGrouping): string[] {
  return groupBy.by === 'type' ? [...STATS_TYPE_GROUPS] : [...(groupBy.values ?? [])];
}

class GroupSums {
  readonly total: number[];
  readonly groups = new Map<string, number[]>();
  constructor(
    private readonly n: number,
    always: readonly string[],
  ) {
    this.total = new Array<number>(n).fill(0);
    for (const l of always) this.groups.set(l, new Array<number>(n).fill(0));
  }
  add(k: number, labels: readonly string[], v: number): void {
    this.total[k] += v;
    for (const l of labels) {
      let s = this.groups.get(l);
      if (!s) this.groups.set(l, (s = new Array<number>(this.n).fill(0)));
      s[k] += v;
    }
  }
}

export function bruteFeatures(
  rows: readonly BruteRow[],
  area: BruteArea,
  q: { filter: Filter; timestamps: readonly number[]; measure: StatsMeasure; clip: boolean; groupByKey?: string; groupBy?: StatsGrouping },
): { total: number[]; groups?: Map<string, number[]> } {
  if (q.groupBy !== undefined) {
    const groupBy = q.groupBy;
    const matches = compilePredicate(q.filter);
    const clip = exactClip(area);
    const sums = new GroupSums(q.timestamps.length, alwaysLabels(groupBy));
    const scoped = v2Rows(rows);
    q.timestamps.forEach((t, k) => {
      for (const r of scoped) {
        if (!measurable(r) || r.validFrom > t || r.validTo <= t || !isFeature(r.typeCode, r.state.tags) || !matches(r.state)) continue;
        const c = clip(r);
        if (c === null) continue;
        sums.add(k, groupLabels(groupBy, r.typeCode, [r.state.tags]), MEASURE[q.measure](q.clip ? c : r.geometry!));
      }
    });
    return { total: sums.total, groups: sums.groups };
  }
  const matches = compilePredicate(q.filter);
  const pred = (r: BruteRow) => isFeature(r.typeCode, r.state.tags) && matches(r.state);
  const clip = exactClip(area);
  const n = q.timestamps.length;
  const total = new Array<number>(n).fill(0);
  const groups = new Map<string, number[]>();
  const scoped = v2Rows(rows);
  q.timestamps.forEach((t, k) => {
    for (const r of scoped) {
      if (!measurable(r) || r.validFrom > t || r.validTo <= t || !pred(r)) continue;
      const c = clip(r);
      if (c === null) continue;
      const v = MEASURE[q.measure](q.clip ? c : r.geometry!);
      total[k] += v;
      if (q.groupByKey === undefined) continue;
      const value = tagValue(r.state.tags, q.groupByKey);
      if (value === undefined) continue;
      let s = groups.get(value);
      if (!s) groups.set(value, (s = new Array<number>(n).fill(0)));
      s[k] += v;
    }
  });
  return q.groupByKey === undefined ? { total } : { total, groups };
}

/** contributions (count) and contributors (distinct users) per bin. */
export function bruteBins(
  rows: readonly BruteRow[],
  area: BruteArea,
  q: { filter: Filter; edges: readonly number[] },
): { contributions: number[]; contributors: number[] } {
  // The filter and the feature rule on the state's tags, or both on the tags before it.
  const now = compilePredicate(q.filter);
  const before = compilePredicate(q.filter, { tags: 'before' });
  const pred = (r: BruteRow) => (isFeature(r.typeCode, r.state.tags) && now(r.state)) || (isFeature(r.typeCode, r.state.tagsBefore ?? []) && before(r.state));
  const clip = exactClip(area);
  const bins = q.edges.length - 1;
  const contributions = new Array<number>(bins).fill(0);
  const users: Set<number>[] = Array.from({ length: bins }, () => new Set());
  for (const r of v2Rows(rows)) {
    if (r.collapsed) continue;
    const k = binOf(q.edges, r.validFrom);
    if (k < 0 || !pred(r) || clip(r) === null) continue;
    contributions[k] += 1;
    users[k].add(r.userId);
  }
  return { contributions, contributors: users.map((s) => s.size) };
}

/**
 * contributions and contributors per bin, grouped: a contribution in the groups of its tags after
 * it (none for a deletion) and before it; a contributor in every group of one of their contributions.
 */
export function bruteBinsGrouped(
  rows: readonly BruteRow[],
  area: BruteArea,
  q: { filter: Filter; edges: readonly number[]; groupBy: StatsGrouping },
): { contributions: { total: number[]; groups: Map<string, number[]> }; contributors: { total: number[]; groups: Map<string, number[]> } } {
  const now = compilePredicate(q.filter);
  const before = compilePredicate(q.filter, { tags: 'before' });
  const pred = (r: BruteRow) => (isFeature(r.typeCode, r.state.tags) && now(r.state)) || (isFeature(r.typeCode, r.state.tagsBefore ?? []) && before(r.state));
  const clip = exactClip(area);
  const bins = q.edges.length - 1;
  const always = alwaysLabels(q.groupBy);
  const contributions = new GroupSums(bins, always);
  const users = new Map<string | null, Set<number>[]>();
  const usersOf = (l: string | null) => {
    let u = users.get(l);
    if (!u) users.set(l, (u = Array.from({ length: bins }, () => new Set<number>())));
    return u;
  };
  usersOf(null);
  for (const l of always) usersOf(l);
  for (const r of v2Rows(rows)) {
    if (r.collapsed) continue;
    const k = binOf(q.edges, r.validFrom);
    if (k < 0 || !pred(r) || clip(r) === null) continue;
    const labels = groupLabels(q.groupBy, r.typeCode, r.deleted ? [r.state.tagsBefore ?? []] : [r.state.tags, r.state.tagsBefore ?? []]);
    contributions.add(k, labels, 1);
    for (const l of [null, ...labels]) usersOf(l)[k]!.add(r.userId);
  }
  const groups = new Map<string, number[]>();
  for (const [l, sets] of users)
    if (l !== null)
      groups.set(
        l,
        sets.map((x) => x.size),
      );
  return {
    contributions: { total: contributions.total, groups: contributions.groups },
    contributors: { total: usersOf(null).map((x) => x.size), groups },
  };
}

export function bruteCurrentnessGrouped(
  rows: readonly BruteRow[],
  area: BruteArea,
  q: { filter: Filter; edges: readonly number[]; measure: StatsMeasure; clip: boolean; groupBy: StatsGrouping },
): { total: number[]; groups: Map<string, number[]> } {
  const matches = compilePredicate(q.filter);
  const clip = exactClip(area);
  const sums = new GroupSums(q.edges.length - 1, alwaysLabels(q.groupBy));
  for (const r of v2Rows(rows)) {
    if (r.validTo !== OPEN_END || !measurable(r) || !isFeature(r.typeCode, r.state.tags) || !matches(r.state)) continue;
    const k = binOf(q.edges, r.validFrom);
    if (k < 0) continue;
    const c = clip(r);
    if (c === null) continue;
    sums.add(k, groupLabels(q.groupBy, r.typeCode, [r.state.tags]), MEASURE[q.measure](q.clip ? c : r.geometry!));
  }
  return { total: sums.total, groups: sums.groups };
}

export function bruteCurrentness(
  rows: readonly BruteRow[],
  area: BruteArea,
  q: { filter: Filter; edges: readonly number[]; measure: StatsMeasure; clip: boolean },
): number[] {
  const matches = compilePredicate(q.filter);
  const clip = exactClip(area);
  const out = new Array<number>(q.edges.length - 1).fill(0);
  for (const r of v2Rows(rows)) {
    if (r.validTo !== OPEN_END || !measurable(r) || !isFeature(r.typeCode, r.state.tags) || !matches(r.state)) continue;
    const k = binOf(q.edges, r.validFrom);
    if (k < 0) continue;
    const c = clip(r);
    if (c === null) continue;
    out[k] += MEASURE[q.measure](q.clip ? c : r.geometry!);
  }
  return out;
}
