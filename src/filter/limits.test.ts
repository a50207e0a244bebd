import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isMaphistError } from '../core/errors.js';
import { parseFilter } from './parser.js';
import { DEFAULT_LIMITS } from './limits.js';
import { dnfSize, toDnf } from './normalize.js';

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    assert.ok(isMaphistError(e), String(e));
    return e.code;
  }
  return 'OK';
}

describe('limits', () => {
  it('rejects filters longer than maxLength', () => {
    const long = `name="${'x'.repeat(DEFAULT_LIMITS.maxLength)}"`;
    assert.equal(
      code(() => parseFilter(long, { version: 1 })),
      'FILTER_TOO_LONG',
    );
    assert.equal(
      code(() => parseFilter('a=b', { version: 1, limits: { maxLength: 2 } })),
      'FILTER_TOO_LONG',
    );
  });

  it('rejects nesting deeper than maxDepth, before the stack does', () => {
    const deep = (n: number): string => `${'('.repeat(n)}a=b${')'.repeat(n)}`;
    assert.equal(
      code(() => parseFilter(deep(DEFAULT_LIMITS.maxDepth), { version: 1 })),
      'OK',
    );
    assert.equal(
      code(() => parseFilter(deep(DEFAULT_LIMITS.maxDepth + 1), { version: 1 })),
      'FILTER_TOO_DEEP',
    );
    assert.equal(
      code(() => parseFilter(`${'not '.repeat(60_000)}a=b`, { version: 1, limits: { maxLength: 1e6 } })),
      'FILTER_TOO_DEEP',
    );
    assert.equal(
      code(() => parseFilter('('.repeat(60_000), { version: 1, limits: { maxLength: 1e6 } })),
      'FILTER_TOO_DEEP',
    );
  });

  it('the depth error says where and what', () => {
    try {
      parseFilter('((a=b))', { version: 1, limits: { maxDepth: 1 } });
      assert.fail();
    } catch (e) {
      assert.ok(isMaphistError(e));
      assert.equal(e.message, 'line 1, column 2: the filter nests parentheses and `not` more than 1 levels deep');
    }
  });

  it('long flat chains are not deep', () => {
    const chain = Array.from({ length: 5000 }, (_, i) => `k=${i}`).join(' or ');
    assert.equal(
      code(() => parseFilter(chain, { version: 1 })),
      'OK',
    );
  });

  it('a huge or of ands is rejected before it is multiplied out, with a clear error', () => {
    // 2^40 clauses once multiplied out: the limit stops the expansion at 10,000 terms (no hang).
    const f = Array.from({ length: 40 }, (_, i) => `(a${i}=1 or b${i}=2)`).join(' and ');
    try {
      parseFilter(f, { version: 1 });
      assert.fail();
    } catch (e) {
      assert.ok(isMaphistError(e));
      assert.equal(e.code, 'FILTER_TOO_COMPLEX');
      assert.match(e.message, /more than 10000 alternatives/);
    }
  });

  it('the DNF limit is adjustable and can be switched off', () => {
    const f = Array.from({ length: 20 }, (_, i) => `(a${i}=1 or b${i}=2)`).join(' and ');
    assert.equal(
      code(() => parseFilter(f, { version: 1, limits: { maxDnfTerms: Infinity } })),
      'OK',
    );
    assert.equal(
      code(() => parseFilter('(a=1 or b=1) and (c=1 or d=1)', { version: 1, limits: { maxDnfTerms: 3 } })),
      'FILTER_TOO_COMPLEX',
    );
  });
});

describe('normal form', () => {
  const parse = (s: string) => parseFilter(s, { version: 1, limits: { maxDnfTerms: Infinity } }).ast;
  it('counts clauses through not (De Morgan)', () => {
    assert.equal(dnfSize(parse('(a=1 or b=1) and (c=1 or d=1 or e=1)')), 6);
    assert.equal(dnfSize(parse('not (a=1 and b=1 and c=1)')), 3);
    assert.equal(dnfSize(parse('not ((a=1 or b=1) and (c=1 or d=1))')), 2);
    assert.equal(dnfSize(parse('')), 1);
  });
  it('saturates instead of overflowing', () => {
    const f = Array.from({ length: 200 }, (_, i) => `(a${i}=1 or b${i}=2)`).join(' and ');
    assert.equal(dnfSize(parse(f), 10_001), 10_001);
  });
  it('builds the clauses', () => {
    const dnf = toDnf(parse('type:way and not (a=1 or b=2)'));
    assert.equal(dnf.length, 1);
    assert.deepEqual(
      dnf[0]!.map((l) => [l.node.kind, l.negated]),
      [
        ['type', false],
        ['tagEquals', true],
        ['tagEquals', true],
      ],
    );
    assert.deepEqual(toDnf(parse('')), [[]]);
    assert.equal(
      code(() => toDnf(parse(Array.from({ length: 14 }, (_, i) => `(a${i}=1 or b${i}=2)`).join(' and ')))),
      'FILTER_TOO_COMPLEX',
    );
  });
});
