import assert from 'node:assert/strict';
import { test } from 'node:test';
import { printFilter } from '../../../filter/index.js';
import { deprecatedFilterText, parseDeprecatedTypes } from './deprecated-filter.js';
import { parseFilters, parseV1Filter } from './filter.js';
import { MSG } from './messages.js';
import { throwsCode } from './test-support.js';

const snapshot = { allowChangeset: false, ratio: false };
const contribution = { allowChangeset: true, ratio: false };
const ratio = { allowChangeset: false, ratio: true };

test('filter parses with the version-1 language; empty = everything', () => {
  assert.equal(parseFilters({ filter: 'type:way and building=residential' }, snapshot).filter.source, 'type:way and building=residential');
  assert.equal(parseFilters({}, snapshot).filter.ast.kind, 'const');
  assert.equal(parseFilters({ filter: '  ' }, snapshot).filter.ast.kind, 'const');
});

test('syntax errors carry the reference prefix, on one line', () => {
  const e = throwsCode(() => parseV1Filter('building=\n(', snapshot), 'FILTER_SYNTAX');
  assert.ok(e.message.startsWith(MSG.FILTER_SYNTAX_PREFIX), e.message);
  assert.ok(!e.message.includes('\n'));
  throwsCode(() => parseV1Filter('contributor:1', contribution), 'FILTER_SYNTAX');
});

test('changeset conditions only on contribution-based routes, also under not', () => {
  throwsCode(() => parseV1Filter('changeset:1', snapshot), 'FILTER_NOT_ALLOWED', MSG.FILTER_CHANGESET);
  throwsCode(() => parseV1Filter('building=* and not changeset:(1..5)', snapshot), 'FILTER_NOT_ALLOWED', MSG.FILTER_CHANGESET);
  parseV1Filter('changeset:1', contribution);
});

test('filter with deprecated parameters is refused', () => {
  throwsCode(() => parseFilters({ filter: 'a=b', types: 'node' }, snapshot), 'PARAM_INVALID', MSG.FILTER_WITH_DEPRECATED);
  throwsCode(() => parseFilters({ filter: 'a=b', keys: 'x' }, snapshot), 'PARAM_INVALID', MSG.FILTER_WITH_DEPRECATED);
});

test('deprecated types, keys, values', () => {
  assert.equal(deprecatedFilterText(undefined, 'k1,k2', 'v1'), '"k1"="v1" and "k2"=*');
  assert.equal(deprecatedFilterText(parseDeprecatedTypes('Node, WAY'), 'addr:housenumber'), '(type:node or type:way) and "addr:housenumber"=*');
  assert.equal(deprecatedFilterText(parseDeprecatedTypes('node,way,relation')), '');
  assert.equal(deprecatedFilterText(parseDeprecatedTypes('polygon,point')), '(geometry:polygon or geometry:point)');
  assert.equal(deprecatedFilterText(undefined, 'a"b', 'c\\d'), '"a\\"b"="c\\\\d"');
  assert.deepEqual(parseDeprecatedTypes('polygon')!.osmTypes, ['way', 'relation']);
  const f = parseFilters({ types: 'way', keys: 'building', values: 'residential' }, snapshot);
  assert.match(printFilter(f.filter.ast), /building/);
  assert.deepEqual(f.deprecatedOsmTypes, ['way']);
  throwsCode(() => parseFilters({ keys: 'a', values: 'b,c' }, snapshot), 'PARAM_INVALID', MSG.VALUES_MORE_THAN_KEYS);
  throwsCode(() => parseFilters({ types: 'node,way,relation,point,line' }, snapshot), 'PARAM_INVALID', MSG.TYPES_TOO_MANY);
  throwsCode(() => parseFilters({ types: 'node,point' }, snapshot), 'PARAM_INVALID', MSG.TYPES_INVALID);
  throwsCode(() => parseFilters({ types: 'nodes' }, snapshot), 'PARAM_INVALID', MSG.TYPES_INVALID);
});

test('ratio needs filter2, unless the deprecated path is taken', () => {
  const r = parseFilters({ filter: 'building=*', filter2: 'highway=*' }, ratio);
  assert.equal(r.filter2!.source, 'highway=*');
  assert.equal(parseFilters({ filter2: 'highway=*' }, ratio).filter.ast.kind, 'const');
  throwsCode(() => parseFilters({ filter: 'building=*' }, ratio), 'PARAM_INVALID', MSG.FILTER2_MISSING);
  throwsCode(() => parseFilters({ filter: 'building=*', filter2: ' ' }, ratio), 'PARAM_INVALID', MSG.FILTER2_MISSING);
  const d = parseFilters({ types: 'way', keys: 'building', types2: 'node', keys2: 'addr:housenumber' }, ratio);
  assert.match(d.filter2!.source, /type:node/);
  throwsCode(() => parseFilters({ filter: 'a=*', filter2: 'b=*', types2: 'bogus' }, ratio), 'PARAM_INVALID', MSG.TYPES_INVALID);
  throwsCode(() => parseFilters({ filter: 'a=*', filter2: 'changeset:1' }, ratio), 'FILTER_NOT_ALLOWED');
});
