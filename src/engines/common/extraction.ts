/**
 * The version 1 extraction engine over any SQL database: streams the features of an extraction
 * query (query/extraction.ts) batch by batch from the database, never materialising the whole
 * result in JavaScript. Boundary rows are clipped with the same kernel as the aggregations
 * (SqlAreaPlan.clip), so a feature is extracted exactly when the aggregations count it; the
 * geometries of a group of rows are clipped in one call, in the geometry pool when they are many or
 * large (boundary-clipper.ts), so that one large clip does not hold the event loop.
 *
 * The iterator pulls the next group of rows only when the consumer asks for more (backpressure
 * reaches the database). Ending the iteration early (return()) or aborting the signal stops the
 * statement.
 *
 * The batching, clipping, version facts and classification are written over `ExtractionSql` (the
 * statements in a database's SQL and how they run), as the aggregation engine is over
 * `AggregationSql` (engine.ts): DuckDB's in src/engines/duckdb/extraction.ts, ClickHouse's in
 * src/engines/clickhouse/extraction.ts.
 */
import type { Filter } from '../../filter/index.js';
import { decodeWkb } from '../../geometry/wkb.js';
import type { Geometry } from '../../geometry/types.js';
import type { StoreTagDictionary } from '../../store/store-tag-dictionary.js';
import { checkAborted, type StreamOptions } from './statements.js';
import { unionOfAreas } from '../../query/area-plan.js';
import { planAreaSql, type SqlAreaPlan } from '../sql/area.js';
import type { SqlFlavor } from '../sql/flavor.js';
import { classifyWith, type ContributionRow, type SideGeometry } from '../../query/contributions.js';
import type { AreaOfInterest } from '../../query/model.js';
import { outcomeOf, outcomeGeometry, type ClipOutcome } from './boundary-clip-task.js';
import { boundaryClipper, withClipOutcomes, type BoundaryClipper, type BoundaryClipperOptions } from './boundary-clipper.js';
import {
  batchCount,
  idBatches,
  splitBatch,
  type ExtractedFeature,
  type ExtractionEngine,
  type ExtractionQuery,
  type IdBatch,
  type TypeRows,
} from '../../query/extraction.js';
import type {
  CandidateRows,
  ContributionExtractionParams,
  ContributionExtractionRow,
  FullHistoryExtractionParams,
  FullHistoryExtractionRow,
  SnapshotExtractionParams,
  SnapshotExtractionRow,
  TypeRowsRow,
  VersionStateRow,
} from '../sql/extraction-rows.js';
import type { Statement } from '../sql/statement.js';

/** The extraction engine over SQL: the contract (src/query/extraction.ts) and the dictionary it reads. */
export interface SqlExtractionEngine extends ExtractionEngine {
  readonly dictionary: StoreTagDictionary;
  /** The SQL an extraction query runs, all rows, not batched (bench/extract.bench.ts, debugging). */
  sqlOf(q: ExtractionQuery): string;
}

/**
 * What the extraction engine asks of its database: the statements of src/engines/sql/extraction-rows.ts
 * (DuckDB's in src/engines/duckdb/sql/extraction.ts describe them), written in its SQL (every
 * statement's rows have the same columns and meaning), and how they run. The area's
 * tests are on the rows of `alias`, written in `flavor`; the conditions (`candidatesWhere`,
 * `contributionElementsWhere`, `batchSql`) and the filter name the same alias.
 */
export interface ExtractionSql {
  readonly flavor: SqlFlavor;
  readonly dictionary: StoreTagDictionary;
  /** The alias of `states` in the statements' conditions ('' where they name its columns bare). */
  readonly alias: string;
  /** SQL: a version 1 filter, with the version 1 scope, on the rows of `alias`. */
  filterSql(filter: Filter): string;
  snapshot(p: SnapshotExtractionParams): Statement<SnapshotExtractionRow>;
  fullHistory(p: FullHistoryExtractionParams): Statement<FullHistoryExtractionRow>;
  contributions(p: ContributionExtractionParams): Statement<ContributionExtractionRow>;
  candidatesWhere(p: CandidateRows): string;
  contributionElementsWhere(p: { area: SqlAreaPlan; t2: number }): string;
  batchSql(b: IdBatch): string;
  typeRows(where: string): Statement<TypeRowsRow>;
  idCuts(p: { where: string; type: number; parts: number }): Statement<{ cuts: number[] }>;
  versionStates(p: CandidateRows, batch: IdBatch): Statement<VersionStateRow>;
  /** Runs a small statement (batch plans, version facts), its rows as records; an abort stops it. */
  records<R>(st: Statement<R>, signal: AbortSignal | undefined): Promise<R[]>;
  /**
   * Runs a statement, its rows as records a group at a time, the next group read when the consumer
   * asks for it; `spilling`: a statement that may spill (sorts, not windows). Ending the iteration
   * early or aborting the signal stops the statement.
   */
  stream<R>(st: Statement<R>, options: StreamOptions): AsyncGenerator<Iterable<R>, void, undefined>;
  /** Whether the error of a statement that gave no row yet is the database's memory running out (its batch is then cut in two). */
  outOfMemory(e: Error): boolean;
}

