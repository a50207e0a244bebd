/**
 * The typed version 2 requests: what the request layer (src/api/v2: schemas + params/) produces
 * from a body or a query string, and what the statistics and extraction engines consume (the
 * contract between them lives here, below both). Times are epoch seconds.
 */
import type { Writable } from 'node:stream';
import type { Filter } from '../filter/index.js';
import type { AreaOfInterest } from './model.js';
import type { StatsMeasure } from './stats.js';

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
  groupByKey?: string;
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
}

export type StatsRequest = FeatureStatsRequest | BinStatsRequest;

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

/** The GeoParquet extraction an engine offers version 2. */
export interface ParquetExtraction {
  /**
   * Writes the GeoParquet file of the request to `out` as it is produced (row groups flushed as
   * they fill) and ends `out`. Rejects with the signal's reason when aborted.
   */
  write(request: ExtractionRequest, out: Writable, signal?: AbortSignal): Promise<void>;
}
