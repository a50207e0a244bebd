/**
 * The DuckDB extraction engine: streams the features of an extraction query (query/extraction.ts)
 * chunk by chunk from DuckDB (`connection.stream` + `fetchChunk`), never materialising the whole
 * result in JavaScript. Boundary rows are clipped with the same kernel as the aggregations
 * (SqlAreaPlan.clip), so a feature is extracted exactly when the aggregations count it.
 *
 * The iterator pulls the next chunk only when the consumer asks for more (backpressure reaches
 * DuckDB). Ending the iteration early (return()) or aborting the signal interrupts the statement
 * and closes the connection.
 */
import { compileSql, duckdbDialect } from '../../filter/index.js';
import { decodeWkb } from '../../geometry/wkb.js';
import type { Geometry } from '../../geometry/types.js';
import type { Store } from '../../store/open-store.js';
import { dictionaryOf, type StoreTagDictionary } from '../../store/store-tag-dictionary.js';
import { checkAborted, readRecords, streamRecords } from './statements.js';
import { withV1Scope } from './scope.js';
import { lazyChunkRecords } from './chunk-rows.js';
import { unionOfAreas } from '../../query/area-plan.js';
import { planAreaSql, type SqlAreaPlan } from './sql/area.js';
import { classifyContribution, type ContributionRow } from '../../query/contributions.js';
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
import {
  batchSql,
  candidatesWhere,
  contributionElementsWhere,
  contributionExtractionSql,
  fullHistoryExtractionSql,
  idCutsSql,
  snapshotExtractionSql,
  typeRowsSql,
  versionStatesSql,
  type CandidateRows,
  type ContributionExtractionRow,
  type FullHistoryExtractionRow,
  type SnapshotExtractionRow,
} from './sql/extraction.js';
import type { Statement } from './sql/statement.js';

/** The DuckDB extraction engine: the contract (src/query/extraction.ts) and the dictionary it reads. */
export interface DuckDbExtractionEngine extends ExtractionEngine {
  readonly dictionary: StoreTagDictionary;
  /** The SQL an extraction query runs, all rows, not batched (bench/extract.bench.ts, debugging). */
  sqlOf(q: ExtractionQuery): string;
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

export interface ExtractionEngineOptions {
  /** Called when a batch did not fit the streaming instance and is cut in two (tests, logs). */
  onBatchSplit?: (batch: IdBatch) => void;
}

export async function createDuckDbExtractionEngine(
  store: Store,
  dictionary?: StoreTagDictionary,
  options: ExtractionEngineOptions = {},
): Promise<DuckDbExtractionEngine> {
  const d = await dictionaryOf(store, dictionary);
  // The v1 scope comes with every filter: never-tagged nodes are extracted by no route (scope.ts).
  const filterSql = (q: ExtractionQuery) => withV1Scope(q.filter, compileSql(q.filter, { dialect: duckdbDialect, dictionary: d, tableAlias: 'st' }).sql, 'st');
  const planOf = (q: ExtractionQuery) => planAreaSql(unionOfAreas(q.areas), 'st');

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
   * The clipped geometry of a row (null when the clip is empty, and for an element without any
   * geometry — a way or relation whose members are all missing —, which a whole-world area keeps:
   * there is nothing to extract; see area-plan.ts); `output` is what the feature carries. A node
   * row of a batch of nodes carries no WKB but the point's `x` and `y`.
   */
  function geometryOf(
    plan: SqlAreaPlan,
    interior: boolean,
    wkb: Uint8Array | null,
    clipGeometry: boolean,
    x: number | null = null,
    y: number | null = null,
  ): Geometry | null {
    let g: Geometry;
    if (wkb !== null) g = decodeWkb(wkb);
    else if (x !== null && y !== null) g = { type: 'Point', coordinates: [x, y] };
    else return null;
    if (interior) return g;
    const clipped = plan.clip(g);
    if (clipped === null) return null;
    return clipGeometry ? clipped : g;
  }

  /**
   * The id batches of the rows that meet `where`, in (type, id) order, each with its type's row
   * counts (query/extraction.ts `typeRowsSql`, `batchCount`, `idCutsSql`, `idBatches`).
   */
  async function* idBatchesOf(where: string, signal: AbortSignal | undefined): AsyncGenerator<{ batch: IdBatch; rows: TypeRows }, void, undefined> {
    const types: TypeRows[] = await readRecords(store, typeRowsSql(where), signal, true);
    for (const rows of types) {
      const parts = batchCount(rows);
      const cuts = parts > 1 ? (await readRecords(store, idCutsSql({ where, type: rows.type, parts }), signal, true))[0].cuts : [];
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
        for (const { id, version, changeset, valid_from } of await readRecords(store, versionStatesSql(candidates, batch), q.signal, true)) {
          versions.set(versionKey(id, version), [changeset, valid_from]);
        }
      }
      for await (const chunk of sortedBatch(q, plan, candidates, batch, 0)) yield { rows: chunk, versions };
    }
  }