export type { ExtractionEngine } from '../../query/extraction.js';

/** How many times over a batch that does not fit the streaming instance is cut in two. */
const SPLITS = 4;

/** A batch's member-induced states' version facts: "id/version" → [the version's changeset, its start]. */
type VersionFacts = Map<string, [number, number]>;
const versionKey = (id: number, version: number) => `${id}/${version}`;
/** The version facts a state reports: its version's, when it is member-induced (minor > 0) and they were found. */
const ownVersion = (versions: VersionFacts, id: number, version: number, minor: number) => (minor > 0 ? versions.get(versionKey(id, version)) : undefined);

function tagsOf(k: readonly string[], v: readonly string[]): [string, string][] {
  const out: [string, string][] = new Array(k.length);
  for (let i = 0; i < k.length; i++) out[i] = [k[i], v[i]];
  return out;
}

/** One side of a contribution for `classifyWith`: its clip from the group's outcomes, each geometry decoded once. */
function sideOf(plan: SqlAreaPlan, wkb: Uint8Array | null, outcomes: ReadonlyMap<Uint8Array, ClipOutcome>): SideGeometry {
  let whole: Geometry | null | undefined;
  let clipped: Geometry | null | undefined;
  const unclipped = () => (whole ??= wkb === null ? null : decodeWkb(wkb));
  return {
    unclipped,
    clipped() {
      if (clipped !== undefined) return clipped;
      if (wkb === null) return (clipped = null);
      const outcome = outcomeOf(outcomes, plan, wkb);
      return (clipped = outcome === 'same' ? unclipped() : outcomeGeometry(outcome, wkb));
    },
  };
}

export interface ExtractionEngineOptions {
  /** Called when a batch did not fit the streaming instance and is cut in two (tests, logs). */
  onBatchSplit?: (batch: IdBatch) => void;
  /** Where boundary rows are clipped (boundary-clipper.ts; tests set the thresholds). */
  clipper?: BoundaryClipperOptions;
  /** At most this many rows in one id batch (tests: many batches of a small store); default BATCH_ROWS. */
  batchRows?: number;
}

/** An extraction's area with its plan and the clipper of its boundary rows. */
interface Area {
  plan: SqlAreaPlan;
  clipper: BoundaryClipper;
}

