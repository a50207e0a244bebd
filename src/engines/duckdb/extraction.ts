/**
 * The DuckDB extraction engine: streams the features of an extraction query (query/extraction.ts)
 * chunk by chunk from DuckDB (`connection.stream` + `fetchChunk`), never materialising the whole
 * result in JavaScript. Boundary rows are clipped with the same kernel as the aggregations
 * (AreaPlan.clip), so a feature is extracted exactly when the aggregations count it.
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
import { checkAborted, readAllRows, streamRows } from './statements.js';
import { lazyChunkRows } from './chunk-rows.js';
import { planArea, unionOfAreas, type AreaPlan } from '../../query/area-plan.js';
import { classifyContribution, type ContributionRow } from '../../query/contributions.js';
import {
  batchSql,
  contributionExtractionSql,
  extractionBatchesSql,
  idBatches,
  fullHistoryExtractionSql,
  snapshotExtractionSql,
  type ExtractedFeature,
  type ExtractionQuery,
} from '../../query/extraction.js';

export interface ExtractionEngine {
  readonly dictionary: StoreTagDictionary;
  /** The SQL an extraction query runs (for the bench and debugging). */
  sqlOf(q: ExtractionQuery): string;
  /** The features in a stable order (type, id, time). */
  extract(q: ExtractionQuery): AsyncGenerator<ExtractedFeature, void, undefined>;
}


function tagsOf(keys: unknown, vals: unknown): [string, string][] {
  const k = keys as string[];
  const v = vals as string[];
  const out: [string, string][] = new Array(k.length);
  for (let i = 0; i < k.length; i++) out[i] = [k[i], v[i]];
  return out;
}

