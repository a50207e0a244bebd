import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isMaphistError } from '../core/errors.js';
import type { FilterVersion } from './ast.js';
import { assertNoChangesetCondition, possibleOsmTypes, usesGeometry } from './checks.js';
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
      assert.throws(() => assertNoChangesetCondition(parse(text)), (e: unknown) => {
        assert.ok(isMaphistError(e));
        assert.equal(e.code, 'FILTER_NOT_ALLOWED');
        const col = text.indexOf('changeset') + 1;
        assert.equal(e.message, `line 1, column ${col}: changeset filters can only be used in contribution-based endpoints`);
        return true;
      });
    });
  }
  it('works on hand-built trees without positions', () => {
    assert.throws(() => assertNoChangesetCondition({ version: 1, source: '', ast: { kind: 'changesetSet', ids: [1] } }),
      /^Error|changeset filters can only be used/);
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
