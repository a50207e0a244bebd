/**
 * AST → canonical filter text: one space around `and`/`or`, parentheses only where precedence or
 * grouping needs them, strings quoted only when they must be. `parseFilter(printFilter(ast))`
 * gives back the same tree (the property tests check it), with one version-1 exception: a tag
 * value that is literally `*` prints as `"*"`, which version 1 reads as `=*` (reference quirk).
 */
import type { FilterNode } from './ast.js';
import { BARE_STRING } from './lexer.js';

/** Words that would read as operators; they are always quoted when used as keys or values. */
const RESERVED = new Set(['and', 'or', 'not', 'in']);

/** The canonical text of a filter tree. The always-true filter prints as the empty string. */
export function printFilter(node: FilterNode): string {
  return print(node);
}

function print(node: FilterNode): string {
  switch (node.kind) {
    case 'const':
      if (node.value) return '';
      throw new Error('the always-false filter has no text form');
    case 'and':
      // Operands that are `or` or `and` need parentheses: `or` binds weaker, and a nested `and`
      // would otherwise be flattened into this one.
      return node.operands.map((o) => (o.kind === 'or' || o.kind === 'and' ? `(${print(o)})` : print(o))).join(' and ');
    case 'or':
      return node.operands.map((o) => (o.kind === 'or' ? `(${print(o)})` : print(o))).join(' or ');
    case 'not':
      return node.operand.kind === 'and' || node.operand.kind === 'or' ? `not (${print(node.operand)})` : `not ${print(node.operand)}`;
    case 'tagEquals':
      return `${printString(node.key)}${node.negated ? '!=' : '='}${printString(node.value)}`;
    case 'tagExists':
      return `${printString(node.key)}${node.negated ? '!=' : '='}*`;
    case 'tagIn':
      return `${printString(node.key)} in (${node.values.map(printString).join(', ')})`;
    case 'tagPattern': {
      const text = printString(node.text);
      const pattern = node.match === 'prefix' ? `${text}*` : node.match === 'suffix' ? `*${text}` : `*${text}*`;
      return `${printString(node.key)} ~ ${pattern}`;
    }
    case 'type':
      return `type:${node.osmType}`;
    case 'idSet':
      return node.ids.length === 1 ? `id:${node.ids[0]}` : `id:(${node.ids.join(', ')})`;
    case 'typedIdSet': {
      const refs = node.refs.map((r) => `${r.osmType}/${r.id}`);
      return refs.length === 1 ? `id:${refs[0]}` : `id:(${refs.join(', ')})`;
    }
    case 'idRange':
      return `id:${printRange(node.min, node.max)}`;
    case 'changesetSet':
      return node.ids.length === 1 ? `changeset:${node.ids[0]}` : `changeset:(${node.ids.join(', ')})`;
    case 'changesetRange':
      return `changeset:${printRange(node.min, node.max)}`;
    case 'geometry':
      return `geometry:${node.shape}`;
    case 'floatRange':
      return `${node.measure === 'roundness' || node.measure === 'squareness' ? `geometry.${node.measure}` : node.measure}:${printRange(node.min, node.max)}`;
    case 'countRange':
      if (node.measure !== 'vertices' && node.min !== null && node.min === node.max) return `geometry.${node.measure}:${node.min}`;
      return `geometry.${node.measure}:${printRange(node.min, node.max)}`;
  }
}

function printRange(min: number | null, max: number | null): string {
  return `(${min === null ? '' : printNumber(min)}..${max === null ? '' : printNumber(max)})`;
}

/** JavaScript's shortest round-trip form; the parser reads all of them (`1e+21`, `5e-324`). */
function printNumber(x: number): string {
  return String(x);
}

/** A key or value: bare when it is a plain word, else double-quoted with `\"`, `\\`, `\n`, `\r`, `\t`. */
export function printString(s: string): string {
  if (BARE_STRING.test(s) && !RESERVED.has(s)) return s;
  let out = '"';
  for (const c of s) {
    if (c === '"' || c === '\\') out += `\\${c}`;
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else out += c;
  }
  return `${out}"`;
}
