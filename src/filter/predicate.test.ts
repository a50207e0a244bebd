// The JavaScript predicate against the reference semantics (docs/reference/history-engine-semantics.md §1.5).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseFilter } from './parser.js';
import { compilePredicate } from './predicate.js';
import type { FilterableState } from './state.js';
import type { FilterVersion } from './ast.js';
import type { TagSource } from './state.js';

function state(over: Partial<FilterableState> = {}): FilterableState {
  return {
    type: 'way',
    id: 10,
    changeset: 100,
    tags: [],
    geometryType: 'LineString',
    area: 0,
    length: 50,
    perimeter: 0,
    vertices: 3,
    outers: -1,
    inners: -1,
    roundness: 0,
    squareness: 0,
    ...over,
  };
}

function matches(filter: string, s: FilterableState, version: FilterVersion = 1, tags?: TagSource): boolean {
  return compilePredicate(parseFilter(filter, { version }), { tags })(s);
}

describe('tag conditions', () => {
  const s = state({ tags: ['highway', 'residential', 'name', 'Main Street'] });
  it('= != =* !=*', () => {
    assert.equal(matches('highway=residential', s), true);
    assert.equal(matches('highway=track', s), false);
    assert.equal(matches('highway!=track', s), true);
    assert.equal(matches('building!=yes', s), true, 'true when the key is absent');
    assert.equal(matches('highway=*', s), true);
    assert.equal(matches('building=*', s), false);
    assert.equal(matches('building!=*', s), true);
  });
  it('in, and its negation', () => {
    assert.equal(matches('highway in (track, residential)', s), true);
    assert.equal(matches('building in (yes)', s), false);
    assert.equal(matches('not building in (yes)', s), true);
  });
  it('patterns (version 2)', () => {
    assert.equal(matches('name ~ Main*', s, 2), true);
    assert.equal(matches('name ~ *Street', s, 2), true);
    assert.equal(matches('name ~ *"n S"*', s, 2), true);
    assert.equal(matches('name ~ *main*', s, 2), false, 'case-sensitive');
    assert.equal(matches('ref ~ *a*', s, 2), false);
  });
  it('the empty filter matches everything', () => {
    assert.equal(matches('', s), true);
  });
});

describe('ids, types and changesets', () => {
  const s = state({ type: 'node', id: 42, changeset: 7 });
  it('all id forms', () => {
    assert.equal(matches('id:42', s), true);
    assert.equal(matches('id:(1, 42)', s), true);
    assert.equal(matches('id:node/42', s), true);
    assert.equal(matches('id:way/42', s), false);
    assert.equal(matches('id:(way/1, node/42)', s), true);
    assert.equal(matches('id:(42..)', s), true);
    assert.equal(matches('id:(..41)', s), false);
    assert.equal(matches('id:(50..40)', s), true, 'swapped in version 1');
  });
  it('type and changeset', () => {
    assert.equal(matches('type:node', s), true);
    assert.equal(matches('not type:node', s), false);
    assert.equal(matches('changeset:7', s), true);
    assert.equal(matches('changeset:(1..6)', s), false);
    assert.equal(matches('not changeset:(1, 2)', s), true);
  });
});