export async function createDuckDbExtractionEngine(store: Store, dictionary?: StoreTagDictionary): Promise<ExtractionEngine> {
  const d = await dictionaryOf(store, dictionary);
  const filterSql = (q: ExtractionQuery) => compileSql(q.filter, { dialect: duckdbDialect, dictionary: d, tableAlias: 'st' }).sql;
  const planOf = (q: ExtractionQuery) => planArea(unionOfAreas(q.areas), 'st');

  /** The extraction's statement; `batch`: only the rows of one id batch (snapshot and full history). */
  function sqlFor(q: ExtractionQuery, plan: AreaPlan, batch?: string): string {
    const ts = q.timestamps;
    const where = batch ? `(${filterSql(q)} AND ${batch})` : filterSql(q);
    switch (q.kind) {
      case 'snapshot':
        return snapshotExtractionSql({ area: plan, timestamps: ts, filterSql: where });
      case 'fullHistory':
        return fullHistoryExtractionSql({ area: plan, t1: ts[0], t2: ts[ts.length - 1], filterSql: where });
      case 'contributions':
      case 'latestContributions':
        return contributionExtractionSql({ area: plan, t1: ts[0], t2: ts[ts.length - 1], filterSql: filterSql(q) });
    }
  }

  /**
   * The clipped geometry of a row (null when the clip is empty, and for an element without any
   * geometry — a way or relation whose members are all missing —, which a whole-world area keeps:
   * there is nothing to extract; see area-plan.ts); `output` is what the feature carries.
   */
  function geometryOf(plan: AreaPlan, interior: boolean, wkb: Uint8Array | null, clipGeometry: boolean): Geometry | null {
    if (wkb === null) return null;
    const g = decodeWkb(wkb);
    if (interior) return g;
    const clipped = plan.clip(g);
    if (clipped === null) return null;
    return clipGeometry ? clipped : g;
  }

  /**
   * The statements of a snapshot or full-history extraction, one per id batch, in (type, id)
   * order (query/extraction.ts `extractionBatchesSql`): each sorts only its batch.
   */
  async function* batchedStatements(q: ExtractionQuery, plan: AreaPlan): AsyncGenerator<string, void, undefined> {
    const ts = q.timestamps;
    const kind = q.kind === 'snapshot' ? 'snapshot' : 'fullHistory';
    const stats = (await readAllRows(store, extractionBatchesSql({ area: plan, kind, t1: ts[0], t2: ts[ts.length - 1], filterSql: filterSql(q) }), q.signal, true)) as [number, number, number, number][];
    for (const batch of idBatches(stats.map(([type, lo, hi, n]) => ({ type, lo, hi, n })))) {
      yield sqlFor(q, plan, batchSql(batch));
    }
  }

  async function* batchedRows(q: ExtractionQuery, plan: AreaPlan): AsyncGenerator<Iterable<unknown[]>, void, undefined> {
    for await (const sql of batchedStatements(q, plan)) yield* streamRows(store, sql, { signal: q.signal, spilling: true }, lazyChunkRows);
  }

  async function* snapshots(q: ExtractionQuery, plan: AreaPlan): AsyncGenerator<ExtractedFeature, void, undefined> {
    for await (const rows of batchedRows(q, plan)) {
      for (const [type, id, version, changeset, lastEdit, t, interior, wkb, keys, vals] of rows as Iterable<[number, number, number, number, number, number, boolean, Uint8Array | null, unknown, unknown]>) {
        const geometry = geometryOf(plan, interior, wkb, q.clipGeometry);
        if (geometry === null) continue;
        yield { type, id, version, changeset, time: t, time2: lastEdit, geometry, tags: tagsOf(keys, vals) };
      }
      checkAborted(q.signal);
    }
  }

  async function* fullHistory(q: ExtractionQuery, plan: AreaPlan): AsyncGenerator<ExtractedFeature, void, undefined> {
    for await (const rows of batchedRows(q, plan)) {
      for (const [type, id, version, changeset, from, to, interior, wkb, keys, vals] of rows as Iterable<[number, number, number, number, number, number, boolean, Uint8Array | null, unknown, unknown]>) {
        if (from >= to) continue;
        const geometry = geometryOf(plan, interior, wkb, q.clipGeometry);
        if (geometry === null) continue;
        yield { type, id, version, changeset, time: from, time2: to, geometry, tags: tagsOf(keys, vals) };
      }
      checkAborted(q.signal);
    }
  }

  async function* contributions(q: ExtractionQuery, plan: AreaPlan, sql: string, latest: boolean): AsyncGenerator<ExtractedFeature, void, undefined> {
    let pending: ExtractedFeature | undefined;
    for await (const rows of streamRows(store, sql, { signal: q.signal }, lazyChunkRows)) {
      for (const r of rows) {
        const [type, id, validFrom, userId, deleted, m, hit, interior, pDeleted, pM, pHit, pInterior, tagChange, geometryChange, tags, tagsBefore, geom, pGeom, version, versionChangeset, changeset, keys, vals] = r as [
          number, number, number, number, boolean, boolean, boolean, boolean, boolean | null, boolean | null, boolean | null, boolean | null, boolean, boolean, number[], number[], Uint8Array | null, Uint8Array | null, number, number, number, unknown, unknown,
        ];
        const row: ContributionRow = {
          type, id, validFrom, userId, deleted, matches: m, hit, interior,
          prev: pDeleted === null ? null : { deleted: pDeleted, matches: pM === true, hit: pHit === true, interior: pInterior === true },
          tagChange, geometryChange, tags, tagsBefore, geometry: geom, prevGeometry: pGeom,
        };
        const c = classifyContribution(row, plan.clip);
        if (c === null) continue;
        let geometry: Geometry | null = null;
        if (!c.deletion && geom !== null) geometry = geometryOf(plan, interior, geom, q.clipGeometry);
        const feature: ExtractedFeature = {
          type, id, version, changeset: versionChangeset, time: validFrom, geometry,
          tags: c.deletion ? [] : tagsOf(keys, vals),
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
          return contributions(q, plan, sqlFor(q, plan), false);
        case 'latestContributions':
          return contributions(q, plan, sqlFor(q, plan), true);
      }
    },
  };
}
