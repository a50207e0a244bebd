/**
 * What differs between the SQL of the two engines in the statement pieces they share (the area's
 * tests, the time buckets, the group codes): a cast to an integer, the boolean literals, a constant
 * list read once per statement, integer division. DuckDB's is the default of every builder;
 * ClickHouse's (src/engines/clickhouse/sql/) is written to what both 18.16 and current servers accept.
 * Pure: text only.
 */
import type { BBox } from '../../geometry/types.js';
import { spatialKeySql } from './spatial-key.js';

export interface SqlFlavor {
  readonly name: 'duckdb' | 'clickhouse';
  /** SQL: `x` as a 32-bit integer. */
  int(x: string): string;
  /** SQL: the condition `c` as 0 or 1. */
  bit(c: string): string;
  /** SQL: `a` divided by the positive integer `b`, rounded down (a >= 0). */
  intDiv(a: string, b: number): string;
  readonly true: string;
  readonly false: string;
  /**
   * A constant list `list` (a literal `[…]`) named `name` once per statement: `withSql`, the
   * statement's WITH item; `ref`, SQL reading it. DuckDB copies a list literal per row it is
   * indexed on, a list read from a one-row CTE is a constant; ClickHouse names a constant
   * expression in WITH.
   */
  constantList(name: string, list: string): { withSql: string; ref: string };
  /** SQL: the list literal `list` of 64-bit integers. */
  bigintList(list: string): string;
  /** SQL: element `i` (1-based) of `list`. */
  at(list: string, i: string): string;
  /**
   * SQL on the rows' sort key implied by "a state of the row's element has a bbox meeting `bbox`",
   * added to the area's bbox test and to the reads of timelines where the store's primary index is
   * the element's extent class and key (ClickHouse: spatial-key.ts);
   * undefined where the engine skips by its own statistics (DuckDB's min/max per row group of the
   * bbox columns, in a table sorted by the key).
   */
  spatialKeyTest?(bbox: BBox, c: (name: string) => string): string;
  /**
   * SQL on the row's element extent (src/store/element-extent.ts): true for every state of an
   * element with a state whose bbox meets `bbox`. Only bounds the reads of whole timelines
   * (`SqlAreaPlan.elementKeySql`), where the store has the extent columns (DuckDB): a per-state
   * test has its own bbox, which the extent contains.
   */
  elementExtentTest?(bbox: BBox, c: (name: string) => string): string;
}

/** DuckDB: the element's extent columns meet `bbox` (pruned by the row groups' min/max). */
function duckdbElementExtentTest(bbox: BBox, c: (name: string) => string): string {
  const [x0, y0, x1, y1] = bbox.map((v) => v.toExponential(17));
  return `(${c('ext_xmax')} >= ${x0} AND ${c('ext_xmin')} <= ${x1} AND ${c('ext_ymax')} >= ${y0} AND ${c('ext_ymin')} <= ${y1})`;
}

export const DUCKDB_FLAVOR: SqlFlavor = {
  name: 'duckdb',
  int: (x) => `${x}::INTEGER`,
  bit: (c) => `(${c})::INTEGER`,
  intDiv: (a, b) => `(${a}) // ${b}`,
  true: 'TRUE',
  false: 'FALSE',
  constantList: (name, list) => ({ withSql: `${name} AS (SELECT ${list} AS l)`, ref: `(SELECT l FROM ${name})` }),
  bigintList: (list) => `(${list}::BIGINT[])`,
  at: (list, i) => `${list}[${i}]`,
  elementExtentTest: duckdbElementExtentTest,
};

export const CLICKHOUSE_FLAVOR: SqlFlavor = {
  name: 'clickhouse',
  int: (x) => `toInt32(${x})`,
  bit: (c) => `toInt32(${c})`,
  intDiv: (a, b) => `intDiv(${a}, ${b})`,
  true: '1',
  false: '0',
  constantList: (name, list) => ({ withSql: `${list} AS ${name}`, ref: name }),
  bigintList: (list) => `CAST(${list} AS Array(Int64))`,
  at: (list, i) => `arrayElement(${list}, ${i})`,
  spatialKeyTest: spatialKeySql,
};
