/**
 * The rows of the version 1 extraction statements and what each statement is asked, the same on
 * every database (pure types). DuckDB writes the statements in src/engines/duckdb/sql/extraction.ts
 * (whose comments describe them), ClickHouse in src/engines/clickhouse/sql/extraction.ts; the engine
 * over both is src/engines/common/extraction.ts (`ExtractionSql`).
 */
import type { ContributionFacts } from './aggregation-rows.js';
import type { SqlAreaPlan } from './area.js';

/** The columns every snapshot and full-history extraction row has. */
export interface ExtractionRowBase {
  type: number;
  id: number;
  version: number;
  minor_version: number;
  changeset: number;
  /** Whether the row's bbox lies inside the area (no clipping needed). */
  interior: boolean;
  /** The WKB (NULL for the rows of a batch of nodes, which carry x and y). */
  geometry: Uint8Array | null;
  x: number | null;
  y: number | null;
  tag_keys: string[];
  tag_values: string[];
}

/** A row of `snapshotExtractionSql`: the state valid at the timestamp `ts`, starting at `valid_from`. */
export interface SnapshotExtractionRow extends ExtractionRowBase {
  valid_from: number;
  ts: number;
}

/** A row of `fullHistoryExtractionSql`: the state over [valid_from, valid_to), clamped to the range. */
export interface FullHistoryExtractionRow extends ExtractionRowBase {
  valid_from: number;
  valid_to: number;
}

/** A row of `contributionExtractionSql`: the facts `classifyContribution` reads and what a feature prints. */
export interface ContributionExtractionRow extends ContributionFacts {
  geom: Uint8Array | null;
  p_geom: Uint8Array | null;
  version: number;
  version_changeset: number;
  changeset: number;
  tag_keys: string[];
  tag_values: string[];
}

/** A row of `typeRowsSql`. */
export interface TypeRowsRow {
  type: number;
  n: number;
  vertices: number;
  minor: number;
}

/** A row of `versionStatesSql`. */
export interface VersionStateRow {
  id: number;
  version: number;
  changeset: number;
  valid_from: number;
}

/** What the candidate rows of a snapshot or full-history extraction have in common (alias `st`). */
export interface CandidateRows {
  area: SqlAreaPlan;
  kind: 'snapshot' | 'fullHistory';
  t1: number;
  t2: number;
  filterSql: string;
}

/** What a snapshot extraction asks (`ExtractionSql.snapshot`). */
export interface SnapshotExtractionParams {
  area: SqlAreaPlan;
  timestamps: readonly number[];
  filterSql: string;
  points?: boolean;
}

/** What a full-history extraction asks (`ExtractionSql.fullHistory`). */
export interface FullHistoryExtractionParams {
  area: SqlAreaPlan;
  t1: number;
  t2: number;
  filterSql: string;
  points?: boolean;
}

/** What a contribution extraction asks (`ExtractionSql.contributions`). */
export interface ContributionExtractionParams {
  area: SqlAreaPlan;
  t1: number;
  t2: number;
  filterSql: string;
  batchSql?: string;
}
