// The verified parse cases of the semantics notes (docs/reference/history-engine-semantics.md §1.1–1.3), and our deliberate differences.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isMaphistError } from '../core/errors.js';
import { parseFilter } from './parser.js';
import { printFilter } from './printer.js';
import type { FilterNode, FilterVersion } from './ast.js';

const ast = (text: string, version: FilterVersion = 1): FilterNode => parseFilter(text, { version }).ast;
const canon = (text: string, version: FilterVersion = 1): string => printFilter(ast(text, version));

function rejects(text: string, version: FilterVersion = 1, code = 'FILTER_SYNTAX'): string {
  try {
    parseFilter(text, { version });
  } catch (e) {
    assert.ok(isMaphistError(e), `not a coded error: ${String(e)}`);
    assert.equal(e.code, code, e.message);
    return e.message;
  }
  assert.fail(`accepted ${JSON.stringify(text)}`);
}

const tag = (key: string, value: string, negated = false): FilterNode => ({ kind: 'tagEquals', key, value, negated });

describe('accepted as in the reference (docs/reference/history-engine-semantics.md §1.2 verified)', () => {
  const cases: [string, string][] = [
    ['highway = residential', 'highway=residential'],
    ['a =* ', 'a=*'],
    ['a!= *', 'a!=*'],
    ['type : node', 'type:node'],
    ['id : 123', 'id:123'],
    ['id:node/123', 'id:node/123'],
    ['id:( 1 .. 3 )', 'id:(1..3)'],
    ['highway in(residential)', 'highway in (residential)'],
    ['area:(1 .. 2)', 'area:(1..2)'],
    ['area:( .. 100)', 'area:(..100)'],
    ['(type:way)and(highway=residential or highway=track)', 'type:way and (highway=residential or highway=track)'],
    ['( a=b )', 'a=b'],
    ['not(a=b)', 'not a=b'],
    ['highway=residential\nand\tbuilding=yes', 'highway=residential and building=yes'],
  ];
  for (const [input, printed] of cases) it(JSON.stringify(input), () => assert.equal(canon(input), printed));
});

describe('rejected as in the reference (docs/reference/history-engine-semantics.md §1.2–1.3 verified)', () => {
  const cases = [
    'id:node / 123',
    'id:(node/1, 3)',
    'id:(..)',
    'id:(1,2..3)',
    'geometry.vertices:5',
    'area:1',
    'type:area',
    'geometry:multipolygon',
    'name=Colorado River',
    'name=a.b',
    'a=b AND highway=residential',
    'name=ä',
    'type:Node',
    'geometry:Polygon',
    'a=b and',
    '(a=b',
    'a=b)',
    'name="unterminated',
    'id:99999999999999999999',
    'id:-1',
    'highway in ()',
    'id:()',
    'contributor:1',
    'area:(.5)',
  ];
  for (const input of cases) it(JSON.stringify(input), () => void rejects(input));
  it('contributor filters say they are not enabled', () => {
    assert.match(rejects('contributor:1'), /contributor.*not enabled/);
  });
});

describe('lexical rules (docs/reference/history-engine-semantics.md §1.1)', () => {
  it('empty and blank filters match everything', () => {
    assert.deepEqual(ast(''), { kind: 'const', value: true });
    assert.deepEqual(ast(' \n\t '), { kind: 'const', value: true });
  });
  it('is case-sensitive for keys and values', () => {
    assert.deepEqual(ast('HIGHWAY=Residential'), tag('HIGHWAY', 'Residential'));
  });
  it('reads bare strings of letters, digits, _ : -', () => {
    assert.deepEqual(ast('addr:street-name_2=a:b-c_1'), tag('addr:street-name_2', 'a:b-c_1'));
  });
  it('reads quoted keys and values with escapes', () => {
    assert.deepEqual(ast('"addr:street"="x y"'), tag('addr:street', 'x y'));
    assert.deepEqual(ast('a="q\\"b\\\\c\\nd\\re\\tf\\xg"'), tag('a', 'q"b\\c\nd\re\tfxg'));
    assert.deepEqual(ast('a=""'), tag('a', ''));
  });
  it('reads scientific and plain decimals', () => {
    assert.deepEqual(ast('area:(1E6..1.E-6)'), { kind: 'floatRange', measure: 'area', min: 1e6, max: 1e-6 });
    assert.deepEqual(ast('length:(.5e3..2.25)'), { kind: 'floatRange', measure: 'length', min: 500, max: 2.25 });
    assert.deepEqual(ast('area:(1e+3..)'), { kind: 'floatRange', measure: 'area', min: 1000, max: null });
  });
});