/** The extraction engine over any database that writes the statements of `ExtractionSql`. */
export function createSqlExtractionEngine(db: ExtractionSql, options: ExtractionEngineOptions = {}): SqlExtractionEngine {
  const d = db.dictionary;
  const filterSql = (q: ExtractionQuery) => db.filterSql(q.filter);
  const {
    snapshot: snapshotExtractionSql,
    fullHistory: fullHistoryExtractionSql,
    contributions: contributionExtractionSql,
    candidatesWhere,
    contributionElementsWhere,
    typeRows: typeRowsSql,
    idCuts: idCutsSql,
    versionStates: versionStatesSql,
  } = db;
  const batchSql = (b: IdBatch) => db.batchSql(b);
  const areaOf = (q: ExtractionQuery): Area => {
    const aoi: AreaOfInterest = unionOfAreas(q.areas);
    const plan = planAreaSql(aoi, db.alias, db.flavor);
    return { plan, clipper: boundaryClipper(plan, aoi, options.clipper) };
  };
  const planOf = (q: ExtractionQuery) => areaOf(q).plan;

  /** The extraction's SQL (`sqlOf`): the statement of all rows, not batched. */
  function sqlFor(q: ExtractionQuery, plan: SqlAreaPlan): string {
    const ts = q.timestamps;
    switch (q.kind) {
      case 'snapshot':
      case 'fullHistory':
        return rowsStatement(q, plan).text;
      case 'contributions':
      case 'latestContributions':
        return contributionExtractionSql({ area: plan, t1: ts[0], t2: ts[ts.length - 1], filterSql: filterSql(q) }).text;
    }
  }

  /** A snapshot (`kind` 'snapshot') or full-history extraction's statement; `batch`: only the rows of one id batch. */
  function rowsStatement(q: ExtractionQuery, plan: SqlAreaPlan, batch?: IdBatch): Statement<SnapshotExtractionRow> | Statement<FullHistoryExtractionRow> {
    return q.kind === 'snapshot' ? snapshotStatement(q, plan, batch) : fullHistoryStatement(q, plan, batch);
  }
  const batchWhere = (q: ExtractionQuery, batch?: IdBatch) => (batch ? `(${filterSql(q)} AND ${batchSql(batch)})` : filterSql(q));
  const snapshotStatement = (q: ExtractionQuery, plan: SqlAreaPlan, batch?: IdBatch) =>
    snapshotExtractionSql({ area: plan, timestamps: q.timestamps, filterSql: batchWhere(q, batch), points: batch?.type === 0 });
  const fullHistoryStatement = (q: ExtractionQuery, plan: SqlAreaPlan, batch?: IdBatch) =>
    fullHistoryExtractionSql({
      area: plan,
      t1: q.timestamps[0],
      t2: q.timestamps[q.timestamps.length - 1],
      filterSql: batchWhere(q, batch),
      points: batch?.type === 0,
    });

  /**
   * The geometry a row's feature carries: the clipped geometry with `clipGeometry`, else the whole
   * one; null when the clip is empty, and for an element without any geometry — a way or relation
   * whose members are all missing —, which a whole-world area keeps: there is nothing to extract;
   * see area-plan.ts. A boundary row's WKB was clipped with its group (`outcomes`, from
   * `withClipOutcomes`). A node row of a batch of nodes carries no WKB but the point's `x` and `y`.
   */
  function geometryOf(
    plan: SqlAreaPlan,
    interior: boolean,
    wkb: Uint8Array | null,
    clipGeometry: boolean,
    outcomes: ReadonlyMap<Uint8Array, ClipOutcome>,
    x: number | null = null,
    y: number | null = null,
  ): Geometry | null {
    if (wkb === null) {
      if (x === null || y === null) return null;
      const point: Geometry = { type: 'Point', coordinates: [x, y] };
      if (interior) return point;
      const clipped = plan.clip(point);
      if (clipped === null) return null;
      return clipGeometry ? clipped : point;
    }
    if (interior) return decodeWkb(wkb);
    const outcome = outcomeOf(outcomes, plan, wkb);
    if (outcome === null) return null;
    return clipGeometry ? outcomeGeometry(outcome, wkb) : decodeWkb(wkb);
  }

  /** The WKB of a snapshot or full-history row that needs clipping. */
  const boundaryWkb = (r: SnapshotExtractionRow | FullHistoryExtractionRow, need: (wkb: Uint8Array) => void) => {
    if (!r.interior && r.geometry !== null) need(r.geometry);
  };

  /**
   * The id batches of the rows that meet `where`, in (type, id) order, each with its type's row
   * counts (query/extraction.ts `typeRowsSql`, `batchCount`, `idCutsSql`, `idBatches`).
   */
  async function* idBatchesOf(where: string, signal: AbortSignal | undefined): AsyncGenerator<{ batch: IdBatch; rows: TypeRows }, void, undefined> {
    const types: TypeRows[] = await db.records(typeRowsSql(where), signal);
    for (const rows of types) {
      const parts = batchCount(rows, options.batchRows);
      const cuts = parts > 1 ? (await db.records(idCutsSql({ where, type: rows.type, parts }), signal))[0].cuts : [];
      for (const batch of idBatches(rows.type, cuts)) yield { batch, rows };
    }
  }

  /**
   * The rows of a snapshot or full-history extraction, batch by batch: each statement sorts only
   * its batch. With each batch come its member-induced states' version facts
   * (`versionStatesSql`), when it has any.
   */
  async function* batchedRows(
    q: ExtractionQuery,
    plan: SqlAreaPlan,
  ): AsyncGenerator<{ rows: Iterable<SnapshotExtractionRow | FullHistoryExtractionRow>; versions: VersionFacts }, void, undefined> {
    const ts = q.timestamps;
    const candidates: CandidateRows = {
      area: plan,
      kind: q.kind === 'snapshot' ? 'snapshot' : 'fullHistory',
      t1: ts[0],
      t2: ts[ts.length - 1],
      filterSql: filterSql(q),
    };
    for await (const { batch, rows } of idBatchesOf(candidatesWhere(candidates), q.signal)) {
      const versions: VersionFacts = new Map();
      if (rows.minor > 0) {
        for (const { id, version, changeset, valid_from } of await db.records(versionStatesSql(candidates, batch), q.signal)) {
          versions.set(versionKey(id, version), [changeset, valid_from]);
        }
      }
      for await (const chunk of sortedBatch(q, plan, candidates, batch, 0)) yield { rows: chunk, versions };
    }
  }

  /**
   * The rows of one batch from the streaming instance. Batch sizes are estimates: when DuckDB
   * runs out of memory before the first row (in the batch's sort; `ExtractionSql.outOfMemory`),
   * the batch is cut in two at a sampled id and each half is tried in turn (at most SPLITS times over).
   */
  async function* sortedBatch(
    q: ExtractionQuery,
    plan: SqlAreaPlan,
    candidates: CandidateRows,
    batch: IdBatch,
    splits: number,
  ): AsyncGenerator<Iterable<SnapshotExtractionRow | FullHistoryExtractionRow>, void, undefined> {
    let started = false;
    try {
      const options = { signal: q.signal, spilling: true };
      const chunks: AsyncGenerator<Iterable<SnapshotExtractionRow | FullHistoryExtractionRow>, void, undefined> = q.kind === 'snapshot'
        ? db.stream(snapshotStatement(q, plan, batch), options)
        : db.stream(fullHistoryStatement(q, plan, batch), options);
      for await (const rows of chunks) {
        started = true;
        yield rows;
      }
    } catch (e) {
      if (started || splits >= SPLITS || !db.outOfMemory(e as Error)) throw e;
      const where = `${candidatesWhere(candidates)} AND ${batchSql(batch)}`;
      options.onBatchSplit?.(batch);
      const [cut] = (await db.records(idCutsSql({ where, type: batch.type, parts: 2 }), q.signal))[0].cuts;
      const halves = cut === undefined ? null : splitBatch(batch, cut);
      if (halves === null) throw e;
      for (const half of halves) yield* sortedBatch(q, plan, candidates, half, splits + 1);
    }
  }

  /**
   * The rows of a contributions extraction, batch by batch: each statement's window functions see
   * only its batch's elements. They run on the main instance: DuckDB's windows do not fit the
   * streaming instance's 64 MB even for one batch.
   */
  async function* contributionRows(q: ExtractionQuery, plan: SqlAreaPlan): AsyncGenerator<Iterable<ContributionExtractionRow>, void, undefined> {
    const ts = q.timestamps;
    for await (const { batch } of idBatchesOf(contributionElementsWhere({ area: plan, t2: ts[ts.length - 1] }), q.signal)) {
      const st = contributionExtractionSql({ area: plan, t1: ts[0], t2: ts[ts.length - 1], filterSql: filterSql(q), batchSql: batchSql(batch) });
      yield* db.stream(st, { signal: q.signal });
    }
  }

  async function* snapshots(q: ExtractionQuery, { plan, clipper }: Area): AsyncGenerator<ExtractedFeature, void, undefined> {
    for await (const { rows, versions } of batchedRows(q, plan)) {
      // q.kind 'snapshot': the rows of snapshotExtractionSql (streamRecords checked its columns).
      for await (const group of withClipOutcomes(rows as Iterable<SnapshotExtractionRow>, boundaryWkb, clipper, q.signal))
        for (const r of group.rows) {
          const geometry = geometryOf(plan, r.interior, r.geometry, q.clipGeometry, group.outcomes, r.x, r.y);
          if (geometry === null) continue;
          const own = ownVersion(versions, r.id, r.version, r.minor_version);
          yield {
            type: r.type,
            id: r.id,
            version: r.version,
            changeset: own?.[0] ?? r.changeset,
            time: r.ts,
            time2: own?.[1] ?? r.valid_from,
            geometry,
            tags: tagsOf(r.tag_keys, r.tag_values),
          };
        }
      checkAborted(q.signal);
    }
  }

  async function* fullHistory(q: ExtractionQuery, { plan, clipper }: Area): AsyncGenerator<ExtractedFeature, void, undefined> {
    const boundary = (r: FullHistoryExtractionRow, need: (wkb: Uint8Array) => void) => {
      if (r.valid_from < r.valid_to) boundaryWkb(r, need);
    };
    for await (const { rows, versions } of batchedRows(q, plan)) {
      // q.kind 'fullHistory': the rows of fullHistoryExtractionSql (streamRecords checked its columns).
      for await (const group of withClipOutcomes(rows as Iterable<FullHistoryExtractionRow>, boundary, clipper, q.signal))
        for (const r of group.rows) {
          if (r.valid_from >= r.valid_to) continue;
          const geometry = geometryOf(plan, r.interior, r.geometry, q.clipGeometry, group.outcomes, r.x, r.y);
          if (geometry === null) continue;
          const own = ownVersion(versions, r.id, r.version, r.minor_version);
          yield {
            type: r.type,
            id: r.id,
            version: r.version,
            changeset: own?.[0] ?? r.changeset,
            time: r.valid_from,
            time2: r.valid_to,
            geometry,
            tags: tagsOf(r.tag_keys, r.tag_values),
          };
        }
      checkAborted(q.signal);
    }
  }

  async function* contributions(q: ExtractionQuery, { plan, clipper }: Area, latest: boolean): AsyncGenerator<ExtractedFeature, void, undefined> {
    let pending: ExtractedFeature | undefined;
    // The sides the classification clips: a state that can be "in" (not deleted, matching, hit)
    // and is not interior; the current side's clip is also what the feature carries.
    const boundary = (r: ContributionExtractionRow, need: (wkb: Uint8Array) => void) => {
      if (r.geom !== null && !r.interior && !r.deleted && r.m && r.hit) need(r.geom);
      if (r.p_geom !== null && r.p_deleted === false && r.p_m === true && r.p_hit === true && r.p_interior !== true) need(r.p_geom);
    };
    for await (const rows of contributionRows(q, plan)) {
      for await (const group of withClipOutcomes(rows, boundary, clipper, q.signal))
        for (const r of group.rows) {
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
          const {
            tag_change: tagChange,
            geometry_change: geometryChange,
            tags,
            tags_before: tagsBefore,
            geom,
            p_geom: pGeom,
            version,
            version_changeset: versionChangeset,
            changeset,
          } = r;
          const row: ContributionRow = {
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
            tags,
            tagsBefore,
            geometry: geom,
            prevGeometry: pGeom,
          };
          const c = classifyWith(row, sideOf(plan, geom, group.outcomes), sideOf(plan, pGeom, group.outcomes));
          if (c === null) continue;
          let geometry: Geometry | null = null;
          if (!c.deletion && geom !== null) geometry = geometryOf(plan, interior, geom, q.clipGeometry, group.outcomes);
          const feature: ExtractedFeature = {
            type,
            id,
            version,
            changeset: versionChangeset,
            time: validFrom,
            geometry,
            tags: c.deletion ? [] : tagsOf(r.tag_keys, r.tag_values),
            contribution: { changeset, creation: c.creation, deletion: c.deletion, tagChange: c.tagChange, geometryChange: c.geometryChange },
          };
          if (!latest) {
            yield feature;
            continue;
          }
          if (pending !== undefined && (pending.type !== type || pending.id !== id)) yield pending;
          pending = feature;
        }
      checkAborted(q.signal);
    }
    if (pending !== undefined) yield pending;
  }

  return {
    dictionary: d,
    sqlOf: (q) => sqlFor(q, planOf(q)),
    extract(q) {
      const area = areaOf(q);
      switch (q.kind) {
        case 'snapshot':
          return snapshots(q, area);
        case 'fullHistory':
          return fullHistory(q, area);
        case 'contributions':
          return contributions(q, area, false);
        case 'latestContributions':
          return contributions(q, area, true);
      }
    },
  };
}
