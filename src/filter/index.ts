/**
 * The filter language: parse once, compile twice (README.md in this folder documents the grammar,
 * semantics, limits, errors and the SQL dialect interface).
 */
export type {
  Filter,
  FilterNode,
  FilterVersion,
  ConditionNode,
  GeometryShape,
  FloatMeasure,
  CountMeasure,
  PatternMatch,
  Span,
} from './ast.js';
export { spanOf, walk } from './ast.js';
export { parseFilter, type ParseOptions } from './parser.js';
export { printFilter } from './printer.js';
export { DEFAULT_LIMITS, type FilterLimits } from './limits.js';
export { toDnf, dnfSize, type Dnf, type Literal } from './normalize.js';
export type { FilterableState, FilterGeometryType, TagSource } from './state.js';
export { compilePredicate, type StatePredicate, type PredicateOptions } from './predicate.js';
export { InMemoryTagDictionary, type TagDictionary, type ValuePattern } from './tag-dictionary.js';
export { compileSql, type SqlCompileOptions, type CompiledSql } from './sql/compile-sql.js';
export type { SqlDialect } from './sql/dialect.js';
export type { FilterColumn } from './sql/columns.js';
export { duckdbDialect } from './sql/duckdb-dialect.js';
export { clickhouseDialect } from './sql/clickhouse-dialect.js';
export { assertNoChangesetCondition, findChangesetCondition, possibleOsmTypes, requiresTag, usesGeometry } from './checks.js';
export { positionAt, type SourcePosition } from './errors.js';
