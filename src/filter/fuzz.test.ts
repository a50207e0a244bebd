// Random and mutated filter texts never raise anything but a coded filter error, and whatever
// parses also compiles.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isMaphistError } from '../core/errors.js';
import type { FilterVersion } from './ast.js';
import { parseFilter } from './parser.js';
import { printFilter } from './printer.js';
import { compilePredicate } from './predicate.js';
import { compileSql } from './sql/compile-sql.js';
import { duckdbDialect } from './sql/duckdb-dialect.js';
import { InMemoryTagDictionary } from './tag-dictionary.js';
import { nastyString, treeArb } from './testing/arbitraries.js';

const dictionary = new InMemoryTagDictionary();
for (const k of ['a', 'b', 'highway', 'name']) for (const v of ['x', 'yes', 'residential']) dictionary.add(k, v);

const PIECES = [
  'and',
  'or',
  'not',
  'in',
  'AND',
  ' ',
  ' ',
  '\n',
  '\t',
  '(',
  ')',
  '"',
  '\\',
  '=',
  '!=',
  '=*',
  '*',
  '~',
  ':',
  ',',
  '..',
  '.',
  '/',
  'type',
  'id',
  'node',
  'way',
  'relation',
  'geometry',
  'point',
  'line',
  'polygon',
  'other',
  'collection',
  'area',
  'length',
  'perimeter',
  'geometry.vertices',
  'geometry.outers',
  'geometry.inners',
  'geometry.roundness',
  'geometry.squareness',
  'changeset',
  'contributor',
  'hashtag',
  'a',
  'highway',
  'x',
  '1',
  '42',
  '1e5',
  '-',
  'ä',
  '😀',
  "'",
  ';',
  '\0',
  '99999999999999999999',
  'SELECT',
  'DROP TABLE',
];

const filterLikeText = fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((xs) => xs.join(''));

function check(text: string, version: FilterVersion): void {
  let filter;
  try {
    filter = parseFilter(text, { version });
  } catch (e) {
    assert.ok(isMaphistError(e), `uncoded error for ${JSON.stringify(text)}: ${String(e)}`);
    assert.match(e.code, /^FILTER_/);
    if (e.code === 'FILTER_SYNTAX' || e.code === 'FILTER_TOO_DEEP') assert.match(e.message, /^line \d+, column \d+: /);
    return;
  }
  compilePredicate(filter);
  compileSql(filter, { dialect: duckdbDialect, dictionary, tags: 'currentOrBefore' });
  // Whatever parses prints to text that parses to the same tree.
  assert.deepStrictEqual(parseFilter(printFilter(filter.ast), { version }).ast, filter.ast);
}

interface Mutation {
  at: number;
  op: 'delete' | 'insert' | 'replace';
  piece: string;
}
const mutation = fc.record({ at: fc.nat(), op: fc.constantFrom('delete', 'insert', 'replace'), piece: fc.constantFrom(...PIECES) });

function mutate(text: string, ms: Mutation[]): string {
  let s = text;
  for (const m of ms) {
    const at = s.length === 0 ? 0 : m.at % (s.length + 1);
    if (m.op === 'delete') s = s.slice(0, at) + s.slice(at + 1);
    else if (m.op === 'insert') s = s.slice(0, at) + m.piece + s.slice(at);
    else s = s.slice(0, at) + m.piece + s.slice(at + m.piece.length);
  }
  return s;
}

describe('fuzzing the parser', () => {
  for (const version of [1, 2] as FilterVersion[]) {
    it(`arbitrary strings (version ${version})`, () => {
      fc.assert(
        fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), nastyString), (t) => check(t, version)),
        { numRuns: 3000 },
      );
    });
    it(`filter-like token soup (version ${version})`, () => {
      fc.assert(
        fc.property(filterLikeText, (t) => check(t, version)),
        { numRuns: 5000 },
      );
    });
    it(`mutated valid filters (version ${version})`, () => {
      const valid = treeArb({
        version,
        keys: fc.constantFrom('a', 'highway', 'not', 'x y'),
        values: fc.constantFrom('x', 'residential', '*', 'a"b'),
        maxDepth: 3,
      }).map(printFilter);
      fc.assert(
        fc.property(valid, fc.array(mutation, { minLength: 1, maxLength: 4 }), (t, ms) => check(mutate(t, ms), version)),
        { numRuns: 5000 },
      );
    });
  }
});
