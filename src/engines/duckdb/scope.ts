/**
 * Which elements each API version sees at all, before any filter (docs/store.md, "Never-tagged
 * elements"). The store keeps every element (untagged nodes give ways their shape, and osmium's
 * counts include them); the APIs leave out what the reference services never loaded:
 *
 * - version 1 (the OSHDB): only nodes that carried at least one tag in some version are in its
 *   store (`--nodesWithTagsOnly`, history-engine semantics §5.2), so a never-tagged node is in no
 *   count, user, contribution or extraction; never-tagged ways and relations are kept.
 * - version 2 (ohsome-planet contributions): an element whose every version is untagged produces no
 *   row, whatever its type.
 *
 * The condition is left out where it cannot change the answer: a filter that only tagged states
 * can match (`building=*`), or, for version 1, one that no node can match (`type:way`).
 */
import { possibleOsmTypes, requiresTag, type Filter } from '../../filter/index.js';

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

/** A compiled version 2 filter with the version 2 rule, where the rule can matter. */
export function withV2Scope(filter: Filter, filterSql: string, alias?: string): string {
  if (requiresTag(filter)) return filterSql;
  return `(${filterSql} AND ${v2ScopeSql(alias)})`;
}