describe('geometry types', () => {
  const cases: { name: string; s: FilterableState; v1: string[]; v2: string[] }[] = [
    { name: 'node point', s: state({ type: 'node', geometryType: 'Point' }), v1: ['point'], v2: ['point'] },
    { name: 'one-node way built as a point', s: state({ type: 'way', geometryType: 'Point' }), v1: [], v2: ['point'] },
    { name: 'way line', s: state({ type: 'way', geometryType: 'LineString' }), v1: ['line'], v2: ['line'] },
    { name: 'way polygon', s: state({ type: 'way', geometryType: 'Polygon' }), v1: ['polygon'], v2: ['polygon'] },
    { name: 'multipolygon relation', s: state({ type: 'relation', geometryType: 'MultiPolygon' }), v1: ['polygon'], v2: ['polygon'] },
    { name: 'relation collection', s: state({ type: 'relation', geometryType: 'GeometryCollection' }), v1: ['other'], v2: ['collection'] },
    { name: 'clipped way collection', s: state({ type: 'way', geometryType: 'GeometryCollection' }), v1: ['other'], v2: ['collection'] },
    { name: 'relation of nodes (MultiPoint)', s: state({ type: 'relation', geometryType: 'MultiPoint' }), v1: [], v2: ['collection'] },
    { name: 'relation of ways (MultiLineString)', s: state({ type: 'relation', geometryType: 'MultiLineString' }), v1: [], v2: ['collection'] },
    { name: 'no geometry', s: state({ geometryType: null }), v1: [], v2: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      for (const shape of ['point', 'line', 'polygon', 'other']) {
        const expected = c.v1.includes(shape);
        assert.equal(matches(`geometry:${shape}`, c.s, 1), expected, `v1 ${shape}`);
        // version 1 negation is the `or` of the other three, so a state matching none matches no negation either
        const othersMatch = c.v1.length > 0 && !expected;
        assert.equal(matches(`not geometry:${shape}`, c.s, 1), othersMatch, `v1 not ${shape}`);
      }
      for (const shape of ['point', 'line', 'polygon', 'collection']) {
        assert.equal(matches(`geometry:${shape}`, c.s, 2), c.v2.includes(shape), `v2 ${shape}`);
        assert.equal(matches(`not geometry:${shape}`, c.s, 2), !c.v2.includes(shape), `v2 not ${shape}`);
      }
    });
  }
  it('negation pushes through and/or (De Morgan) with the version-1 rule', () => {
    const onePointWay = state({ type: 'way', geometryType: 'Point', tags: ['a', 'b'] });
    assert.equal(matches('not (geometry:point and a=b)', onePointWay, 1), false);
    assert.equal(matches('not (geometry:point and a=c)', onePointWay, 1), true);
  });
});

describe('measures', () => {
  const polygon = state({ geometryType: 'Polygon', area: 100, perimeter: 40, vertices: 5, outers: 1, inners: 2, roundness: 0.78, squareness: null, length: 0 });
  const line = state({ geometryType: 'LineString', outers: 0, inners: 0 });
  it('inclusive ranges with open ends', () => {
    assert.equal(matches('area:(100..100)', polygon), true);
    assert.equal(matches('area:(..99.5)', polygon), false);
    assert.equal(matches('perimeter:(40..)', polygon), true);
    assert.equal(matches('length:(..0)', polygon), true);
    assert.equal(matches('geometry.roundness:(0.7..0.8)', polygon), true);
    assert.equal(matches('area:(5..1)', polygon), false, 'reversed measure ranges match nothing');
  });
  it('counts: an open lower end is 0', () => {
    assert.equal(matches('geometry.vertices:(..5)', polygon), true);
    assert.equal(matches('geometry.vertices:(6..)', polygon), false);
    assert.equal(matches('geometry.inners:2', polygon), true);
    assert.equal(matches('geometry.outers:(1..1)', polygon), true);
  });
  it('outers and inners only match polygonal geometries', () => {
    assert.equal(matches('geometry.outers:(..5)', line), false);
    assert.equal(matches('geometry.inners:0', line), false);
  });
  it('an unknown measure matches no range, so its negation matches', () => {
    assert.equal(matches('geometry.squareness:(0..1)', polygon), false);
    assert.equal(matches('not geometry.squareness:(0..1)', polygon), true);
  });
});

describe('tag sources (version 2 contributions)', () => {
  const s = state({ tags: ['building', 'yes'], tagsBefore: ['building', 'house'] });
  it('current, before, either', () => {
    assert.equal(matches('building=house', s, 2), false);
    assert.equal(matches('building=house', s, 2, 'before'), true);
    assert.equal(matches('building=house', s, 2, 'currentOrBefore'), true);
    assert.equal(matches('building=yes', s, 2, 'currentOrBefore'), true);
    assert.equal(matches('building=no', s, 2, 'currentOrBefore'), false);
    assert.equal(matches('building=*', state({ tags: [] }), 2, 'before'), false, 'missing tagsBefore is no tags');
  });
});
