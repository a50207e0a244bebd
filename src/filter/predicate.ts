/**
 * AST → JavaScript predicate over one FilterableState. Compiled once into a tree of closures; the
 * compiled SQL (sql/compile-sql.ts) must agree with it row by row (agreement.test.ts checks it).
 */
import type { FlatTags } from '../core/osm.js';
import type { Filter, FilterNode, FilterVersion } from './ast.js';
import { geometryRule, negatedGeometryRules, patternMatcher, POLYGONAL, type GeometryRule } from './semantics.js';
import type { FilterableState, TagSource } from './state.js';

export type StatePredicate = (state: FilterableState) => boolean;

export interface PredicateOptions {
  /** Which tags to test: the state's own (default), its previous ones, or either. */
  tags?: TagSource;
}

const EMPTY: FlatTags = [];
const currentTags = (s: FilterableState): FlatTags => s.tags;
const beforeTags = (s: FilterableState): FlatTags => s.tagsBefore ?? EMPTY;

/** Compiles a parsed filter to a predicate. */
export function compilePredicate(filter: Filter, options: PredicateOptions = {}): StatePredicate {
  const mode = options.tags ?? 'current';
  if (mode === 'current') return compile(filter.ast, false, filter.version, currentTags);
  if (mode === 'before') return compile(filter.ast, false, filter.version, beforeTags);
  const now = compile(filter.ast, false, filter.version, currentTags);
  const before = compile(filter.ast, false, filter.version, beforeTags);
  return (s) => now(s) || before(s);
}

type Tags = (s: FilterableState) => FlatTags;

/** The value of `key` in flat tags, or undefined. */
function tagValue(tags: FlatTags, key: string): string | undefined {
  for (let i = 0; i < tags.length; i += 2) if (tags[i] === key) return tags[i + 1];
  return undefined;
}

const not =
  (p: StatePredicate): StatePredicate =>
  (s) =>
    !p(s);

function compile(node: FilterNode, negated: boolean, version: FilterVersion, tagsOf: Tags): StatePredicate {
  switch (node.kind) {
    case 'const': {
      const v = node.value !== negated;
      return () => v;
    }
    case 'not':
      return compile(node.operand, !negated, version, tagsOf);
    case 'and':
    case 'or': {
      const parts = node.operands.map((o) => compile(o, negated, version, tagsOf));
      // De Morgan: under negation `and` becomes `or` and vice versa.
      const conjunctive = (node.kind === 'and') !== negated;
      return conjunctive ? (s) => parts.every((p) => p(s)) : (s) => parts.some((p) => p(s));
    }
    case 'geometry': {
      if (negated) {
        const others = negatedGeometryRules(node.shape, version);
        if (others !== null) {
          const ps = others.map(rulePredicate);
          return (s) => ps.some((p) => p(s));
        }
        return not(rulePredicate(geometryRule(node.shape, version)));
      }
      return rulePredicate(geometryRule(node.shape, version));
    }
  }
  const p = condition(node, tagsOf);
  return negated ? not(p) : p;
}

function rulePredicate(rule: GeometryRule): StatePredicate {
  const { osmTypes, geometryTypes } = rule;
  return (s) => s.geometryType !== null && geometryTypes.includes(s.geometryType) && (osmTypes === null || osmTypes.includes(s.type));
}

function inRange(x: number | null, min: number | null, max: number | null): boolean {
  return x !== null && (min === null || x >= min) && (max === null || x <= max);
}

function condition(node: Exclude<FilterNode, { kind: 'const' | 'not' | 'and' | 'or' | 'geometry' }>, tagsOf: Tags): StatePredicate {
  switch (node.kind) {
    case 'tagEquals': {
      const { key, value, negated } = node;
      return (s) => (tagValue(tagsOf(s), key) === value) !== negated;
    }
    case 'tagExists': {
      const { key, negated } = node;
      return (s) => (tagValue(tagsOf(s), key) !== undefined) !== negated;
    }
    case 'tagIn': {
      const { key } = node;
      const values = new Set(node.values);
      return (s) => {
        const v = tagValue(tagsOf(s), key);
        return v !== undefined && values.has(v);
      };
    }
    case 'tagPattern': {
      const { key, text, match } = node;
      const test = patternMatcher(match, text);
      return (s) => {
        const v = tagValue(tagsOf(s), key);
        return v !== undefined && test(v);
      };
    }
    case 'type': {
      const t = node.osmType;
      return (s) => s.type === t;
    }
    case 'idSet': {
      const ids = new Set(node.ids);
      return (s) => ids.has(s.id);
    }
    case 'typedIdSet': {
      const keys = new Set(node.refs.map((r) => `${r.osmType}/${r.id}`));
      return (s) => keys.has(`${s.type}/${s.id}`);
    }
    case 'idRange': {
      const { min, max } = node;
      return (s) => inRange(s.id, min, max);
    }
    case 'changesetSet': {
      const ids = new Set(node.ids);
      return (s) => ids.has(s.changeset);
    }
    case 'changesetRange': {
      const { min, max } = node;
      return (s) => inRange(s.changeset, min, max);
    }
    case 'floatRange': {
      const { measure, min, max } = node;
      return (s) => inRange(s[measure], min, max);
    }
    case 'countRange': {
      const { measure, max } = node;
      const min = node.min ?? 0; // open lower end of an integer range is 0 (reference)
      if (measure === 'vertices') return (s) => inRange(s.vertices, min, max);
      // outers/inners are −1 (never matching) for non-polygonal geometries in the reference
      return (s) => s.geometryType !== null && POLYGONAL.includes(s.geometryType) && inRange(s[measure], min, max);
    }
  }
}
