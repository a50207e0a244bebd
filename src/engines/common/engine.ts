/**
 * The version 1 aggregation engine over any SQL database: runs the planner's statements
 * (src/query/plan.ts), written in the database's SQL (`AggregationSql`: DuckDB's in
 * src/engines/duckdb/engine.ts, ClickHouse's in src/engines/clickhouse/engine.ts), and finishes
 * boundary rows and contributions in TypeScript (src/query/README.md describes the plan).
 */
import { compilePredicate, type Filter } from '../../filter/index.js';
import type { BBox } from '../../geometry/types.js';
import type { StoreTagDictionary } from '../../store/store-tag-dictionary.js';
import { checkAborted, type Columns } from './statements.js';
import type { SqlFlavor } from '../sql/flavor.js';
import type { RowGeometry } from '../sql/stats-rows.js';
import { areaMeasures, createBoundaryCache, type BoundaryCache } from './boundary-cache.js';
import { RunRepresentatives, representativeWkb } from './representative-wkb.js';
import { wkbVertexStrictlyInsideTest } from '../../geometry/clip.js';
import { unionOfAreas } from '../../query/area-plan.js';
import { bboxIntersectsSql, planAreaSql as planSqlArea, type SqlAreaPlan } from '../sql/area.js';
import { placedRowids, type EmptyGeometryState } from '../../query/empty-placement.js';
import { classifyWith, passesTypes, sameGeometry, type Contribution, type SideGeometry } from '../../query/contributions.js';
import { contributionTypeLabels, finishGroups, labelsOfCodes, MAX_ELEMENT_GROUPS, type Grouping } from '../../query/groups.js';
import { MaphistError } from '../../core/errors.js';
import { groupCoder as sqlGroupCoder } from '../sql/groups.js';
import type {
  AreaOfInterest,
  ContributionQuery,
  GroupedSeries,
  GroupKey,
  Measure,
  QueryEngine,
  RatioQuery,
  RatioSeries,
  SnapshotQuery,
} from '../../query/model.js';
import type {
  ContributionAggregateParams,
  ContributionAggregateRow,
  ContributionListParams,
  ContributionListRow,
  GeometryByRowidRow,
  SnapshotBoxesParams,
  SnapshotBoxRow,
  SnapshotParams,
  SnapshotRow,
} from '../sql/aggregation-rows.js';
import type { Statement } from '../sql/statement.js';
import { DiffSeries } from '../../query/time-plan.js';
import { measureClipped } from './boundary-measure-task.js';
import { sharedGeometryPool, worthPooling, type GeometryPool } from './geometry-pool.js';
import type { ClipOutcome } from './boundary-clip-task.js';
import { EdgeSide, type EdgeSideContext } from './edge-side.js';
import { v1ScopeSql } from './scope.js';
import { slicer } from '../../core/yielding.js';
import { areaKey, boundaryClipper, clipAllRemembered, type BoundaryClipperOptions } from './boundary-clipper.js';

/**
 * Snapshots per boundary over at least this many boxes run as one scan (`snapshotBoxesSql`); fewer
 * run a scan per box, each pruned to its own bbox (two boxes far apart would otherwise read every
 * row between them).
 */
export const BOX_SCAN_MIN_AREAS = 16;

/** What one snapshot scan asks, whatever its areas: the timestamps, the filter, the group code and its labels, the measure. */
interface SnapshotScan {
  timestamps: number[];
  whereSql: string;
  codeSql: string;
  labelsOf: (code: number) => string[];
  measure: Measure;
  signal: AbortSignal | undefined;
}

/** The bbox of the boxes (one scan's bound). */
function boundsOf(boxes: readonly BBox[]): BBox {
  const b: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x0, y0, x1, y1] of boxes) {
    b[0] = Math.min(b[0], x0);
    b[1] = Math.min(b[1], y0);
    b[2] = Math.max(b[2], x1);
    b[3] = Math.max(b[3], y1);
  }
  return b;
}

/** A contribution side's geometry of at least this many bytes of WKB (about 250 vertices) is clipped up front (edgeSides). */
const EAGER_CLIP_BYTES = 4096;

/**
 * One side of a contribution row for `edgeSides`: the element, and the rowid and geometry run of the
 * state whose geometry may be needed (null: none). Handed to a visitor rather than yielded as
 * tuples: a generator of tuples allocated about 2.4 MB per contributions/count request (issue 21).
 */
type SideRef = (type: number, id: number, rowid: number | null, run: number | null) => void;

/**
 * What the aggregation engine asks of its database: the statements, written in its SQL, and how
 * they run. The planning, the clipping and measuring of boundary rows, the classification of
 * contributions and the grouping are the same whatever answers the statements: DuckDB
 * (src/engines/duckdb/engine.ts `duckDbAggregationSql`), ClickHouse (src/engines/clickhouse/engine.ts).
 * Every statement's rows have the same columns and meaning on both (src/engines/sql/aggregation-rows.ts;
 * DuckDB's statements, src/engines/duckdb/sql/aggregation.ts, describe them).
 */
