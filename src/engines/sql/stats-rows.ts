/**
 * The rows of the version 2 statistics statements and what each statement is asked, the same on
 * every database (pure: types and one SQL condition). DuckDB writes the statements in
 * src/engines/duckdb/sql/stats.ts (whose comments describe them), ClickHouse in
 * src/engines/clickhouse/sql/stats.ts; the engine over both is src/engines/common/stats.ts (`StatsSql`).
 */
import type { StatsMeasure } from '../../query/stats.js';
import type { SqlAreaPlan } from './area.js';

/** geometry_type codes the v2 measure statistics leave out: 0 (no geometry), 7 (GeometryCollection). */
export const V2_FEATURE_GEOMETRY_SQL = '(geometry_valid AND geometry_type NOT IN (0, 7))';

/**
 * A row of the statistics scans: `b` is -1 for rows surely inside the aoi (summed), else the rowid
 * of a row to decide exactly, with its element `bt`/`bi` (type, id).
 */
export interface ScanRow {
  /** Rows aggregated. */
  n: number;
  b: number;
  bt: number;
  bi: number;
}

/** A features row: alive at the timestamps [f, e), group code g, summed measure v; rows with f = e (alive at no timestamp) may come and are skipped. */
export interface FeatureStatsRow extends ScanRow {
  f: number;
  e: number;
  g: number;
  v: number;
}

/** A currentness row: bin k, summed measure v. */
export interface CurrentnessRow extends ScanRow {
  k: number;
  v: number;
  /** The group code (`codeSql`; -1 without grouping). */
  g: number;
}

/** A contributions row: bin k, user u (null unless counting users). */
export interface ContributionStatsRow extends ScanRow {
  k: number;
  u: number | null;
  /** The group codes of the state's tags (-1 for a deletion) and of the tags before it (-1 without grouping). */
  g: number;
  gb: number;
}

/** A row of `geometryRunsSql`: a kept state (rowid r) of an element and its geometry run. */
export interface GeometryRunRow {
  r: number;
  run: number;
  type: number;
  id: number;
}

/** A row of `boundaryGeometriesSql`: a state (rowid r) and its WKB. */
export interface RowGeometry {
  r: number;
  geometry: Uint8Array | null;
}

/** What a features scan asks (`StatsSql.featureStats`). */
export interface FeatureStatsParams {
  area: SqlAreaPlan;
  timestamps: readonly number[];
  filterSql: string;
  codeSql: string;
  measure: StatsMeasure;
}

/** What a currentness scan asks (`StatsSql.currentness`). */
export interface CurrentnessParams {
  area: SqlAreaPlan;
  edges: readonly number[];
  filterSql: string;
  measure: StatsMeasure;
  /** The state's group code (groupBy; default -1: none). */
  codeSql?: string;
}

/** What a contributions scan asks (`StatsSql.contributionStats`). */
export interface ContributionStatsParams {
  area: SqlAreaPlan;
  edges: readonly number[];
  filterSql: string;
  users: boolean;
  /** The group codes (groupBy) over the state's tags and over the tags before it; default -1: none. */
  codeSql?: string;
  codeBeforeSql?: string;
}
