/**
 * The filter language's syntax tree. One tree for both API versions; the version a filter was
 * parsed under travels with it (`Filter.version`) because `geometry:` means slightly different
 * things in version 1 and version 2 (see README.md, "Semantics").
 *
 * Nodes are plain data (no positions, no methods) so that trees compare with deepStrictEqual and
 * `parse(print(ast))` is the identity. Source positions live beside the tree (`spanOf`).
 */
import type { OsmType } from '../core/osm.js';

export type FilterVersion = 1 | 2;

/** `key=value` (negated: `key!=value`). */
export interface TagEqualsNode {
  kind: 'tagEquals';
  key: string;
  value: string;
  negated: boolean;
}
/** `key=*` (negated: `key!=*`). */
export interface TagExistsNode {
  kind: 'tagExists';
  key: string;
  negated: boolean;
}
/** `key in (v1, v2, …)`: the element has the key with one of the values. Never empty. */
export interface TagInNode {
  kind: 'tagIn';
  key: string;
  values: string[];
}
/** Version 2 only: `key ~ text*`, `key ~ *text`, `key ~ *text*` (wildcards apply to the value). */
export interface TagPatternNode {
  kind: 'tagPattern';
  key: string;
  match: PatternMatch;
  text: string;
}
export type PatternMatch = 'prefix' | 'suffix' | 'substring';

/** `type:node|way|relation`. */
export interface TypeNode {
  kind: 'type';
  osmType: OsmType;
}
/** `id:1` or `id:(1, 2, 3)`. Never empty. */
export interface IdSetNode {
  kind: 'idSet';
  ids: number[];
}
/** `id:node/1` or `id:(node/1, way/2)`. Never empty. */
export interface TypedIdSetNode {
  kind: 'typedIdSet';
  refs: TypedId[];
}
export interface TypedId {
  osmType: OsmType;
  id: number;
}
/** `id:(a..b)`, `id:(a..)`, `id:(..b)`: inclusive; `null` is an open end (at least one is set). */
export interface IdRangeNode {
  kind: 'idRange';
  min: number | null;
  max: number | null;
}
/** `changeset:1` or `changeset:(1, 2)`. Never empty. */
export interface ChangesetSetNode {
  kind: 'changesetSet';
  ids: number[];
}
/** `changeset:(a..b)` with open ends as for ids. */
export interface ChangesetRangeNode {
  kind: 'changesetRange';
  min: number | null;
  max: number | null;
}

/** `other` exists only in version 1, `collection` only in version 2 (README.md, "Semantics"). */
export type GeometryShape = 'point' | 'line' | 'polygon' | 'other' | 'collection';
/** `geometry:point|line|polygon|other|collection`. */
export interface GeometryNode {
  kind: 'geometry';
  shape: GeometryShape;
}

/** Real-valued measures of the (unclipped) geometry. */
export type FloatMeasure = 'area' | 'length' | 'perimeter' | 'roundness' | 'squareness';
/** `area:(a..b)` etc.: inclusive, `null` is an open end (at least one is set). */
export interface FloatRangeNode {
  kind: 'floatRange';
  measure: FloatMeasure;
  min: number | null;
  max: number | null;
}
/** Integer-valued measures of the geometry. */
export type CountMeasure = 'vertices' | 'outers' | 'inners';
/**
 * `geometry.vertices:(a..b)`, `geometry.outers:n` … An open lower end means 0 (not −∞), as in the
 * reference; outers/inners only match polygonal geometries.
 */
export interface CountRangeNode {
  kind: 'countRange';
  measure: CountMeasure;
  min: number | null;
  max: number | null;
}

export interface AndNode {
  kind: 'and';
  operands: FilterNode[];
}
export interface OrNode {
  kind: 'or';
  operands: FilterNode[];
}
export interface NotNode {
  kind: 'not';
  operand: FilterNode;
}
/** Only ever the whole tree: the empty filter, which matches everything. */
export interface ConstNode {
  kind: 'const';
  value: boolean;
}

export type ConditionNode =
  | TagEqualsNode
  | TagExistsNode
  | TagInNode
  | TagPatternNode
  | TypeNode
  | IdSetNode
  | TypedIdSetNode
  | IdRangeNode
  | ChangesetSetNode
  | ChangesetRangeNode
  | GeometryNode
  | FloatRangeNode
  | CountRangeNode;

export type FilterNode = ConditionNode | AndNode | OrNode | NotNode | ConstNode;

/** A parsed filter: what the API layer keeps in its typed query. */
export interface Filter {
  readonly version: FilterVersion;
  readonly ast: FilterNode;
  /** The text as the user sent it (error messages point into it). */
  readonly source: string;
}

/** Where a node came from: UTF-16 offsets into `Filter.source`, end exclusive. */
export interface Span {
  start: number;
  end: number;
}

const spans = new WeakMap<FilterNode, Span>();

/** Records the source span of a node (the parser calls this). */
export function setSpan(node: FilterNode, span: Span): void {
  spans.set(node, span);
}

/** The source span of a node produced by the parser, if known. */
export function spanOf(node: FilterNode): Span | undefined {
  return spans.get(node);
}

/** Calls `visit` for every node of the tree, parents before children. */
export function walk(node: FilterNode, visit: (n: FilterNode) => void): void {
  visit(node);
  if (node.kind === 'and' || node.kind === 'or') for (const o of node.operands) walk(o, visit);
  else if (node.kind === 'not') walk(node.operand, visit);
}