  /**
   * The rows of one batch from the streaming instance. Batch sizes are estimates: when DuckDB
   * runs out of memory before the first row (in the batch's sort), the batch is cut in two at a
   * sampled id and each half is tried in turn (at most SPLITS times over).
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
        ? streamRecords(store, snapshotStatement(q, plan, batch), options, lazyChunkRecords<SnapshotExtractionRow>)
        : streamRecords(store, fullHistoryStatement(q, plan, batch), options, lazyChunkRecords<FullHistoryExtractionRow>);
      for await (const rows of chunks) {
        started = true;
        yield rows;
      }
    } catch (e) {
      if (started || splits >= SPLITS || !/^Out of Memory Error/.test((e as Error).message)) throw e;
      const where = `${candidatesWhere(candidates)} AND ${batchSql(batch)}`;
      options.onBatchSplit?.(batch);
      const [cut] = (await readRecords(store, idCutsSql({ where, type: batch.type, parts: 2 }), q.signal, true))[0].cuts;
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
      yield* streamRecords(store, st, { signal: q.signal }, lazyChunkRecords);
    }
  }

  async function* snapshots(q: ExtractionQuery, plan: SqlAreaPlan): AsyncGenerator<ExtractedFeature, void, undefined> {
    for await (const { rows, versions } of batchedRows(q, plan)) {
      // q.kind 'snapshot': the rows of snapshotExtractionSql (streamRecords checked its columns).
      for (const r of rows as Iterable<SnapshotExtractionRow>) {
        const geometry = geometryOf(plan, r.interior, r.geometry, q.clipGeometry, r.x, r.y);
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

  async function* fullHistory(q: ExtractionQuery, plan: SqlAreaPlan): AsyncGenerator<ExtractedFeature, void, undefined> {
    for await (const { rows, versions } of batchedRows(q, plan)) {
      // q.kind 'fullHistory': the rows of fullHistoryExtractionSql (streamRecords checked its columns).
      for (const r of rows as Iterable<FullHistoryExtractionRow>) {
        if (r.valid_from >= r.valid_to) continue;
        const geometry = geometryOf(plan, r.interior, r.geometry, q.clipGeometry, r.x, r.y);
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

  async function* contributions(q: ExtractionQuery, plan: SqlAreaPlan, latest: boolean): AsyncGenerator<ExtractedFeature, void, undefined> {
    let pending: ExtractedFeature | undefined;
    for await (const rows of contributionRows(q, plan)) {
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
        const c = classifyContribution(row, plan.clip);
        if (c === null) continue;
        let geometry: Geometry | null = null;
        if (!c.deletion && geom !== null) geometry = geometryOf(plan, interior, geom, q.clipGeometry);
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
      const plan = planOf(q);
      switch (q.kind) {
        case 'snapshot':
          return snapshots(q, plan);
        case 'fullHistory':
          return fullHistory(q, plan);
        case 'contributions':
          return contributions(q, plan, false);
        case 'latestContributions':
          return contributions(q, plan, true);
      }
    },
  };
}