describe('grammar and precedence (docs/reference/history-engine-semantics.md §1.2)', () => {
  it('parentheses > not > and > or', () => {
    assert.deepEqual(ast('a=1 or b=2 and not c=3'), {
      kind: 'or',
      operands: [tag('a', '1'), { kind: 'and', operands: [tag('b', '2'), { kind: 'not', operand: tag('c', '3') }] }],
    });
  });
  it('chains of one operator are one n-ary node (the reference nests them to the left: same meaning)', () => {
    assert.deepEqual(ast('a=1 or b=2 or c=3'), { kind: 'or', operands: [tag('a', '1'), tag('b', '2'), tag('c', '3')] });
  });
  it('parentheses keep their grouping', () => {
    assert.deepEqual(ast('(a=1 or b=2) or c=3'), {
      kind: 'or',
      operands: [{ kind: 'or', operands: [tag('a', '1'), tag('b', '2')] }, tag('c', '3')],
    });
  });
  it('not may repeat', () => {
    assert.deepEqual(ast('not not a=b'), { kind: 'not', operand: { kind: 'not', operand: tag('a', 'b') } });
  });
  it('tag selectors', () => {
    assert.deepEqual(ast('a!=b'), tag('a', 'b', true));
    assert.deepEqual(ast('a != *'), { kind: 'tagExists', key: 'a', negated: true });
    assert.deepEqual(ast('a in (x, "y z")'), { kind: 'tagIn', key: 'a', values: ['x', 'y z'] });
  });
  it('a tag comes first: `type:way=yes` is the key type:way', () => {
    assert.deepEqual(ast('type:way=yes'), tag('type:way', 'yes'));
    assert.deepEqual(ast('id=5'), tag('id', '5'));
  });
  it('every id form', () => {
    assert.deepEqual(ast('id:123'), { kind: 'idSet', ids: [123] });
    assert.deepEqual(ast('id:(1, 42)'), { kind: 'idSet', ids: [1, 42] });
    assert.deepEqual(ast('id:way/7'), { kind: 'typedIdSet', refs: [{ osmType: 'way', id: 7 }] });
    assert.deepEqual(ast('id:(node/1,way/3)'), {
      kind: 'typedIdSet',
      refs: [
        { osmType: 'node', id: 1 },
        { osmType: 'way', id: 3 },
      ],
    });
    assert.deepEqual(ast('id:(1..9999)'), { kind: 'idRange', min: 1, max: 9999 });
    assert.deepEqual(ast('id:(10..)'), { kind: 'idRange', min: 10, max: null });
    assert.deepEqual(ast('id:(..10)'), { kind: 'idRange', min: null, max: 10 });
  });
  it('type, geometry and measures', () => {
    assert.deepEqual(ast('type:relation'), { kind: 'type', osmType: 'relation' });
    for (const s of ['point', 'line', 'polygon', 'other'] as const) assert.deepEqual(ast(`geometry:${s}`), { kind: 'geometry', shape: s });
    assert.deepEqual(ast('perimeter:(1..2)'), { kind: 'floatRange', measure: 'perimeter', min: 1, max: 2 });
    assert.deepEqual(ast('geometry.roundness:(0.5..)'), { kind: 'floatRange', measure: 'roundness', min: 0.5, max: null });
    assert.deepEqual(ast('geometry.squareness:(..0.9)'), { kind: 'floatRange', measure: 'squareness', min: null, max: 0.9 });
    assert.deepEqual(ast('geometry.vertices:(1..10)'), { kind: 'countRange', measure: 'vertices', min: 1, max: 10 });
    assert.deepEqual(ast('geometry.outers:2'), { kind: 'countRange', measure: 'outers', min: 2, max: 2 });
    assert.deepEqual(ast('geometry.inners:(1..)'), { kind: 'countRange', measure: 'inners', min: 1, max: null });
  });
  it('changeset forms', () => {
    assert.deepEqual(ast('changeset:42'), { kind: 'changesetSet', ids: [42] });
    assert.deepEqual(ast('changeset:(1, 2, 3)'), { kind: 'changesetSet', ids: [1, 2, 3] });
    assert.deepEqual(ast('changeset:(10..12)'), { kind: 'changesetRange', min: 10, max: 12 });
  });
});

describe('reference quirks kept (README "Quirks kept")', () => {
  it('version 1: a quoted star is the wildcard', () => {
    assert.deepEqual(ast('highway="*"'), { kind: 'tagExists', key: 'highway', negated: false });
    assert.deepEqual(ast('highway!="*"'), { kind: 'tagExists', key: 'highway', negated: true });
  });
  it('version 1: reversed id and changeset ranges are swapped', () => {
    assert.deepEqual(ast('id:(3..1)'), { kind: 'idRange', min: 1, max: 3 });
    assert.deepEqual(ast('changeset:(3..1)'), { kind: 'changesetRange', min: 1, max: 3 });
  });
  it('version 1: reversed measure ranges are kept (and match nothing)', () => {
    assert.deepEqual(ast('area:(5..1)'), { kind: 'floatRange', measure: 'area', min: 5, max: 1 });
  });
  it('keywords and selectors are lowercase only', () => {
    rejects('a=b AND c=d');
    rejects('type:Way');
    rejects('Type:way');
  });
});