export interface AggregationSql {
  readonly flavor: SqlFlavor;
  readonly dictionary: StoreTagDictionary;
  /** The alias of `states` in the contribution statements ('' where they name its columns bare). */
  readonly contributionAlias: string;
  /** SQL: a version 1 filter, with the version 1 scope, on the rows of `alias`. */
  filterSql(filter: Filter, alias?: string): string;
  /** The states without geometry (src/engines/duckdb/empty-geometry.ts), read whole. */
  emptyGeometryStates(signal: AbortSignal | undefined): Promise<EmptyGeometryState[]>;
  snapshot(p: SnapshotParams): Statement<SnapshotRow>;
  /** Many boxes in one scan, or null where the database has no cheap join for it (then a scan per box). */
  snapshotBoxes: ((p: SnapshotBoxesParams) => Statement<SnapshotBoxRow>) | null;
  contributionAggregate(p: ContributionAggregateParams): Statement<ContributionAggregateRow>;
  contributionList(p: ContributionListParams): Statement<ContributionListRow>;
  /** The geometries of states by rowid (`geometriesByRowidSql`'s rows), run. */
  geometriesByRowid(rowids: readonly number[], intersectsSql: string, signal: AbortSignal | undefined): Promise<GeometryByRowidRow[]>;
  /**
   * The statement reading the geometries of states by rowid: states of elements with a state
   * meeting `area`'s bbox, which an engine may use to skip (ClickHouse: its element key test).
   */
  boundaryGeometries: (rowids: readonly number[], area: SqlAreaPlan) => Statement<RowGeometry>;
  /** Runs a statement, its rows as records; an abort stops it. */
  records<R>(st: Statement<R>, signal: AbortSignal | undefined): Promise<R[]>;
  /** As `records`, one array per column. */
  columns<R>(st: Statement<R>, signal: AbortSignal | undefined): Promise<Columns<R>>;
}

export interface SqlQueryEngine extends QueryEngine {
  readonly dictionary: StoreTagDictionary;
  /** The SQL the last snapshot/contribution query ran (for debugging and the README's examples). */
  lastSql?: string;
  /** Every contribution (before contributionTypes) in [t_0, t_last) in the union of the areas, by element then time. */
  listContributions(q: ContributionQuery): Promise<Contribution[]>;
  /**
   * Reads now what the first query would otherwise read inside its own time: the states without
   * geometry (`AggregationSql.emptyGeometryStates`; on the ×40 synthetic store it made the first
   * query after a server's start take 8 s).
   */
  preload(): Promise<void>;
}

export interface SqlQueryEngineOptions {
  /** The WKB of boundary geometries remembered between requests (shared with the v2 engine by the server). */
  boundaryCache?: BoundaryCache;
  /**
   * Where boundary rows are clipped and measured when there are at least `poolMinGeometries` of
   * them or their WKB is large (default: the process's pool, geometry-pool.ts `worthPooling`; fewer
   * and smaller are done on the calling thread, where a worker's round trip would cost more than it frees).
   */
  geometryPool?: GeometryPool;
  /** Default 64; 0 sends every batch to the pool, Infinity none. */
  poolMinGeometries?: number;
}

