/**
 * The version 2 statistics engine over any SQL database (src/query/stats.ts is the contract,
 * src/query/README.md "Version 2 statistics" the plan). Each statistic is one aggregating scan
 * (DuckDB's in src/engines/duckdb/sql/stats.ts); the rows not surely inside the aoi come back one by
 * one, and only their geometries are fetched, each distinct one decoded and clipped once. The engine
 * is written over `StatsSql` (the statements and how they run): DuckDB's in src/engines/duckdb/stats.ts,
 * ClickHouse's in src/engines/clickhouse/stats.ts, as the v1 aggregation engine is (engine.ts).
 */
import type { Filter } from '../../filter/index.js';
import { wkbVertexStrictlyInsideTest } from '../../geometry/clip.js';
import { planAreaSql, type SqlAreaPlan } from '../sql/area.js';
import { valueIdSql } from '../sql/groups.js';
import {
  STATS_TYPE_GROUPS,
  type BinStatsQuery,
  type CurrentnessQuery,
  type FeatureStatsQuery,
  type FeatureStatsResult,
  type GroupedBins,
  type StatsEngine,
  type StatsGrouping,
  type StatsMeasure,
} from '../../query/stats.js';
import type {
  ContributionStatsParams,
  ContributionStatsRow,
  CurrentnessParams,
  CurrentnessRow,
  FeatureStatsParams,
  FeatureStatsRow,
  GeometryRunRow,
  RowGeometry,
} from '../sql/stats-rows.js';
import { DiffSeries } from '../../query/time-plan.js';
import { areaMeasures, createBoundaryCache, type BoundaryCache } from './boundary-cache.js';
import { keepSmallestRowid, representativeWkb } from './representative-wkb.js';
import type { StoreTagDictionary } from '../../store/store-tag-dictionary.js';
import { checkAborted } from './statements.js';
import { slicer } from '../../core/yielding.js';
import type { Statement } from '../sql/statement.js';
import { measureClipped } from './boundary-measure-task.js';
import { areaKey } from './boundary-clipper.js';
import { sharedGeometryPool, worthPooling, type GeometryPool } from './geometry-pool.js';
import type { AreaOfInterest } from '../../query/model.js';
import type { SqlFlavor } from '../sql/flavor.js';

/**
 * What the statistics engine asks of its database: the statements, written in its SQL, and how
 * they run (as `AggregationSql` for version 1, engine.ts). Every statement's rows have the same
 * columns and meaning on every database (src/engines/sql/stats-rows.ts; DuckDB's statements,
 * src/engines/duckdb/sql/stats.ts, describe them); a row id (`b`, `r`) is the
 * database's own key of a state (DuckDB's rowid, ClickHouse's `rid`).
 */
export interface StatsSql {
  readonly flavor: SqlFlavor;
  readonly dictionary: StoreTagDictionary;
  /** SQL: a version 2 filter, with the version 2 scope (scope.ts), over the state's tags or over them and the tags before it. */
  filterSql(filter: Filter, tags: 'current' | 'currentOrBefore'): string;
  featureStats(p: FeatureStatsParams): Statement<FeatureStatsRow>;
  contributionStats(p: ContributionStatsParams): Statement<ContributionStatsRow>;
  currentness(p: CurrentnessParams): Statement<CurrentnessRow>;
  geometryRuns(elements: readonly (readonly [number, number])[]): Statement<GeometryRunRow>;
  /**
   * The statement reading the geometries of states by rowid: states of elements with a state
   * meeting `area`'s bbox, which an engine may use to skip (ClickHouse: its element key test).
   */
  boundaryGeometries: (rowids: readonly number[], area: SqlAreaPlan) => Statement<RowGeometry>;
  /** Runs a statement, its rows as records; an abort stops it. */
  records<R>(st: Statement<R>, signal: AbortSignal | undefined): Promise<R[]>;
}

export interface SqlStatsEngine extends StatsEngine {
  readonly dictionary: StoreTagDictionary;
  /** The SQL of the last statement run (debugging, README examples). */
  lastSql?: string;
}

/**
 * What the exact test found for one boundary geometry: null = it does not meet the aoi; else the
 * measure of its intersection with the aoi, or `true` when it meets the aoi and the intersection's
 * measure was not asked for.
 */
type Exact = number | true | null;

export interface SqlStatsEngineOptions {
  /**
   * Where boundary geometries are clipped when there are at least `poolMinGeometries` of them or
   * their WKB is large (default: the process's pool, geometry-pool.ts `worthPooling`), as in the v1 engine (engine.ts).
   */
  geometryPool?: GeometryPool;
  /** Default 64; 0 sends every batch to the pool, Infinity none. */
  poolMinGeometries?: number;
}

