import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { decodeUtf8, findBadPercentEncoding } from './utf8.js';

/** The straightforward definition (a regex over runs, every run decoded): the oracle of the one-pass scan. */
function byRegex(text: string): { parameter: string | undefined; run: string } | undefined {
  for (const m of text.matchAll(/(?:%[0-9A-Fa-f]{2})+/g)) {
    const run = m[0];
    const bytes = Uint8Array.from({ length: run.length / 3 }, (_, i) => Number.parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16));
    if (decodeUtf8(bytes) !== undefined) continue;
    const start = text.lastIndexOf('&', m.index) + 1;
    const eq = text.indexOf('=', start);
    const name = eq >= 0 && eq < m.index ? text.slice(start, eq) : undefined;
    return {
      parameter: name === undefined ? undefined : name.length > 40 ? `${name.slice(0, 40)}…` : name,
      run: run.length > 36 ? `${run.slice(0, 36)}…` : run,
    };
  }
  return undefined;
}

test('findBadPercentEncoding: the first run that is not UTF-8, as the regex definition finds it', () => {
  const piece = fc.oneof(
    fc.constantFrom('%', '%%', '%2', '%2C', '%e2%82%ac', '%E2%82', '%C3%A9', '%ff', '%FE%FF', '%8', '%G1', '&', '=', 'a', 'bpolys', '+', 'é', '%20'),
    fc.string({ maxLength: 3 }),
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
      const text = pieces.join('');
      assert.deepEqual(findBadPercentEncoding(text), byRegex(text), text);
    }),
    { numRuns: 3000 },
  );
});

test('findBadPercentEncoding names the parameter and shortens the run', () => {
  assert.equal(findBadPercentEncoding('bboxes=1%2C2%2C3&filter=a%3Db'), undefined);
  assert.deepEqual(findBadPercentEncoding('bboxes=1%2C2&filter=%ff%fe'), { parameter: 'filter', run: '%ff%fe' });
  assert.deepEqual(findBadPercentEncoding('%ff=1'), { parameter: undefined, run: '%ff' });
  assert.equal(findBadPercentEncoding(`a=${'%41'.repeat(100)}`), undefined);
  assert.equal(findBadPercentEncoding(`a=${'%C3'.repeat(20)}`)?.run, `${'%C3'.repeat(12)}…`);
});
