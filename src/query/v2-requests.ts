/**
 * The typed version 2 requests: what the request layer (src/api/v2: schemas + params/) produces
 * from a body or a query string, and what the statistics and extraction engines consume (the
 * contract between them lives here, below both). Times are epoch seconds.
 */
import type { SchemaElement } from 'hyparquet';
import type { Filter } from '../filter/index.js';
import type { AreaOfInterest } from './model.js';
import type { StatsGrouping, StatsMeasure } from './stats.js';

export type StatsFormat = 'json' | 'csv';

export interface FeatureStatsRequest {
  kind: 'features';
  format: StatsFormat;
  measure: StatsMeasure;
  aoi: AreaOfInterest;
  /** The series points (start, start+interval, …, end appended when uneven), ≤ 1000. */
  timestamps: number[];
  filter: Filter;
  clip: boolean;
  /** groupBy {type: byTag, key} without values (the reference's form). */
  groupByKey?: string;
  /** Any groupBy (byTag with or without values, byType). */
  groupBy?: StatsGrouping;
}

export interface BinStatsRequest {
  kind: 'contributors' | 'contributions' | 'currentness';
  format: StatsFormat;
  /** count for contributors/contributions; count, length or area for currentness. */
  measure: StatsMeasure;
  aoi: AreaOfInterest;
  /** Bin edges: N+1 points for N bins (≤ 1000 points). */
  edges: number[];
  filter: Filter;
  /** currentness only (default false). */
  clip: boolean;
  /** groupBy (issue 22: every statistic). */
  groupBy?: StatsGrouping;
}

/** features.parquet: a snapshot ({at}) or every state overlapping a range ({start, end}). */
export type ExtractionTime = { at: number } | { start: number; end: number };

export interface FeaturesExtractionRequest {
  kind: 'features';
  aoi: AreaOfInterest;
  time: ExtractionTime;
  filter: Filter;
  /** Default true. */
  clip: boolean;
}

export interface CollectionsExtractionRequest {
  kind: 'collections' | 'collections_members';
  aoi: AreaOfInterest;
  /** Snapshot only. */
  time: { at: number };
  filter: Filter;
  /** The filter on members (`member_filter`; absent or null = every member). */
  memberFilter: Filter | null;
  /** Default: true for POST, false for GET (as the reference). */
  clip: boolean;
}

export interface ContributionsExtractionRequest {
  kind: 'contributions';
  aoi: AreaOfInterest;
  /** Contributions with start <= time < end. */
  time: { start: number; end: number };
  filter: Filter;
}

export type ExtractionRequest = FeaturesExtractionRequest | CollectionsExtractionRequest | ContributionsExtractionRequest;

/**
 * One record of a version 2 extraction, named as the columns of the data model (docs/v2-parquet.md);
 * which fields a kind has: api/v2/format/geoparquet/geoparquet-schema.ts `columnsOf`. The engine
 * produces them; the GeoParquet writer (src/api/v2/format/geoparquet) encodes them as they come.
 */
export interface ExtractionRecord {
  osm_type: string;
  osm_id: bigint;
  /** Microseconds since the epoch (UTC). */
  edit_timestamp: bigint;
  /** null while the state is current. */
  valid_to_timestamp: bigint | null;
  version: number;
  minor_version: number;
  edits: number;
  user_id: number;
  user_name: string | null;
  changeset_id: bigint;
  tags: MapEntry[];
  bbox: BBoxStruct | null;
  geom_type: string | null;
  /** WKB. */
  geom: Uint8Array | null;
  clipped?: boolean;
  collection_osm_id?: bigint;
  member_role?: string;
  member_pos?: number;
  changeset_tags?: MapEntry[];
  contribution_type?: string;
  tags_before?: MapEntry[];
}

/** A tag (MAP entry). */
export interface MapEntry {
  key: string;
  value: string;
}

export interface BBoxStruct {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
}

/** What was written into a file, for its `geo` metadata: the geometry types and the extent of the rows' bboxes (null: no row). */
export interface WrittenGeometries {
  geometryTypes: string[];
  bbox: BBoxStruct | null;
}

/**
 * The file an engine-side writer must write (RecordExtraction.parquet): the Parquet schema (root
 * first; its top-level columns in order are the file's), and the key-value metadata from what was
 * written. The format is the API's; the engine only writes it.
 */
export interface ParquetFileSpec {
  schema: SchemaElement[];
  keyValueMetadata(written: WrittenGeometries): { key: string; value: string }[];
  /** Rows per row group the API writes (an engine may round it: DuckDB to its vector size). */
  rowGroupRows: number;
  /** The pages' codec (the API's ZSTD level), for an engine that compresses pages itself. */
  codec: { name: 'ZSTD'; compress(bytes: Uint8Array): Uint8Array };
}

/** The extraction an engine offers version 2: the records of a request, as they are produced. */
export interface RecordExtraction {
  /**
   * Optional: the engine writes the whole GeoParquet file itself (DuckDB: its own Parquet writer),
   * the bytes in order as they are ready; the same file, decoded, as the records written by the
   * API's writer. Returns undefined for a request it does not write this way (the API then writes
   * the records). Stops and removes what it wrote when closed or when `signal` aborts.
   */
  parquet?(request: ExtractionRequest): ((file: ParquetFileSpec, signal: AbortSignal) => AsyncGenerator<Uint8Array, void, undefined>) | undefined;
  /**
   * The records of the request in the engine's order, in batches (those of one DuckDB chunk: a
   * step of an async iterator per record cost about 5 % of a features extraction). The iterator
   * stops its work (the statement is interrupted) when it is closed or `signal` aborts; then it
   * rejects with the signal's reason.
   */
  records(request: ExtractionRequest, signal?: AbortSignal): AsyncGenerator<ExtractionRecord[], void, undefined>;
}