/** A row the scan could not decide. */
interface BoundaryRow {
  rowid: number;
  type: number;
  id: number;
}

/** The statistics engine over any database that writes the statements of `StatsSql`. */
export function createSqlStatsEngine(db: StatsSql, cache: BoundaryCache = createBoundaryCache(), options: SqlStatsEngineOptions = {}): SqlStatsEngine {
  const d = db.dictionary;
  const flavor = db.flavor;
  const poolMinGeometries = options.poolMinGeometries ?? 64;
  const poolOf = () => options.geometryPool ?? sharedGeometryPool();
  const pause = slicer();
  const filterSql = db.filterSql;

  function query<R>(st: Statement<R>, signal: AbortSignal | undefined): Promise<R[]> {
    engine.lastSql = st.text;
    return db.records(st, signal);
  }

  /**
   * The exact test of each boundary row's geometry against the aoi (null: it misses the aoi, its
   * bbox only met the aoi's bbox), by rowid; with `clipMeasure`, the measure of the intersection.
   * The rows are grouped by geometry run first (`boundaryRunsSql`: the states of an element between
   * two geometry changes share their WKB), so each distinct geometry is fetched, decoded and clipped
   * once; many are clipped in the geometry pool, off the event loop.
   */
  async function exactOf(
    plan: SqlAreaPlan,
    aoi: AreaOfInterest,
    rows: readonly BoundaryRow[],
    clipMeasure: StatsMeasure | null,
    signal: AbortSignal | undefined,
  ): Promise<Map<number, Exact>> {
    const needClip = clipMeasure !== null;
    const out = new Map<number, Exact>();
    if (rows.length === 0) return out;
    const elementOf = new Map<number, string>();
    const elements = new Map<string, [number, number]>();
    for (const { rowid: r, type, id } of rows) {
      const key = `${type}/${id}`;
      elementOf.set(r, key);
      if (!elements.has(key)) elements.set(key, [type, id]);
    }
    // One representative row per geometry run; every row of the run takes its answer. Runs and
    // representative WKB come from the cache when an earlier request fetched them.
    const runOfRow = new Map<number, number>();
    const missing: [number, number][] = [];
    for (const [key, element] of elements) {
      const runs = cache.runs.get(key);
      if (runs) for (const [r, run] of runs) runOfRow.set(r, run);
      else missing.push(element);
    }
    if (missing.length > 0) {
      const fresh = new Map<string, Map<number, number>>(missing.map(([t, id]) => [`${t}/${id}`, new Map()]));
      for (const { r, run, type: t, id } of await query(db.geometryRuns(missing), signal)) {
        fresh.get(`${t}/${id}`)?.set(r, run);
        runOfRow.set(r, run);
      }
      for (const [key, runs] of fresh) cache.runs.set(key, runs);
    }
    const representativeOfRun = new Map<string, number>();
    const runKey = (r: number, run: number) => `${elementOf.get(r)}/${run}`;
    for (const { rowid: r } of rows) {
      const run = runOfRow.get(r);
      if (run !== undefined) keepSmallestRowid(representativeOfRun, runKey(r, run), r);
    }
    const representative = new Map<number, number>();
    for (const { rowid: r } of rows) {
      const run = runOfRow.get(r);
      // A collapsed state stands for itself.
      representative.set(r, run === undefined ? r : representativeOfRun.get(runKey(r, run))!);
    }
    // Without clip, a vertex strictly inside the aoi settles it, read from the WKB without decoding it.
    const surelyMeets = needClip ? null : wkbVertexStrictlyInsideTest(plan.rect ? plan.bbox : plan.geometry);
    const fetched = new Map<number, Exact>();
    const wkbOf = await representativeWkb(
      new Set(representative.values()),
      cache.wkb,
      (st) => query(st, signal),
      signal,
      pause,
      (rowids) => db.boundaryGeometries(rowids, plan),
    );
    // count: 1 for a geometry that meets the aoi, NaN for one that misses it.
    const measure = clipMeasure ?? 'count';
    // A representative measured over this aoi by an earlier request is not clipped again (the
    // cache's `measures`, shared with the v1 engine).
    const measured = areaMeasures(cache, areaKey(aoi), measure);
    const toClip: number[] = [];
    const wkbs: Uint8Array[] = [];
    for (const [r, wkb] of wkbOf) {
      if (wkb === null) fetched.set(r, null);
      else if (surelyMeets?.(wkb)) fetched.set(r, true);
      else {
        const known = measured.get(r);
        if (known !== undefined) fetched.set(r, known === null ? null : needClip ? known : true);
        else {
          toClip.push(r);
          wkbs.push(wkb);
        }
      }
    }
    const values = worthPooling(wkbs, poolMinGeometries) ? await poolOf().measureClipped(aoi, measure, wkbs, signal) : measureClipped(plan, measure, wkbs);
    checkAborted(signal);
    toClip.forEach((r, k) => {
      const value = Number.isNaN(values[k]) ? null : values[k];
      measured.set(r, value);
      fetched.set(r, value === null ? null : needClip ? value : true);
    });
    for (const { rowid: r } of rows) out.set(r, fetched.get(representative.get(r)!) ?? null);
    return out;
  }

  /**
   * A grouping's SQL group codes (over the state's tags and over the tags before it) and the label
   * of a code (null: in no group, only in the total); `always`: the labels answered even when empty.
   */
  function grouper(groupBy: StatsGrouping | undefined): { codeSql: string; codeBeforeSql: string; labelOf(code: number): string | null; always: string[] } {
    if (groupBy === undefined) return { codeSql: '-1', codeBeforeSql: '-1', labelOf: () => null, always: [] };
    if (groupBy.by === 'type') {
      // A deletion keeps its type: the code before is the type too.
      return { codeSql: 'type', codeBeforeSql: 'type', labelOf: (code) => STATS_TYPE_GROUPS[code] ?? null, always: [...STATS_TYPE_GROUPS] };
    }
    const keyId = d.keyId(groupBy.key);
    const requested = groupBy.values === undefined ? undefined : new Set(groupBy.values);
    return {
      codeSql: valueIdSql(keyId, 'tag_kv', 'key_mask', flavor),
      codeBeforeSql: valueIdSql(keyId, 'tag_kv_before', 'key_mask_before', flavor),
      labelOf: (code) => {
        if (code < 0 || keyId === undefined) return null;
        const value = d.valueName(keyId, code) ?? '';
        return requested && !requested.has(value) ? null : value;
      },
      always: [...(requested ?? [])],
    };
  }

  async function features(q: FeatureStatsQuery): Promise<FeatureStatsResult> {
    checkAborted(q.signal);
    const n = q.timestamps.length;
    const plan = planAreaSql(q.aoi, '', flavor);
    const groupBy: StatsGrouping | undefined = q.groupBy ?? (q.groupByKey === undefined ? undefined : { by: 'tag', key: q.groupByKey });
    const grouping = grouper(groupBy);
    const codeSql = grouping.codeSql;
    const rows = await query(
      db.featureStats({ area: plan, timestamps: q.timestamps, filterSql: filterSql(q.filter, 'current'), codeSql, measure: q.measure }),
      q.signal,
    );
    const total = new DiffSeries(n);
    const groups = new Map<number, DiffSeries>();
    const add = (g: number, v: number, c: number, f: number, e: number) => {
      total.add(v, c, f, e);
      if (g < 0) return;
      let s = groups.get(g);
      if (!s) groups.set(g, (s = new DiffSeries(n)));
      s.add(v, c, f, e);
    };
    // Rows alive at no timestamp (f = e) are the engine's to skip (FeatureStatsRow).
    const boundary = rows.filter((r) => r.b !== -1 && r.f < r.e);
    for (const { f, e, g, v, n: c, b } of rows) if (b === -1 && f < e) add(g, v, c, f, e);
    const undecided: BoundaryRow[] = boundary.map((r) => ({ rowid: r.b, type: r.bt, id: r.bi }));
    const exact = await exactOf(plan, q.aoi, undecided, q.clip ? q.measure : null, q.signal);
    for (const { f, e, g, v, b: rid } of boundary) {
      const x = exact.get(rid);
      if (x === null || x === undefined) continue;
      add(g, x === true ? v : x, 1, f, e);
    }
    const result: FeatureStatsResult = { total: total.values().values };
    if (groupBy !== undefined) {
      result.groups = new Map();
      for (const [code, s] of groups) {
        const { values, present } = s.values();
        const label = grouping.labelOf(code);
        if (!present || label === null) continue;
        result.groups.set(label, values);
      }
      for (const label of grouping.always) if (!result.groups.has(label)) result.groups.set(label, new Array<number>(n).fill(0));
    }
    return result;
  }

  /** Per-bin counters of the total and of each group label (sums, or distinct users). */
  function binCounters(bins: number, users: boolean, always: readonly string[]) {
    const sums = new Map<string | null, number[]>();
    const sets = new Map<string | null, Set<number>[]>();
    const of = (label: string | null) => {
      if (users) {
        let s = sets.get(label);
        if (!s) sets.set(label, (s = Array.from({ length: bins }, () => new Set<number>())));
        return s;
      }
      let v = sums.get(label);
      if (!v) sums.set(label, (v = new Array<number>(bins).fill(0)));
      return v;
    };
    for (const label of always) of(label);
    of(null); // the total
    return {
      /** Adds `value` (or the user) in bin k to the total and to each distinct label. */
      add(k: number, labels: readonly (string | null)[], value: number, user: number | null) {
        const seen = new Set<string | null>([null]);
        for (const l of labels) if (l !== null) seen.add(l);
        for (const l of seen) {
          if (users) (of(l) as Set<number>[])[k]!.add(user!);
          else (of(l) as number[])[k]! += value;
        }
      },
      /** Whether the user already counts in bin k for the total and every one of the labels. */
      counted(k: number, labels: readonly (string | null)[], user: number): boolean {
        return [null, ...labels.filter((l) => l !== null)].every((l) => sets.get(l)?.[k]?.has(user) === true);
      },
      result(): GroupedBins {
        const values = (l: string | null) => (users ? sets.get(l)!.map((s) => s.size) : sums.get(l)!);
        const groups = new Map<string, number[]>();
        for (const l of users ? sets.keys() : sums.keys()) if (l !== null) groups.set(l, values(l));
        return { total: values(null), groups };
      },
    };
  }

  async function binned(q: BinStatsQuery, users: boolean, groupBy?: StatsGrouping): Promise<GroupedBins> {
    checkAborted(q.signal);
    const bins = q.edges.length - 1;
    const plan = planAreaSql(q.aoi, '', flavor);
    const grouping = grouper(groupBy);
    const rows = await query(
      db.contributionStats({
        area: plan,
        edges: q.edges,
        filterSql: filterSql(q.filter, 'currentOrBefore'),
        users,
        ...(groupBy ? { codeSql: grouping.codeSql, codeBeforeSql: grouping.codeBeforeSql } : {}),
      }),
      q.signal,
    );
    const counters = binCounters(bins, users, grouping.always);
    /** A contribution's groups: the key's value after it and before it (a deletion's after is -1). */
    const labelsOf = (g: number, gb: number) => [grouping.labelOf(g), grouping.labelOf(gb)];
    const boundary = rows.filter((r) => r.b !== -1);
    for (const { k, u, g, gb, n: c, b } of rows) if (b === -1) counters.add(k, labelsOf(g, gb), c, u);
    // Distinct users: a boundary row only matters when its user is not yet counted in its bin (and groups).
    const needed = users ? boundary.filter(({ k, u, g, gb }) => !counters.counted(k, labelsOf(g, gb), u!)) : boundary;
    const exact = await exactOf(
      plan,
      q.aoi,
      needed.map((r) => ({ rowid: r.b, type: r.bt, id: r.bi })),
      null,
      q.signal,
    );
    for (const { k, u, g, gb, b: rid } of needed) if (exact.get(rid)) counters.add(k, labelsOf(g, gb), 1, u);
    return counters.result();
  }

  async function currentness(q: CurrentnessQuery, groupBy?: StatsGrouping): Promise<GroupedBins> {
    checkAborted(q.signal);
    const bins = q.edges.length - 1;
    const plan = planAreaSql(q.aoi, '', flavor);
    const grouping = grouper(groupBy);
    const rows = await query(
      db.currentness({ area: plan, edges: q.edges, filterSql: filterSql(q.filter, 'current'), measure: q.measure, codeSql: grouping.codeSql }),
      q.signal,
    );
    const counters = binCounters(bins, false, grouping.always);
    const boundary = rows.filter((r) => r.b !== -1);
    for (const { k, g, v, b } of rows) if (b === -1) counters.add(k, [grouping.labelOf(g)], v, null);
    const undecided: BoundaryRow[] = boundary.map((r) => ({ rowid: r.b, type: r.bt, id: r.bi }));
    const exact = await exactOf(plan, q.aoi, undecided, q.clip ? q.measure : null, q.signal);
    for (const { k, g, v, b: rid } of boundary) {
      const x = exact.get(rid);
      if (x === null || x === undefined) continue;
      counters.add(k, [grouping.labelOf(g)], x === true ? v : x, null);
    }
    return counters.result();
  }

  const engine: SqlStatsEngine = {
    dictionary: d,
    features,
    contributors: async (q) => (await binned(q, true)).total,
    contributions: async (q) => (await binned(q, false)).total,
    currentness: async (q) => (await currentness(q)).total,
    groupedBins: ((kind: 'contributors' | 'contributions' | 'currentness', q: BinStatsQuery | CurrentnessQuery, groupBy: StatsGrouping) =>
      kind === 'currentness' ? currentness(q as CurrentnessQuery, groupBy) : binned(q, kind === 'contributors', groupBy)) as StatsEngine['groupedBins'],
  };
  return engine;
}
