import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ByteBoundedLru } from './byte-lru.js';

test('ByteBoundedLru evicts the least recently used entries first', () => {
  const lru = new ByteBoundedLru<string, number>(3, () => 1);
  lru.set('a', 1);
  lru.set('b', 2);
  lru.set('c', 3);
  assert.equal(lru.get('a'), 1); // a is now the most recent
  lru.set('d', 4); // evicts b
  assert.equal(lru.get('b'), undefined);
  assert.deepEqual([lru.get('a'), lru.get('c'), lru.get('d')], [1, 3, 4]);
});

test('ByteBoundedLru never holds more bytes than its budget, and keeps the newest entry that fits', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 40 }))), (ops) => {
      const lru = new ByteBoundedLru<number, number>(50, (v) => v);
      for (const [k, size] of ops) {
        lru.set(k, size);
        assert.ok(lru.totalBytes <= 50);
        if (size <= 50) assert.equal(lru.get(k), size);
        else assert.equal(lru.get(k), undefined);
      }
    }),
  );
});

test('ByteBoundedLru keeps exactly what a plain list model keeps, over random gets and sets (its oldest-entry iterator lives across calls)', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 12 })), { maxLength: 400 }), (ops) => {
      const budget = 40;
      const lru = new ByteBoundedLru<number, number>(budget, (v) => v);
      // The model: [key, bytes] from the least to the most recently used.
      let model: [number, number][] = [];
      for (const [isGet, key, bytes] of ops) {
        const at = model.findIndex(([k]) => k === key);
        if (isGet) {
          assert.equal(lru.get(key), at < 0 ? undefined : model[at][1]);
          if (at >= 0) model.push(model.splice(at, 1)[0]);
          continue;
        }
        lru.set(key, bytes);
        if (at >= 0) model.splice(at, 1);
        if (bytes <= budget) model.push([key, bytes]);
        while (model.reduce((s, [, b]) => s + b, 0) > budget) model.shift();
      }
      assert.equal(lru.size, model.length);
      assert.equal(
        lru.totalBytes,
        model.reduce((s, [, b]) => s + b, 0),
      );
      for (const [k, b] of model) assert.equal(lru.get(k), b);
    }),
    { numRuns: 300 },
  );
});
