/**
 * Extraction (docs/reference/v1-reference-behaviour.md §4.4) as the engine sees it: the query, the
 * features it produces, and the batch plan (pure: how the candidates of one type are cut into id
 * ranges). The SQL shapes are the engine's (src/engines/duckdb/sql/extraction.ts). Rows always come
 * back in a stable order: by type,
 * id, then time (snapshot timestamp, state start or contribution time).
 */
import type { Filter } from '../filter/index.js';
import type { Geometry } from '../geometry/types.js';
import type { AreaOfInterest } from './model.js';

export type ExtractionKind = 'snapshot' | 'fullHistory' | 'contributions' | 'latestContributions';

export interface ExtractionQuery {
  kind: ExtractionKind;
  areas: AreaOfInterest[];
  /** Epoch seconds: snapshot timestamps (ascending), or exactly [t1, t2] for the other kinds. */
  timestamps: number[];
  filter: Filter;
  /** true: geometries are clipped to the union of the areas; false: whole geometries (membership still uses the clip). */
  clipGeometry: boolean;
  /** Aborts the query: the DuckDB statement is interrupted and the iterator rejects with the reason. */
  signal?: AbortSignal;
}

/** What an engine offers version 1 extraction. */
export interface ExtractionEngine {
  /** The features in a stable order (type, id, time). */
  extract(q: ExtractionQuery): AsyncGenerator<ExtractedFeature, void, undefined>;
}

/** One extracted feature before formatting. Times are epoch seconds. */
export interface ExtractedFeature {
  /** 0 node, 1 way, 2 relation. */
  type: number;
  id: number;
  /** Null only for contribution deletions. */
  geometry: Geometry | null;
  /** The tags of the state (empty for contribution deletions). */
  tags: [string, string][];
  version: number;
  /** Changeset of the element's version in force. */
  changeset: number;
  /** snapshot: the timestamp; fullHistory: clamped start; contributions: the contribution time. */
  time: number;
  /** snapshot: the start of the version in force (@lastEdit); fullHistory: clamped end. */
  time2?: number;
  /** Contributions only. */
  contribution?: { changeset: number; creation: boolean; deletion: boolean; tagChange: boolean; geometryChange: boolean };
}

export interface TypeRows {
  type: number;
  n: number;
  vertices: number;
  minor: number;
}

/** At most this many rows in one batch. */
export const BATCH_ROWS = 250_000;
/**
 * About this many bytes of rows in one batch's sort: the streaming instance has 64 MB, and a sort
 * whose rows carry big geometries must fit (DuckDB could not spill a 200 k-row sort of ways
 * there). Estimated as ROW_BYTES a row plus VERTEX_BYTES a vertex of WKB.
 */
export const BATCH_BYTES = 32 * 2 ** 20;
const ROW_BYTES = 160;
const VERTEX_BYTES = 16;

/** How many batches the rows of one type are cut into. */
export function batchCount(rows: TypeRows, batchRows = BATCH_ROWS, batchBytes = BATCH_BYTES): number {
  const bytes = rows.n * ROW_BYTES + rows.vertices * VERTEX_BYTES;
  return Math.max(1, Math.ceil(rows.n / batchRows), Math.ceil(bytes / batchBytes));
}

/** Sampled ids per batch when cutting a type into batches (the batches come out within a few per cent of equal). */
export const SAMPLE_PER_BATCH = 1_000;

/** One batch: the rows of `type` with `from` <= id < `to` (an end left out is open). */
export interface IdBatch {
  type: number;
  from?: number;
  to?: number;
}

/** The batches of one type between the cut ids (any order, repeats allowed): ascending, disjoint, covering every id. */
export function idBatches(type: number, cuts: readonly number[]): IdBatch[] {
  const bounds = [...new Set(cuts.map((c) => Math.ceil(c)))].sort((a, b) => a - b);
  const out: IdBatch[] = [];
  for (let i = 0; i <= bounds.length; i++) {
    const b: IdBatch = { type };
    if (i > 0) b.from = bounds[i - 1];
    if (i < bounds.length) b.to = bounds[i];
    out.push(b);
  }
  return out;
}

/** The two halves of a batch either side of `cut` (the lower one ends before it), or null when `cut` does not fall strictly inside. */
export function splitBatch(b: IdBatch, cut: number): [IdBatch, IdBatch] | null {
  const c = Math.ceil(cut);
  if ((b.from !== undefined && c <= b.from) || (b.to !== undefined && c >= b.to)) return null;
  const lower: IdBatch = { type: b.type, to: c };
  if (b.from !== undefined) lower.from = b.from;
  const upper: IdBatch = { type: b.type, from: c };
  if (b.to !== undefined) upper.to = b.to;
  return [lower, upper];
}