describe('version 2', () => {
  it('value patterns', () => {
    assert.deepEqual(ast('name ~ Main*', 2), { kind: 'tagPattern', key: 'name', match: 'prefix', text: 'Main' });
    assert.deepEqual(ast('name~*strasse', 2), { kind: 'tagPattern', key: 'name', match: 'suffix', text: 'strasse' });
    assert.deepEqual(ast('name ~ *"a b"*', 2), { kind: 'tagPattern', key: 'name', match: 'substring', text: 'a b' });
    assert.deepEqual(ast('name ~ exact', 2), tag('name', 'exact'));
    rejects('name ~ * x*', 2);
    rejects('name ~ *', 2);
  });
  it('geometry:collection; the version 1 name geometry:other is refused with the new name', () => {
    assert.deepEqual(ast('geometry:collection', 2), { kind: 'geometry', shape: 'collection' });
    assert.throws(
      () => parseFilter('geometry:other', { version: 2 }),
      (e: unknown) => isMaphistError(e) && e.code === 'FILTER_SYNTAX' && /line 1, column 10/.test(e.message) && /geometry:collection/.test(e.message),
    );
  });
  it('a quoted star is a literal value', () => {
    assert.deepEqual(ast('highway="*"', 2), tag('highway', '*'));
  });
  it('reversed ranges are errors', () => {
    assert.match(rejects('id:(3..1)', 2), /upper bound 1 is smaller than the lower bound 3/);
    rejects('area:(5..1)', 2);
  });
  it('selectors version 2 does not offer are not allowed', () => {
    for (const s of [
      'perimeter:(1..2)',
      'geometry.vertices:(1..2)',
      'geometry.outers:1',
      'geometry.inners:1',
      'geometry.roundness:(0..1)',
      'geometry.squareness:(0..1)',
    ]) {
      assert.match(rejects(s, 2, 'FILTER_NOT_ALLOWED'), /not available in version 2/);
    }
  });
  it('value patterns in version 1 too', () => {
    assert.deepEqual(ast('name ~ Main*', 1), { kind: 'tagPattern', key: 'name', match: 'prefix', text: 'Main' });
    assert.deepEqual(ast('name ~ *Street*', 1), { kind: 'tagPattern', key: 'name', match: 'substring', text: 'Street' });
    assert.deepEqual(ast('name ~ exact', 1), tag('name', 'exact'));
  });
  it('version-1-only and version-2-only words', () => {
    rejects('geometry:collection', 1);
    rejects('hashtag:missingmaps', 2);
    rejects('changeset.created_by:JOSM', 2);
  });
});

describe('deliberate differences (README "Deliberate differences")', () => {
  it('1. keywords are whole words: notable=yes is the tag notable', () => {
    assert.deepEqual(ast('notable=yes'), tag('notable', 'yes'));
    assert.deepEqual(ast('nothing=yes'), tag('nothing', 'yes'));
    assert.deepEqual(ast('android=yes or order=1'), { kind: 'or', operands: [tag('android', 'yes'), tag('order', '1')] });
    assert.match(rejects('a=b andhighway=track'), /put a space after `and`/);
    assert.match(rejects('a=b order=x'), /put a space after `or`/);
  });
  it('1b. a keyword followed by an operator is a key', () => {
    assert.deepEqual(ast('not=yes'), tag('not', 'yes'));
    assert.deepEqual(ast('in in (a)'), { kind: 'tagIn', key: 'in', values: ['a'] });
    assert.deepEqual(ast('not in=x'), { kind: 'not', operand: tag('in', 'x') });
  });
  it('2. whitespace is allowed between any two tokens (except inside node/123)', () => {
    assert.equal(canon('id:( 1 , 2 )'), 'id:(1, 2)');
    assert.equal(canon('highway in ( residential )'), 'highway in (residential)');
    assert.equal(canon('highway in (residential )'), 'highway in (residential)');
    assert.equal(canon('area:( 1..2)'), 'area:(1..2)');
    assert.equal(canon('area:(1..2 )'), 'area:(1..2)');
    rejects('id:node / 123');
  });
  it('3. decimals may start or end with a dot', () => {
    assert.deepEqual(ast('area:(.5..1.)'), { kind: 'floatRange', measure: 'area', min: 0.5, max: 1 });
  });
  it('4. integers above 2^53-1 are rejected (JavaScript numbers)', () => {
    ast(`id:${Number.MAX_SAFE_INTEGER}`);
    assert.match(rejects(`id:${Number.MAX_SAFE_INTEGER + 1}`), /too large/);
  });
  it('5. `key in (…)` does not depend on the dictionary: unknown values are no error', () => {
    assert.deepEqual(ast('highway in (unknown1, unknown2)'), { kind: 'tagIn', key: 'highway', values: ['unknown1', 'unknown2'] });
  });
  it('6. positions count in the text as sent (nothing stripped)', () => {
    assert.match(rejects('   a=b AND c=d'), /^line 1, column 8:/);
  });
  it('7. any Unicode whitespace separates tokens', () => {
    assert.equal(canon('a=b\u00a0and\u2003c=d'), 'a=b and c=d');
  });
  it('8. a filter whose normal form explodes is rejected (the reference only skipped its optimisation)', () => {
    const f = Array.from({ length: 14 }, (_, i) => `(a${i}=1 or b${i}=1)`).join(' and ');
    rejects(f, 1, 'FILTER_TOO_COMPLEX');
  });
});
