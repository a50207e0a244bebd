import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isMaphistError } from '../core/errors.js';
import type { FilterVersion } from './ast.js';
import fc from 'fast-check';
import { assertNoChangesetCondition, possibleOsmTypes, requiresTag, usesGeometry } from './checks.js';
import { compilePredicate } from './predicate.js';
import { printFilter } from './printer.js';
import type { FilterableState } from './state.js';
import { treeArb } from './testing/arbitraries.js';
import { parseFilter } from './parser.js';

const parse = (s: string, version: FilterVersion = 1) => parseFilter(s, { version });

describe('assertNoChangesetCondition (snapshot endpoints, version 1)', () => {
  it('passes filters without changeset conditions', () => {
    assertNoChangesetCondition(parse('building=* and type:way'));
    assertNoChangesetCondition(parse('changeset=yes'));
    assertNoChangesetCondition(parse(''));
  });
  for (const text of ['changeset:1', 'a=b and changeset:(1,2)', 'not changeset:(1..5)', 'a=b or (c=d and not (e=f or changeset:3))']) {
    it(`rejects ${JSON.stringify(text)}, also under not and nesting`, () => {
      assert.throws(
        () => assertNoChangesetCondition(parse(text)),
        (e: unknown) => {
          assert.ok(isMaphistError(e));
          assert.equal(e.code, 'FILTER_NOT_ALLOWED');
          const col = text.indexOf('changeset') + 1;
          assert.equal(e.message, `line 1, column ${col}: changeset filters can only be used in contribution-based endpoints`);
          return true;
        },
      );
    });
  }
  it('works on hand-built trees without positions', () => {
    assert.throws(
      () => assertNoChangesetCondition({ version: 1, source: '', ast: { kind: 'changesetSet', ids: [1] } }),
      /^Error|changeset filters can only be used/,
    );
  });
});

describe('possibleOsmTypes', () => {
  const cases: [string, FilterVersion, string[]][] = [
    ['building=*', 1, ['node', 'way', 'relation']],
    ['building=* and type:way', 1, ['way']],
    ['type:node or type:relation', 1, ['node', 'relation']],
    ['not type:node', 1, ['way', 'relation']],
    ['geometry:polygon', 1, ['way', 'relation']],
    ['geometry:point', 1, ['node']],
    ['geometry:point', 2, ['node', 'way', 'relation']],
    ['not geometry:point', 1, ['way', 'relation']],
    ['id:(node/1, way/2)', 1, ['node', 'way']],
    ['type:node and type:way', 1, []],
    ['not (type:node and a=b)', 1, ['node', 'way', 'relation']],
  ];
  for (const [text, version, types] of cases) {
    it(`${text} (v${version})`, () => assert.deepEqual(possibleOsmTypes(parse(text, version)), types));
  }
});

describe('usesGeometry', () => {
  it('sees geometry and measure conditions anywhere', () => {
    assert.equal(usesGeometry(parse('a=b and type:way').ast), false);
    assert.equal(usesGeometry(parse('a=b or not geometry:line').ast), true);
    assert.equal(usesGeometry(parse('area:(1..)').ast), true);
    assert.equal(usesGeometry(parse('geometry.outers:1').ast), true);
  });
});

describe('requiresTag', () => {
  const cases: [string, boolean][] = [
    ['building=*', true],
    ['type:way and highway in (primary, secondary)', true],
    ['amenity=bench or shop=*', true],
    ['name~Main* and type:node', true],
    ['type:node', false],
    ['', false],
    ['name!=x', false],
    ['building!=*', false],
    ['not building=*', false],
    ['building=* or id:1', false],
    ['geometry:point', false],
  ];
  for (const [text, want] of cases) {
    it(`${text === '' ? '(no filter)' : text}: ${want}`, () => assert.equal(requiresTag(parse(text, 2)), want));
  }

  it('never claims a tag when an untagged state matches (generated filters, both tag sources)', () => {
    const untagged = fc.record({
      type: fc.constantFrom('node', 'way', 'relation'),
      id: fc.integer({ min: 1, max: 5 }),
      changeset: fc.integer({ min: 1, max: 5 }),
      geometryType: fc.constantFrom('Point', 'LineString', 'Polygon', 'MultiPolygon', 'GeometryCollection', null),
      area: fc.double({ min: 0, max: 10, noNaN: true }),
      length: fc.double({ min: 0, max: 10, noNaN: true }),
    });
    for (const version of [1, 2] as const) {
      const tree = treeArb({ version, keys: fc.constantFrom('a', 'b'), values: fc.constantFrom('x', 'y'), ids: fc.integer({ min: 1, max: 5 }), maxDepth: 3 });
      fc.assert(
        fc.property(tree, untagged, (ast, s) => {
          const filter = parseFilter(printFilter(ast), { version });
          if (!requiresTag(filter)) return;
          const state = { ...s, tags: [], tagsBefore: [], perimeter: 0, vertices: 1, outers: 0, inners: 0, roundness: 0, squareness: 0 } as FilterableState;
          assert.equal(compilePredicate(filter)(state), false, printFilter(ast));
          assert.equal(compilePredicate(filter, { tags: 'currentOrBefore' })(state), false, printFilter(ast));
        }),
        { numRuns: 500, seed: 15 },
      );
    }
  });
});
