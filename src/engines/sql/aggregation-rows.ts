/**
 * The rows of the version 1 aggregation statements and what each statement is asked, the same on
 * every database (pure types). DuckDB writes the statements in src/engines/duckdb/sql/aggregation.ts
 * (whose comments describe every column), ClickHouse in src/engines/clickhouse/sql/aggregation.ts;
 * the engine over both is src/engines/common/engine.ts (`AggregationSql`).
 */
import type { BBox } from '../../geometry/types.js';
import type { Measure } from '../../query/model.js';
import type { SqlAreaPlan } from './area.js';

/**
 * A snapshot scan row: alive at the timestamps [f, e), group code g, summed measure v over n rows;
 * b -1 (interior, summed) or the rowid of a boundary row. A statement may return rows with f = e
 * (alive between two timestamps, at none): the engine skips them.
 */
export interface SnapshotRow {
  f: number;
  e: number;
  g: number;
  v: number;
  n: number;
  b: number;
}

/** A row of `snapshotBoxesSql`: a `SnapshotRow` of the box `a` (its index in the list). */
export interface SnapshotBoxRow extends SnapshotRow {
  a: number;
}

/**
 * A contribution candidate's facts and its previous kept state's (p_*: NULL when it has none): what
 * `classifyWith` reads, in the contribution list and the contributions extraction alike.
 */
export interface ContributionFacts {
  type: number;
  id: number;
  valid_from: number;
  user_id: number;
  tags: number[];
  tags_before: number[];
  deleted: boolean;
  m: boolean;
  hit: boolean;
  interior: boolean;
  p_deleted: boolean | null;
  p_m: boolean | null;
  p_hit: boolean | null;
  p_interior: boolean | null;
  tag_change: boolean;
  geometry_change: boolean;
}

/** A row of `contributionListSql`: the facts, and the rowids and runs of the sides whose geometries are read. */
export interface ContributionListRow extends ContributionFacts {
  /** The rowids of the states whose geometries are needed (NULL: that side's is not). */
  g_rid: number | null;
  p_rid: number | null;
  /** The geometry runs of the state and of its predecessor. */
  run: number;
  p_run: number;
}

/** A row of `contributionAggregateSql` (its comment describes the columns). */
export interface ContributionAggregateRow {
  /** The interval, the group codes after and before, the kind (0 creation, 1 deletion, 2 change), the user (NULL without users). */
  k: number;
  g: number;
  gb: number;
  kind: number;
  user_id: number | null;
  n: number;
  /**
   * -1: n sure rows aggregated; else n single rows that classify alike (both engines group them),
   * b the smallest rowid, with their facts (NULL in aggregated rows).
   */
  b: number;
  type: number | null;
  id: number | null;
  valid_from: number | null;
  deleted: boolean | null;
  m: boolean | null;
  hit: boolean | null;
  interior: boolean | null;
  p_deleted: boolean | null;
  p_m: boolean | null;
  p_hit: boolean | null;
  p_interior: boolean | null;
  tag_change: boolean | null;
  geometry_change: boolean | null;
  g_rid: number | null;
  p_rid: number | null;
  run: number | null;
  p_run: number | null;
  ord: number | null;
}

/** A row of `geometriesByRowidSql`. */
export interface GeometryByRowidRow {
  /** A state's rowid (NULL in the rows giving a geometry). */
  r: number | null;
  gid: number;
  /** The geometry's WKB (NULL in the rows mapping a state). */
  geometry: Uint8Array | null;
}

/** What a snapshot scan asks (`AggregationSql.snapshot`). */
export interface SnapshotParams {
  area: SqlAreaPlan;
  timestamps: readonly number[];
  filterSql: string;
  codeSql: string;
  measure: Measure;
}

/** What a scan over many boxes asks (`AggregationSql.snapshotBoxes`). */
export interface SnapshotBoxesParams {
  boxes: readonly BBox[];
  /** The bbox of all the boxes: its test bounds the scan. */
  bounds: BBox;
  placed: readonly (readonly [number, number])[];
  timestamps: readonly number[];
  filterSql: string;
  codeSql: string;
  measure: Measure;
}

/** What a contribution list asks (`AggregationSql.contributionList`); a contribution aggregate asks it too. */
export interface ContributionListParams {
  area: SqlAreaPlan;
  timestamps: readonly number[];
  filterSql: string;
  /**
   * The version 1 scope alone (src/engines/common/scope.ts `v1ScopeSql`): the same on every row of an
   * element, and met by every element with a row `filterSql` matches; a statement may drop the rows
   * that fail it before it looks for those elements (ClickHouse's do not read it).
   */
  elementScopeSql: string;
}

/** What a contribution aggregate asks (`AggregationSql.contributionAggregate`). */
export interface ContributionAggregateParams extends ContributionListParams {
  codeSql: string;
  codeBeforeSql: string;
  users: boolean;
  contributionTypes: readonly string[] | undefined;
  /** contributions/latest: only each element's last contribution counts (the DuckDB statement's comment says how). */
  latest?: boolean;
}
