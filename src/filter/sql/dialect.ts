/**
 * What differs between SQL engines for filter expressions. compile-sql.ts builds the structure
 * (AND/OR/NOT, comparisons, IN lists, the tag lookups) from the AST; a dialect renders the few
 * engine-specific primitives. Every argument is SQL the compiler built from column references and
 * numbers: a dialect never receives user text. DuckDB is in duckdb-dialect.ts; ClickHouse would
 * map these to `1`/`0`, `bitAnd`, `bitShiftRight`, `bitCount`, `least`, `arrayElement`, `has`,
 * `hasAny` and `arrayExists`.
 */
import type { FilterColumn } from './columns.js';

export interface SqlDialect {
  readonly name: string;
  /** A column reference; `table` is an optional, already validated table alias. */
  column(name: FilterColumn, table?: string): string;
  /** Boolean constants. */
  readonly trueLiteral: string;
  readonly falseLiteral: string;
  /** Bitwise and of two BIGINT expressions. */
  bitAnd(a: string, b: string): string;
  /** `a` shifted right by `bits` (0–63). */
  shiftRight(a: string, bits: string): string;
  /** Number of set bits of a BIGINT. */
  bitCount(a: string): string;
  /** The smaller of two numbers. */
  least(a: string, b: string): string;
  /** Element `index` (1-based) of a list. */
  listElement(list: string, index: string): string;
  /** True when the BIGINT list `list` contains `element` (a literal). */
  listContains(list: string, element: string): string;
  /** True when `list` contains at least one of `elements` (two or more literals). */
  listHasAny(list: string, elements: readonly string[]): string;
  /** True when some element of `list` lies in [lo, hi] (literals). */
  listHasInRange(list: string, lo: string, hi: string): string;
}
