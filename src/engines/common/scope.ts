/**
 * Which elements each API version sees at all, before any filter (docs/store.md, "Never-tagged
 * elements"). The store keeps every element (untagged nodes give ways their shape, and osmium's
 * counts include them); the APIs leave out what the reference services never loaded:
 *
 * - version 1 (the OSHDB): only nodes that carried at least one tag in some version are in its
 *   store (`--nodesWithTagsOnly`, docs/reference/history-engine-semantics.md §5.2), so a never-tagged node is in no
 *   count, user, contribution or extraction; never-tagged ways and relations are kept.
 * - version 2 (ohsome-planet contributions): an element whose every version is untagged produces no
 *   row, whatever its type; and of the relations only those tagged `type=multipolygon` or
 *   `type=boundary` are features or contributions (docs/spec/v2.md, statistics rule 1; the other relations
 *   are extracted as collections).
 *
 * Every version 2 query takes its scope from here: features and contributions (statistics,
 * features.parquet, contributions.parquet) through `v2ScopedFilterSql`, collections through
 * `v2CollectionRelationSql` and `v2ScopedCollectionFilterSql`; `v2ScopeSql` is the rule on a row
 * alone (ever tagged), which both use.
 *
 * The condition is left out where it cannot change the answer: a filter that only tagged states
 * can match (`building=*`), or, for version 1, one that no node can match (`type:way`).
 */
import { parseFilter, possibleOsmTypes, requiresTag, type Filter } from '../../filter/index.js';

/** The relations version 2 counts as features (docs/spec/v2.md, statistics rule 1); the others are collections. */
const V2_AREA_RELATION_TYPES = ['multipolygon', 'boundary'] as const;

/** Version 2's features and contributions: nodes, ways, and multipolygon and boundary relations. */
const V2_FEATURE_TYPES = parseFilter(`not type:relation or type in (${V2_AREA_RELATION_TYPES.join(', ')})`, { version: 2 }).ast;

/**
 * A version 2 filter restricted to version 2's features (statistics, features.parquet,
 * contributions.parquet): `(filter) and (not type:relation or type in (multipolygon, boundary))`.
 * Compiled with `tags: 'currentOrBefore'` a contribution is in scope when its state or the state
 * before it is a multipolygon or boundary.
 */
function v2FeatureFilter(filter: Filter): Filter {
  return { ...filter, ast: { kind: 'and', operands: [filter.ast, V2_FEATURE_TYPES] } };
}

/**
 * **The** version 2 scope of a features or contributions query (every statistic, features.parquet,
 * contributions.parquet): the request's filter restricted to version 2's features
 * (`v2FeatureFilter`), compiled by the caller's `compile` (its dialect, dictionary, table alias and
 * tag source), and the row rule `v2ScopeSql` where it can matter. A new scope rule goes here, or in
 * `v2ScopeSql` when it is a condition on the row alone: every v2 query then has it.
 */
export function v2ScopedFilterSql(filter: Filter, compile: (scoped: Filter) => string, alias?: string): string {
  return withV2Scope(filter, compile(v2FeatureFilter(filter)), alias);
}

/**
 * The relations of collections.parquet and collections_members.parquet: those version 2 does not
 * count as features (the complement of the relation part of `v2FeatureFilter`), as a condition on
 * a `states` row. `typeTagSql`: SQL reading the row's `type` tag ('' when it has none), DuckDB's
 * map lookup by default (ClickHouse's store keeps tags as key and value arrays).
 */
export function v2CollectionRelationSql(alias: string, typeTagSql = `coalesce(${alias}.tags['type'], '')`): string {
  return `${typeTagSql} NOT IN (${V2_AREA_RELATION_TYPES.map((t) => `'${t}'`).join(', ')})`;
}

/**
 * A collections request's relation filter in version 2's scope: the row rule `v2ScopeSql` (no
 * relation whose every version is untagged), where it can matter. Members are not scoped.
 */
export function v2ScopedCollectionFilterSql(filter: Filter, filterSql: string, alias: string): string {
  return withV2Scope(filter, filterSql, alias);
}

const column = (alias: string | undefined, name: string) => (alias ? `${alias}.${name}` : name);

/** The version 1 rule as a condition on a `states` row. */
export function v1ScopeSql(alias?: string): string {
  return `(${column(alias, 'type')} <> 0 OR ${column(alias, 'ever_tagged')})`;
}

/** The version 2 rule as a condition on a `states` row. */
export function v2ScopeSql(alias?: string): string {
  return column(alias, 'ever_tagged');
}

/** A compiled version 1 filter with the version 1 rule, where the rule can matter. */
export function withV1Scope(filter: Filter, filterSql: string, alias?: string): string {
  if (requiresTag(filter) || !possibleOsmTypes(filter).includes('node')) return filterSql;
  return `(${filterSql} AND ${v1ScopeSql(alias)})`;
}

/** A compiled version 2 filter with the version 2 row rule, where the rule can matter. */
function withV2Scope(filter: Filter, filterSql: string, alias?: string): string {
  if (requiresTag(filter)) return filterSql;
  return `(${filterSql} AND ${v2ScopeSql(alias)})`;
}
