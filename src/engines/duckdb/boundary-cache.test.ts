import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ByteBoundedLru } from './boundary-cache.js';

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
