import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { batchSql, idBatches } from './extraction.js';

test('idBatches cut each type\'s id range into ascending, disjoint batches that cover it exactly', () => {
  const stat = fc.record({ type: fc.constantFrom(0, 1, 2), lo: fc.integer({ min: 1, max: 1e9 }), span: fc.integer({ min: 0, max: 1e7 }), n: fc.integer({ min: 1, max: 5e6 }) });
  fc.assert(
    fc.property(fc.uniqueArray(stat, { selector: (s) => s.type, maxLength: 3 }), fc.integer({ min: 1, max: 1e6 }), (stats, batchRows) => {
      const input = stats.map(({ type, lo, span, n }) => ({ type, lo, hi: lo + span, n }));
      const batches = idBatches(input, batchRows);
      for (const s of input) {
        const own = batches.filter((b) => b.type === s.type);
        assert.equal(own[0].lo, s.lo);
        assert.equal(own[own.length - 1].hi, s.hi);
        for (let i = 1; i < own.length; i++) assert.equal(own[i].lo, own[i - 1].hi + 1);
        assert.ok(own.length <= Math.max(1, Math.ceil(s.n / batchRows)));
      }
      const types = batches.map((b) => b.type);
      assert.deepEqual(types, [...types].sort((a, b) => a - b));
    }),
  );
});

test('batchSql takes only integers', () => {
  assert.equal(batchSql({ type: 1, lo: 5, hi: 9 }), '(st.type = 1 AND st.id BETWEEN 5 AND 9)');
  assert.throws(() => batchSql({ type: 1, lo: 0.5, hi: 9 }), RangeError);
});
