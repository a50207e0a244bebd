/**
 * Disjunctive normal form (an `or` of `and`-clauses of possibly negated conditions), for planners
 * that want to see, say, which OSM types each alternative can match. Multiplying `or`s out can
 * explode (`(a or b) and (c or d) and …` doubles per factor), so the size is computed first, in
 * one linear pass with saturating arithmetic, and an oversized filter fails with FILTER_TOO_COMPLEX
 * before any clause is built.
 */
import { MaphistError } from '../core/errors.js';
import type { ConditionNode, FilterNode } from './ast.js';

/** A condition or its negation. */
export interface Literal {
  node: ConditionNode;
  negated: boolean;
}
/** `or` over clauses, each an `and` over literals. `[]` matches nothing, `[[]]` everything. */
export type Dnf = Literal[][];

/**
 * Number of clauses of the DNF of `node`, computed without building it; saturates at `cap` so
 * that it stays cheap and exact up to the cap.
 */
export function dnfSize(node: FilterNode, cap = Number.MAX_SAFE_INTEGER): number {
  return sizes(node, cap)[0];
}

/** [clauses of node, clauses of not node], each saturated at cap. */
function sizes(node: FilterNode, cap: number): [number, number] {
  switch (node.kind) {
    case 'const':
      return node.value ? [1, 0] : [0, 1];
    case 'not': {
      const [p, n] = sizes(node.operand, cap);
      return [n, p];
    }
    case 'and':
    case 'or': {
      let product = 1;
      let sum = 0;
      const isAnd = node.kind === 'and';
      for (const o of node.operands) {
        const [p, n] = sizes(o, cap);
        const multiplied = isAnd ? p : n; // and: clauses multiply; or under not: De Morgan gives an and
        const added = isAnd ? n : p;
        product = Math.min(cap, product * multiplied);
        sum = Math.min(cap, sum + added);
      }
      return isAnd ? [product, sum] : [sum, product];
    }
    default:
      return [1, 1];
  }
}

/** Throws FILTER_TOO_COMPLEX when the DNF of `node` has more than `maxTerms` clauses. */
export function checkDnfSize(node: FilterNode, maxTerms: number): void {
  if (!Number.isFinite(maxTerms)) return;
  const size = dnfSize(node, maxTerms + 1);
  if (size > maxTerms) {
    throw new MaphistError(
      'FILTER_TOO_COMPLEX',
      `the filter multiplies out to more than ${maxTerms} alternatives (an \`or\` inside an \`and\` multiplies); ` +
        'list many values of one key with `key in (…)` and many ids with `id:(…)`, or split the request',
      { maxDnfTerms: maxTerms },
    );
  }
}

/** The DNF of `node`; FILTER_TOO_COMPLEX beyond `maxTerms` clauses (checked before building). */
export function toDnf(node: FilterNode, maxTerms = 10_000): Dnf {
  checkDnfSize(node, maxTerms);
  return build(node, false);
}

function build(node: FilterNode, negated: boolean): Dnf {
  switch (node.kind) {
    case 'const':
      return node.value !== negated ? [[]] : [];
    case 'not':
      return build(node.operand, !negated);
    case 'and':
    case 'or': {
      const conjunctive = (node.kind === 'and') !== negated;
      const parts = node.operands.map((o) => build(o, negated));
      if (!conjunctive) return parts.flat();
      let acc: Dnf = [[]];
      for (const part of parts) {
        const next: Dnf = [];
        for (const a of acc) for (const b of part) next.push([...a, ...b]);
        acc = next;
      }
      return acc;
    }
    default:
      return [[{ node, negated }]];
  }
}
