/**
 * Questions the API layer and the planner ask about a parsed filter before running it.
 */
import { MaphistError } from '../core/errors.js';
import type { OsmType } from '../core/osm.js';
import { spanOf, walk, type Filter, type FilterNode } from './ast.js';
import { filterErrorAt } from './errors.js';
import { geometryRule, negatedGeometryRules } from './semantics.js';

/** The first `changeset:` condition anywhere in the tree (under `not`, in any nesting), if any. */
export function findChangesetCondition(ast: FilterNode): FilterNode | undefined {
  let found: FilterNode | undefined;
  walk(ast, (n) => {
    if (found === undefined && (n.kind === 'changesetSet' || n.kind === 'changesetRange')) found = n;
  });
  return found;
}

/**
 * The version-1 rule for snapshot-based endpoints (elements, ratio, extraction): changeset
 * conditions only make sense for contributions. Unlike the reference, which inspected only
 * top-level `and`/`or` operands, this sees through `not` and any nesting.
 */
export function assertNoChangesetCondition(filter: Filter): void {
  const node = findChangesetCondition(filter.ast);
  if (node === undefined) return;
  const text = 'changeset filters can only be used in contribution-based endpoints';
  const span = spanOf(node);
  if (span !== undefined) throw filterErrorAt('FILTER_NOT_ALLOWED', filter.source, span.start, text, { selector: 'changeset' });
  throw new MaphistError('FILTER_NOT_ALLOWED', text, { selector: 'changeset' });
}

/** True when the filter looks at the geometry (type or measures), not only at tags, ids and types. */
export function usesGeometry(ast: FilterNode): boolean {
  let yes = false;
  walk(ast, (n) => {
    if (n.kind === 'geometry' || n.kind === 'floatRange' || n.kind === 'countRange') yes = true;
  });
  return yes;
}

type Tri = boolean | 'unknown';

/**
 * The OSM types some state could match the filter with, for pruning: `type:way and building=*`
 * gives `['way']`. Conservative: a type is left out only when no state of it can match.
 */
export function possibleOsmTypes(filter: Filter): OsmType[] {
  return (['node', 'way', 'relation'] as const).filter((t) => evaluate(filter.ast, t, filter) !== false);
}

function evaluate(node: FilterNode, t: OsmType, filter: Filter): Tri {
  switch (node.kind) {
    case 'const':
      return node.value;
    case 'not': {
      // `not geometry:X` in version 1 is the `or` of the other geometry conditions, not a complement.
      if (node.operand.kind === 'geometry') {
        const others = negatedGeometryRules(node.operand.shape, filter.version);
        if (others !== null) return others.some((r) => r.osmTypes === null || r.osmTypes.includes(t)) ? 'unknown' : false;
      }
      const v = evaluate(node.operand, t, filter);
      return v === 'unknown' ? v : !v;
    }
    case 'and': {
      let acc: Tri = true;
      for (const o of node.operands) {
        const v = evaluate(o, t, filter);
        if (v === false) return false;
        if (v === 'unknown') acc = 'unknown';
      }
      return acc;
    }
    case 'or': {
      let acc: Tri = false;
      for (const o of node.operands) {
        const v = evaluate(o, t, filter);
        if (v === true) return true;
        if (v === 'unknown') acc = 'unknown';
      }
      return acc;
    }
    case 'type':
      return node.osmType === t;
    case 'typedIdSet':
      return node.refs.some((r) => r.osmType === t) ? 'unknown' : false;
    case 'geometry': {
      const rule = geometryRule(node.shape, filter.version);
      return rule.osmTypes === null || rule.osmTypes.includes(t) ? 'unknown' : false;
    }
    default:
      return 'unknown';
  }
}

/**
 * True when every state the filter can match carries at least one tag: `building=*`,
 * `type:way and highway in (primary, secondary)`, `amenity=bench or shop=*`. Conservative: false
 * whenever an untagged state might match (`type:node`, `name!=x`, `not building=*`, `id:1`). The
 * engines use it to leave out the never-tagged test where it cannot change the answer.
 */
export function requiresTag(filter: Filter): boolean {
  return impliesTag(filter.ast);
}

function impliesTag(node: FilterNode): boolean {
  switch (node.kind) {
    case 'tagEquals':
    case 'tagExists':
      return !node.negated;
    case 'tagIn':
    case 'tagPattern':
      return true;
    case 'const':
      return node.value === false; // matches nothing
    case 'and':
      return node.operands.some(impliesTag);
    case 'or':
      return node.operands.every(impliesTag);
    default:
      return false;
  }
}