/** The aggregation engine over any database that writes the statements of `AggregationSql`. */
export async function createSqlQueryEngine(db: AggregationSql, options: SqlQueryEngineOptions = {}): Promise<SqlQueryEngine> {
  const boundaryCache = options.boundaryCache ?? createBoundaryCache();
  const poolMinGeometries = options.poolMinGeometries ?? 64;
  const poolOf = () => options.geometryPool ?? sharedGeometryPool();
  // Contribution sides are clipped by the same pool under the same choice (0: always, Infinity: never).
  const poolMin = options.poolMinGeometries;
  const clipperOptions: BoundaryClipperOptions = {
    pool: poolOf,
    ...(poolMin === undefined ? {} : { poolMinCount: poolMin, poolMinBytes: poolMin === 0 ? 0 : poolMin === Number.POSITIVE_INFINITY ? poolMin : undefined }),
  };
  /** The loops below give the event loop a turn every 10 ms (src/core/yielding.ts). */
  const pause = slicer();
  const dict = db.dictionary;
  const flavor = db.flavor;
  const filterSql = db.filterSql;
  /** The version 1 scope alone on the contribution statements' rows (`ContributionAggregateParams.elementScopeSql`). */
  const elementScopeSql = v1ScopeSql(db.contributionAlias || undefined);
  const planAreaSql = (area: AreaOfInterest, alias = '') => planSqlArea(area, alias, flavor);
  const groupCoder = (grouping: Grouping, d: StoreTagDictionary, cols?: { kv: string; mask: string }) => sqlGroupCoder(grouping, d, cols, flavor);

  /** The states without geometry (`AggregationSql.emptyGeometryStates`), read once (`preload`, or the first query that needs them). */
  let emptyStates: Promise<EmptyGeometryState[]> | undefined;
  function loadEmptyStates(): Promise<EmptyGeometryState[]> {
    if (!emptyStates) {
      emptyStates = db.emptyGeometryStates(undefined);
      emptyStates.catch(() => (emptyStates = undefined));
    }
    return emptyStates;
  }
  /**
   * `plan` with the rows without geometry that it places by their history's bbox for a query
   * whose rows match one of `filters` (src/query/empty-placement.ts): unchanged when there are
   * none. Snapshots skip the versions with zero members (the reference's snapshot iterator does),
   * contributions do not.
   */
  async function withPlaced(plan: SqlAreaPlan, filters: readonly Filter[], snapshot: boolean, signal: AbortSignal | undefined): Promise<SqlAreaPlan> {
    const states = await loadEmptyStates();
    checkAborted(signal);
    const predicates = filters.map((f) => compilePredicate(f));
    const rowids = placedRowids(states, plan.geometry, (s) => predicates.some((p) => p(s)), snapshot);
    return rowids.length === 0 ? plan : { ...plan, placedRowids: rowids };
  }

  /** Runs one statement on its own connection and reads its rows as records; an abort interrupts it. */
  function queryRecords<R>(st: Statement<R>, signal: AbortSignal | undefined): Promise<R[]> {
    engine.lastSql = st.text;
    return db.records(st, signal);
  }

  /** As `queryRecords`, read as one array per column (for results of many rows). */
  function queryColumns<R>(st: Statement<R>, signal: AbortSignal | undefined): Promise<Columns<R>> {
    engine.lastSql = st.text;
    return db.columns(st, signal);
  }

  /** The series of a scan per label, each made on first use; `seriesOf(code)` those of a group code. */
  function seriesByLabel(n: number, labelsOf: (code: number) => string[]) {
    const series = new Map<string, DiffSeries>();
    const byCode = new Map<number, DiffSeries[]>();
    const seriesOf = (code: number): DiffSeries[] => {
      let list = byCode.get(code);
      if (!list) {
        list = labelsOf(code).map((label) => {
          let s = series.get(label);
          if (!s) series.set(label, (s = new DiffSeries(n)));
          return s;
        });
        byCode.set(code, list);
      }
      return list;
    };
    return { series, seriesOf };
  }

  /** A boundary row of a snapshot scan: alive at [f, e), group code g, its rowid. */
  type BoundaryRow = [f: number, e: number, g: number, rowid: number];

  /**
   * The geometries of boundary rows by rowid (`geometriesByRowidSql`): each distinct WKB once,
   * `gidOf` naming a row's.
   */
  async function boundaryGeometries(rowids: number[], intersectsSql: string, signal: AbortSignal | undefined) {
    const gidOf = new Map<number, number>();
    const wkbOf = new Map<number, Uint8Array>();
    for (const { r, gid, geometry } of await db.geometriesByRowid(rowids, intersectsSql, signal)) {
      if (r === null) wkbOf.set(gid, geometry!);
      else gidOf.set(r, gid);
    }
    return { gidOf, wkbOf };
  }

  /** The boundary rows (their rowids, each once) whose measure `measured` does not hold yet. */
  function unmeasured(measured: Map<number, number | null>, boundary: readonly BoundaryRow[]): number[] {
    return [...new Set(boundary.map((r) => r[3]))].filter((rowid) => !measured.has(rowid));
  }

  /**
   * Measures the `missing` boundary rows clipped to `area` into `measured`, the boundary cache's
   * map for the area (`areaMeasures`; null: the clip is empty or the row has no geometry): each
   * distinct geometry clipped and measured once, many in the geometry pool's workers (the event
   * loop stays free for other requests), a few here.
   */
  async function measureBoundaryRows(
    area: AreaOfInterest,
    plan: SqlAreaPlan,
    measure: Measure,
    missing: readonly number[],
    geometries: { gidOf: Map<number, number>; wkbOf: Map<number, Uint8Array> },
    measured: Map<number, number | null>,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const measureOf = new Map<number, number | null>();
    const gids: number[] = [];
    for (const rowid of missing) {
      const gid = geometries.gidOf.get(rowid);
      if (gid !== undefined && !measureOf.has(gid) && geometries.wkbOf.has(gid)) {
        measureOf.set(gid, null);
        gids.push(gid);
      }
    }
    const wkbs = gids.map((gid) => geometries.wkbOf.get(gid)!);
    const values = worthPooling(wkbs, poolMinGeometries) ? await poolOf().measureClipped(area, measure, wkbs, signal) : measureClipped(plan, measure, wkbs);
    checkAborted(signal);
    gids.forEach((gid, k) => measureOf.set(gid, Number.isNaN(values[k]) ? null : values[k]));
    for (const rowid of missing) {
      const gid = geometries.gidOf.get(rowid);
      measured.set(rowid, (gid === undefined ? undefined : measureOf.get(gid)) ?? null);
    }
  }

  /** Adds the boundary rows' measures (`measureOf`, by rowid; null: nothing in the area) to their series. */
  async function addBoundaryRows(
    boundary: readonly BoundaryRow[],
    measureOf: Map<number, number | null>,
    seriesOf: (code: number) => DiffSeries[],
    signal: AbortSignal | undefined,
  ): Promise<void> {
    let i = 0;
    for (const [f, e, g, rowid] of boundary) {
      if ((++i & 255) === 0) {
        checkAborted(signal);
        await pause();
      }
      const value = measureOf.get(rowid);
      if (value === null || value === undefined) continue;
      for (const s of seriesOf(g)) s.add(value, 1, f, e);
    }
  }

  /**
   * The rows of a snapshot answer, with turns between every 1,024: an interior row (b = -1) is added
   * to its label's series, a boundary row kept to be clipped, a row alive at no timestamp skipped;
   * `target` says whose (one area's, or the row's box's).
   */
  async function splitSnapshotRows(
    rows: Columns<SnapshotRow>,
    signal: AbortSignal | undefined,
    target: (row: number) => { seriesOf: (code: number) => DiffSeries[]; boundary: BoundaryRow[] },
  ): Promise<void> {
    for (let row = 0; row < rows.rowCount; row++) {
      if (((row + 1) & 1023) === 0) {
        checkAborted(signal);
        await pause();
      }
      // Alive at no timestamp (DuckDB's statement leaves this test to us: SnapshotRow).
      if (rows.f[row] >= rows.e[row]) continue;
      const { seriesOf, boundary } = target(row);
      const b = rows.b[row];
      if (b === -1) {
        for (const s of seriesOf(rows.g[row])) s.add(rows.v[row], rows.n[row], rows.f[row], rows.e[row]);
        continue;
      }
      boundary.push([rows.f[row], rows.e[row], rows.g[row], b]);
    }
  }

  /**
   * One snapshot scan over one area: per label (from the group code), the series over the timestamps.
   */
  async function snapshotScan(area: AreaOfInterest, plan: SqlAreaPlan, scan: SnapshotScan): Promise<Map<string, DiffSeries>> {
    const { timestamps, whereSql, codeSql, labelsOf, measure, signal } = scan;
    const rows = await queryColumns(db.snapshot({ area: plan, timestamps, filterSql: whereSql, codeSql, measure }), signal);
    const { series, seriesOf } = seriesByLabel(timestamps.length, labelsOf);
    const boundary: BoundaryRow[] = [];
    await splitSnapshotRows(rows, signal, () => ({ seriesOf, boundary }));
    if (boundary.length === 0) return series;
    const measured = areaMeasures(boundaryCache, areaKey(area), measure);
    const missing = unmeasured(measured, boundary);
    if (missing.length > 0) {
      const geometries = await boundaryGeometries(missing, plan.intersectsSql, signal);
      await measureBoundaryRows(area, plan, measure, missing, geometries, measured, signal);
    }
    await addBoundaryRows(boundary, measured, seriesOf, signal);
    return series;
  }

  /**
   * `snapshotScan` for many areas that are their bbox, in one scan (`snapshotBoxesSql`): per area
   * (in order), its series per label. The boundary rows' geometries are read once for all areas
   * and clipped to each area they cross.
   */
  async function snapshotScanBoxes(
    areas: readonly AreaOfInterest[],
    plans: readonly SqlAreaPlan[],
    scan: SnapshotScan,
    snapshotBoxes: NonNullable<AggregationSql['snapshotBoxes']>,
  ): Promise<Map<string, DiffSeries>[]> {
    const { timestamps, whereSql, codeSql, labelsOf, measure, signal } = scan;
    const bounds = boundsOf(plans.map((plan) => plan.bbox));
    const placed = plans.flatMap((plan, a) => (plan.placedRowids ?? []).map((rid) => [a, rid] as const));
    const rows = await queryColumns(
      snapshotBoxes({ boxes: plans.map((plan) => plan.bbox), bounds, placed, timestamps, filterSql: whereSql, codeSql, measure }),
      signal,
    );
    const perArea = areas.map(() => ({ ...seriesByLabel(timestamps.length, labelsOf), boundary: [] as BoundaryRow[] }));
    await splitSnapshotRows(rows, signal, (row) => perArea[rows.a[row]]);
    const remembered = perArea.map(({ boundary }, a) => {
      if (boundary.length === 0) return null;
      const measured = areaMeasures(boundaryCache, areaKey(areas[a]), measure);
      return { measured, missing: unmeasured(measured, boundary) };
    });
    const rowids = [...new Set(remembered.flatMap((r) => r?.missing ?? []))].sort((x, y) => x - y);
    const geometries = rowids.length > 0 ? await boundaryGeometries(rowids, bboxIntersectsSql(bounds), signal) : null;
    for (const [a, { boundary, seriesOf }] of perArea.entries()) {
      const r = remembered[a];
      if (r === null) continue;
      if (r.missing.length > 0) await measureBoundaryRows(areas[a], plans[a], measure, r.missing, geometries!, r.measured, signal);
      await addBoundaryRows(boundary, r.measured, seriesOf, signal);
      const turn = pause();
      if (turn) {
        await turn;
        checkAborted(signal);
      }
    }
    return perArea.map((x) => x.series);
  }

  function finish(grouping: Grouping, series: Map<string, DiffSeries>, n: number): { key: GroupKey; values: number[] }[] {
    const found = new Map<string, { value: number[]; present: boolean }>();
    for (const [label, s] of series) {
      const { values, present } = s.values();
      found.set(label, { value: values, present });
    }
    return finishGroups(grouping, found, () => new Array(n).fill(0)).map(({ key, value }) => ({ key, values: value }));
  }

  async function aggregateSnapshots(q: SnapshotQuery): Promise<GroupedSeries> {
    checkAborted(q.signal);
    const where = filterSql(q.filter);
    const n = q.timestamps.length;
    const g = q.grouping;
    const scanOf = (coder: ReturnType<typeof groupCoder>): SnapshotScan => ({
      timestamps: q.timestamps,
      whereSql: where,
      codeSql: coder.codeSql,
      labelsOf: coder.labelsOf,
      measure: q.measure,
      signal: q.signal,
    });
    if (g.by === 'boundary' || g.by === 'boundaryAndTag') {
      const inner: Grouping = g.by === 'boundary' ? { by: 'none' } : { by: 'tag', key: g.key, values: g.values };
      const coder = groupCoder(inner, dict);
      const scan = scanOf(coder);
      const perArea: { area: AreaOfInterest; series: Map<string, DiffSeries> }[] = [];
      const plans: SqlAreaPlan[] = [];
      for (const area of q.areas) plans.push(await withPlaced(planAreaSql(area), [q.filter], true, q.signal));
      if (db.snapshotBoxes && plans.length >= BOX_SCAN_MIN_AREAS && plans.every((plan) => plan.rect && !plan.wholeWorld)) {
        const scanned = await snapshotScanBoxes(q.areas, plans, scan, db.snapshotBoxes);
        q.areas.forEach((area, a) => perArea.push({ area, series: scanned[a] }));
      } else {
        for (const [a, area] of q.areas.entries()) perArea.push({ area, series: await snapshotScan(area, plans[a], scan) });
      }
      if (g.by === 'boundary') {
        return { groups: perArea.map(({ area, series }) => ({ key: { kind: 'boundary', id: area.id }, values: finish(inner, series, n)[0].values })) };
      }
      // boundaryAndTag: every boundary gets the same tag groups (those present anywhere + requested).
      const all = new Map<string, DiffSeries>();
      const finished = perArea.map(({ series }) => {
        for (const [label, s] of series) if (s.values().present) all.set(label, s);
        return series;
      });
      const labels = finish(inner, all, n).map((r) => ({ key: r.key, text: keyText(r.key) }));
      const groups: GroupedSeries['groups'] = [];
      for (const [i, { area }] of perArea.entries()) {
        const values = new Map(finish(inner, finished[i], n).map((r) => [keyText(r.key), r.values]));
        for (const { key, text } of labels) {
          const tag = key.kind === 'tag' ? { key: key.key, value: key.value } : 'remainder';
          groups.push({ key: { kind: 'boundaryAndTag', id: area.id, tag }, values: values.get(text) ?? new Array(n).fill(0) });
        }
        const turn = pause();
        if (turn) {
          await turn;
          checkAborted(q.signal);
        }
      }
      return { groups };
    }
    const coder = groupCoder(g, dict);
    const union = unionOfAreas(q.areas);
    const series = await snapshotScan(union, await withPlaced(planAreaSql(union), [q.filter], true, q.signal), scanOf(coder));
    return { groups: finish(g, series, n) };
  }

  async function ratio(q: RatioQuery): Promise<RatioSeries> {
    checkAborted(q.signal);
    const f1 = filterSql(q.filter);
    const f2 = filterSql(q.filter2);
    const where = `(${f1} OR ${f2})`;
    const codeSql = `(CASE WHEN coalesce(${f1}, ${flavor.false}) THEN 1 ELSE 0 END + CASE WHEN coalesce(${f2}, ${flavor.false}) THEN 2 ELSE 0 END)`;
    const labelsOf = (code: number) => [...(code & 1 ? ['a'] : []), ...(code & 2 ? ['b'] : [])];
    const n = q.timestamps.length;
    const run = async (area: AreaOfInterest, key: GroupKey) => {
      const series = await snapshotScan(area, await withPlaced(planAreaSql(area), [q.filter, q.filter2], true, q.signal), {
        timestamps: q.timestamps,
        whereSql: where,
        codeSql,
        labelsOf,
        measure: q.measure,
        signal: q.signal,
      });
      const zero = new Array(n).fill(0);
      return { key, values: series.get('a')?.values().values ?? zero, values2: series.get('b')?.values().values ?? zero };
    };
    if (!q.perBoundary) return { groups: [await run(unionOfAreas(q.areas), { kind: 'total' })] };
    const groups: RatioSeries['groups'] = [];
    for (const area of q.areas) groups.push(await run(area, { kind: 'boundary', id: area.id }));
    return { groups };
  }

  /**
   * The geometry sides of contribution rows: `refs` hands (type, id, rowid, run) of the states whose
   * geometries are needed; one state per geometry run is read (through the boundary cache, so the
   * big geometries on an area's edge are read once per server, not per request), decoded and
   * clipped at most once, and whether a side is "in" is first settled by a vertex strictly inside
   * the area, read from the WKB without decoding it. The geometries whose clip will be needed are
   * clipped up front, together, in the geometry pool when they are many or large
   * (boundary-clipper.ts): one clip of a big polygon can hold the event loop for a second. Their
   * outcomes are remembered per area and run in the boundary cache, so a request over the same area
   * again clips none of them. Up front: with `compare` (the geometries of two sides are compared:
   * contribution types) every side; without, only a large side (EAGER_CLIP_BYTES) that no vertex
   * settles as meeting the area (clipping the others up front made users/count and
   * contributions/count about 50 % slower); the rest are clipped here when asked. Whether a side
   * meets the area is remembered too (the boundary cache's `measures`, as its `count`).
   */
  async function edgeSides(
    area: AreaOfInterest,
    plan: SqlAreaPlan,
    refs: (visit: SideRef) => void,
    signal: AbortSignal | undefined,
    compare: boolean,
  ): Promise<(type: number, id: number, run: number | null) => SideGeometry> {
    // A run's states share one geometry: one rowid stands for the run.
    const rowidOfRun = new RunRepresentatives();
    refs((type, id, rowid, run) => {
      if (rowid !== null && run !== null) rowidOfRun.keep(type, id, run, rowid);
    });
    const wkbOf =
      rowidOfRun.size > 0
        ? await representativeWkb(
            rowidOfRun.rowids(),
            boundaryCache.wkb,
            (st) => db.records(st, signal),
            signal,
            pause,
            (rowids) => db.boundaryGeometries(rowids, plan),
          )
        : new Map<number, Uint8Array | null>();
    const surelyMeets = wkbVertexStrictlyInsideTest(plan.rect ? plan.bbox : plan.geometry);
    const areaId = wkbOf.size > 0 ? areaKey(area) : '';
    // Whether a representative's clip is not empty, as earlier requests over this area found it:
    // its `count` measure (1 or null).
    const meetsOf = wkbOf.size > 0 ? areaMeasures(boundaryCache, areaId, 'count') : new Map<number, number | null>();
    const upFront: [number, Uint8Array][] = [];
    for (const [rowid, wkb] of wkbOf) {
      if (wkb === null) continue;
      if (compare || (wkb.length >= EAGER_CLIP_BYTES && !meetsOf.has(rowid) && !surelyMeets(wkb))) upFront.push([rowid, wkb]);
    }
    const outcomes =
      upFront.length > 0
        ? await clipAllRemembered(boundaryClipper(plan, area, clipperOptions), upFront, boundaryCache.clips, areaId, signal)
        : new Map<Uint8Array, ClipOutcome>();
    const ctx: EdgeSideContext = { plan, outcomes, meetsOf, surelyMeets, compared: boundaryCache.compared, areaId };
    const sides = new Map<number, EdgeSide>();
    const none: SideGeometry = { clipped: () => null, unclipped: () => null };
    return (type, id, run) => {
      const rowid = run === null ? undefined : rowidOfRun.get(type, id, run);
      const wkb = rowid === undefined ? undefined : wkbOf.get(rowid);
      if (rowid === undefined || !wkb) return none;
      let side = sides.get(rowid);
      if (!side) sides.set(rowid, (side = new EdgeSide(rowid, wkb, ctx)));
      return side;
    };
  }

  /**
   * All contributions (unfiltered by type) in [t_0, t_last) for one area, ordered by element then
   * time, with every flag exact (listContributions).
   */
  async function contributionsIn(area: AreaOfInterest, q: ContributionQuery): Promise<Contribution[]> {
    const plan = await withPlaced(planAreaSql(area, db.contributionAlias), [q.filter], false, q.signal);
    const rows = await queryRecords(
      db.contributionList({
        area: plan,
        timestamps: q.timestamps,
        filterSql: filterSql(q.filter, db.contributionAlias || undefined),
        elementScopeSql,
      }),
      q.signal,
    );
    const refs = (visit: SideRef) => {
      for (const r of rows) {
        visit(r.type, r.id, r.g_rid, r.run);
        visit(r.type, r.id, r.p_rid, r.p_run);
      }
    };
    const sideOf = await edgeSides(area, plan, refs, q.signal, true);
    const same = sameGeometry;
    const out: Contribution[] = [];
    let i = 0;
    for (const r of rows) {
      const {
        type,
        id,
        valid_from: validFrom,
        user_id: userId,
        deleted,
        m,
        hit,
        interior,
        p_deleted: pDeleted,
        p_m: pM,
        p_hit: pHit,
        p_interior: pInterior,
      } = r;
      const { tag_change: tagChange, geometry_change: geometryChangeFlag, tags, tags_before: tagsBefore, g_rid: gRid, p_rid: pRid, run, p_run: pRun } = r;
      if ((++i & 255) === 0) checkAborted(q.signal);
      // Each row may clip geometries: ask for a turn after every one (a clock read).
      const turn = pause();
      if (turn) {
        await turn;
        checkAborted(q.signal);
      }
      const c = classifyWith(
        {
          type,
          id,
          validFrom,
          userId,
          deleted,
          matches: m,
          hit,
          interior,
          prev: pDeleted === null ? null : { deleted: pDeleted, matches: pM === true, hit: pHit === true, interior: pInterior === true },
          tagChange,
          geometryChange: geometryChangeFlag,
          tags,
          tagsBefore,
        },
        sideOf(type, id, gRid === null ? null : run),
        sideOf(type, id, pRid === null ? null : pRun),
        { same },
      );
      if (c) out.push(c);
    }
    return out;
  }

  /**
   * contributions/count and users/count over one area: sure rows (no clipping matters) are
   * aggregated in SQL (`contributionAggregateSql`), the others classified here.
   */
  async function contributionAggregates(
    area: AreaOfInterest,
    q: ContributionQuery,
    mode: Mode,
    inner: Grouping,
  ): Promise<{ key: GroupKey; values: number[] }[]> {
    const users = mode === 'users';
    /**
     * groupBy/contributionType: sure rows (both sides inside the area) carry their store flags in
     * their group code; single rows are classified and labelled by their flags.
     */
    const byContributionType = inner.by === 'contributionType';
    const intervals = q.timestamps.length - 1;
    const plan = await withPlaced(planAreaSql(area, db.contributionAlias), [q.filter], false, q.signal);
    const coder = groupCoder(inner, dict);
    const before = groupCoder(inner, dict, { kv: 'tag_kv_before', mask: 'key_mask_before' });
    const sql = db.contributionAggregate({
      area: plan,
      timestamps: q.timestamps,
      filterSql: filterSql(q.filter, db.contributionAlias || undefined),
      elementScopeSql,
      codeSql: coder.codeSql,
      codeBeforeSql: before.codeSql,
      users,
      contributionTypes: q.contributionTypes,
      latest: mode === 'latest',
    });
    const rows = await queryColumns(sql, q.signal);
    const counts = new Map<string, { value: number[]; present: boolean }>();
    const userSets = new Map<string, Set<number>[]>();
    const totalUsers: Set<number>[] = Array.from({ length: intervals }, () => new Set());
    const add = (labels: readonly string[], k: number, n: number, userId: number) => {
      for (const label of labels) {
        if (users) {
          let sets = userSets.get(label);
          if (!sets) userSets.set(label, (sets = Array.from({ length: intervals }, () => new Set())));
          sets[k].add(userId);
        } else {
          let entry = counts.get(label);
          if (!entry) counts.set(label, (entry = { value: new Array(intervals).fill(0), present: true }));
          entry.value[k] += n;
        }
      }
      if (users) totalUsers[k].add(userId);
    };
    const KINDS = ['creation', 'deletion', 'change'] as const;
    const labelCache = new Map<string, string[]>();
    /** Labels by kind (0 creation, 1 deletion, 2 change) and the group codes of the tags after and before. */
    const labelsOf = (kind: number, g: number, gb: number): string[] => {
      const ck = `${kind}/${g}/${gb}`;
      let labels = labelCache.get(ck);
      if (!labels) labelCache.set(ck, (labels = labelsOfCodes(inner, coder, KINDS[kind], g, gb)));
      return labels;
    };
    /** The labels of a classified single row: by its flags (groupBy/contributionType) or by its kind and group codes. */
    const labelsOfSingle = (c: Contribution, g: number, gb: number): string[] =>
      byContributionType ? contributionTypeLabels(c) : labelsOf(c.creation ? 0 : c.deletion ? 1 : 2, g, gb);
    // A single row (n rows that classify alike) is kept as its index in the columns; its facts are not NULL.
    let singles: number[] = [];
    let i = 0;
    for (let row = 0; row < rows.rowCount; row++) {
      if ((++i & 1023) === 0) {
        checkAborted(q.signal);
        await pause();
      }
      const k = rows.k[row];
      const g = rows.g[row];
      const gb = rows.gb[row];
      const userId = rows.user_id[row]!;
      if (rows.b[row] === -1) add(labelsOf(rows.kind[row], g, gb), k, rows.n[row], userId);
      else singles.push(row);
    }
    if (users) {
      // A single row can only add its user to the sets of its labels in its interval: when the user
      // is already in all of them (whatever the row's kind turns out to be), it changes nothing and
      // needs neither its geometry nor a classification.
      const counted = (k: number, g: number, gb: number, userId: number) =>
        totalUsers[k].has(userId) && [0, 1, 2].every((kind) => labelsOf(kind, g, gb).every((label) => userSets.get(label)?.[k].has(userId) === true));
      singles = singles.filter((row) => !counted(rows.k[row], rows.g[row], rows.gb[row], rows.user_id[row]!));
    }
    const refs = (visit: SideRef) => {
      for (const row of singles) {
        visit(rows.type[row]!, rows.id[row]!, rows.g_rid[row], rows.run[row]);
        visit(rows.type[row]!, rows.id[row]!, rows.p_rid[row], rows.p_run[row]);
      }
    };
    const sideOf = await edgeSides(area, plan, refs, q.signal, q.contributionTypes !== undefined || byContributionType);
    const same = sameGeometry;
    // latest: per element, the single with the highest `ord` that classifies as a contribution.
    const latestOf = new Map<string, { ord: number; c: Contribution; k: number; g: number; gb: number }>();
    for (const row of singles) {
      if ((++i & 255) === 0) checkAborted(q.signal);
      // Each row may clip geometries: ask for a turn after every one (a clock read).
      const turn = pause();
      if (turn) {
        await turn;
        checkAborted(q.signal);
      }
      const k = rows.k[row];
      const g = rows.g[row];
      const gb = rows.gb[row];
      const userId = rows.user_id[row]!;
      const type = rows.type[row]!;
      const id = rows.id[row]!;
      const validFrom = rows.valid_from[row]!;
      const deleted = rows.deleted[row]!;
      const m = rows.m[row]!;
      const hit = rows.hit[row]!;
      const interior = rows.interior[row]!;
      const pDeleted = rows.p_deleted[row];
      const pM = rows.p_m[row];
      const pHit = rows.p_hit[row];
      const pInterior = rows.p_interior[row];
      const tagChange = rows.tag_change[row]!;
      const geometryChange = rows.geometry_change[row]!;
      const gRid = rows.g_rid[row];
      const pRid = rows.p_rid[row];
      const run = rows.run[row];
      const pRun = rows.p_run[row];
      const ord = rows.ord[row];
      const c = classifyWith(
        {
          type,
          id,
          validFrom,
          userId,
          deleted,
          matches: m,
          hit,
          interior,
          prev: pDeleted === null ? null : { deleted: pDeleted, matches: pM === true, hit: pHit === true, interior: pInterior === true },
          tagChange,
          geometryChange,
          tags: [],
          tagsBefore: [],
        },
        sideOf(type, id, gRid === null ? null : run),
        sideOf(type, id, pRid === null ? null : pRun),
        { geometryChange: q.contributionTypes !== undefined || byContributionType, same },
      );
      if (!c) continue;
      if (mode === 'latest') {
        const key = `${type}/${id}`;
        const last = latestOf.get(key);
        if (!last || last.ord < ord!) latestOf.set(key, { ord: ord!, c, k, g, gb });
        continue;
      }
      if (!passesTypes(c, q.contributionTypes)) continue;
      add(labelsOfSingle(c, g, gb), k, rows.n[row], userId);
    }
    for (const { c, k, g, gb } of latestOf.values()) {
      if (passesTypes(c, q.contributionTypes)) add(labelsOfSingle(c, g, gb), k, 1, c.userId);
    }
    if (inner.by === 'element' && userSets.size > MAX_ELEMENT_GROUPS) {
      throw new MaphistError(
        'PAYLOAD_TOO_LARGE',
        `The answer would have ${userSets.size.toLocaleString('en-US')} elements; at most ${MAX_ELEMENT_GROUPS.toLocaleString('en-US')} are answered by groupBy/element. Ask for a smaller area, a shorter time range or a narrower filter.`,
      );
    }
    if (users) for (const [label, sets] of userSets) counts.set(label, { value: sets.map((s) => s.size), present: true });
    const total = users && (inner.by === 'tag' || inner.by === 'key') ? totalUsers.map((s) => s.size) : undefined;
    return finishGroups(inner, counts, () => new Array(intervals).fill(0), { total }).map(({ key, value }) => ({ key, values: value }));
  }

  type Mode = 'count' | 'users' | 'latest';

  async function contributionSeries(q: ContributionQuery, mode: Mode): Promise<GroupedSeries> {
    checkAborted(q.signal);
    const g = q.grouping;
    const perArea = g.by === 'boundary';
    const inner: Grouping = g.by === 'boundary' ? { by: 'none' } : g;
    const areas = perArea ? q.areas : [unionOfAreas(q.areas)];
    const results: { area: AreaOfInterest; groups: { key: GroupKey; values: number[] }[] }[] = [];
    for (const area of areas) results.push({ area, groups: await contributionAggregates(area, q, mode, inner) });
    if (perArea) return { groups: results.map(({ area, groups }) => ({ key: { kind: 'boundary', id: area.id }, values: groups[0].values })) };
    return { groups: results[0].groups };
  }

  const engine: SqlQueryEngine = {
    dictionary: dict,
    listContributions: (q) => contributionsIn(unionOfAreas(q.areas), q),
    aggregateSnapshots,
    ratio,
    countUsers: (q) => contributionSeries(q, 'users'),
    countContributions: (q) => contributionSeries(q, 'count'),
    countLatestContributions: (q) => contributionSeries(q, 'latest'),
    preload: async () => {
      await loadEmptyStates();
    },
  };
  return engine;
}

/** A group key as text (a map key): equal keys, equal texts. */
function keyText(k: GroupKey): string {
  return JSON.stringify(k);
}
