// Error messages: `line L, column C: expected …, found …` plus hints for the common mistakes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isMaphistError } from '../core/errors.js';
import { parseFilter } from './parser.js';
import { positionAt } from './errors.js';
import type { FilterVersion } from './ast.js';

function message(text: string, version: FilterVersion = 1): string {
  try {
    parseFilter(text, { version });
  } catch (e) {
    assert.ok(isMaphistError(e));
    return e.message;
  }
  assert.fail(`accepted ${JSON.stringify(text)}`);
}

describe('error messages', () => {
  it('point at line and column, say what was expected and what was found', () => {
    assert.equal(
      message('a=b AND highway=residential'),
      'line 1, column 5: expected `and`, `or` or the end of the filter, found `AND`. Hint: operators are lowercase: write `and` instead of `AND`',
    );
    assert.equal(message('type:Node'), 'line 1, column 6: expected `node`, `way` or `relation`, found `Node`. Hint: types are lowercase: write `node`');
    assert.equal(
      message('a=b and'),
      'line 1, column 8: expected `(`, `not` or a condition such as `key=value`, `type:way` or `id:123`, found the end of the filter',
    );
    assert.match(message('(a=b'), /^line 1, column 5: expected `and`, `or` or `\)`, found the end of the filter\. Hint: the `\(` at column 1 is not closed$/);
    assert.match(message('a=b)'), /^line 1, column 4: expected `and`, `or` or the end of the filter, found `\)`\. Hint: this `\)` has no matching `\(`$/);
    assert.match(message('name="unterminated'), /^line 1, column 19: expected `"`, found the end of the filter/);
  });

  it('count lines and columns in characters', () => {
    assert.match(message('a=b and\n  c=d\n  or x=ä'), /^line 3, column 8:/);
    assert.match(message('name="😀" and x=é'), /^line 1, column 16:/);
    assert.deepEqual(positionAt('ab\ncd', 4), { line: 2, column: 2, offset: 4 });
  });

  it('carry the position and the parts in details', () => {
    try {
      parseFilter('a=b\nor c', { version: 1 });
      assert.fail();
    } catch (e) {
      assert.ok(isMaphistError(e));
      assert.equal(e.code, 'FILTER_SYNTAX');
      assert.deepEqual(
        { ...e.details, hint: undefined },
        {
          line: 2,
          column: 5,
          offset: 8,
          expected: ['`=`', '`!=`', '`in`', '`~`'],
          found: 'the end of the filter',
          hint: undefined,
        },
      );
    }
  });

  describe('hints for common mistakes', () => {
    const cases: [string, RegExp][] = [
      ['name=Colorado River', /Hint: a value with spaces must be double-quoted: `name="Colorado River"`/],
      ['name=a.b', /Hint: a value with characters other than .* must be double-quoted: `name="a.b"`/],
      ['maxspeed=3.5 and x=y', /must be double-quoted: `maxspeed="3.5"`/],
      ['name=café', /must be double-quoted: `name="café"`/],
      ['a=b AND c=d', /operators are lowercase: write `and`/],
      ['a=b Or c=d', /operators are lowercase: write `or`/],
      ['NOT a=b', /operators are lowercase: write `not`/],
      ['highway:residential', /written with `=` \(like `highway=residential`\)/],
      ['highway : residential', /written with `=`/],
      ['a=b && c=d', /write `and` instead of `&&`/],
      ['a=b || c=d', /write `or` instead of `\|\|`/],
      ['!a=b', /a key is missing|write `not`/],
      ["name='x'", /double quotes/],
      ['a=b c=d', /join two conditions with `and` or `or`/],
      ['a=b andc=d', /put a space after `and`/],
      ['name=ä', /must be double-quoted/],
      ['id:(node/1, 3)', /either plain ids or typed ids/],
      ['area:5', /ranges are written in parentheses: `area:\(min..max\)`/],
      ['geometry:Polygon', /lowercase/],
      ['geometry:multipolygon', /`geometry:polygon` selects polygons and multipolygons/],
      ['Type:way', /selectors are lowercase: write `type:`/],
      ['highway in ()', /at least one value/],
      ['geometry:collection', /version 1 of the filter language calls this `geometry:other`/],
    ];
    for (const [input, hint] of cases) it(JSON.stringify(input), () => assert.match(message(input), hint));
  });
});
