import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ByteBatch } from './byte-batch.js';

test('ByteBatch hands out exactly the UTF-8 bytes of the texts added, batch by batch', () => {
  fc.assert(
    fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 300 }), { maxLength: 60 }), fc.integer({ min: 1, max: 200 }), (texts, batchBytes) => {
      const batch = new ByteBatch(batchBytes);
      const chunks: Buffer[] = [];
      for (const t of texts) {
        batch.add(t);
        if (batch.full) {
          const chunk = batch.take();
          assert.ok(chunk.length >= batchBytes);
          chunks.push(chunk);
        }
      }
      chunks.push(batch.take());
      assert.equal(Buffer.concat(chunks).toString('utf8'), texts.join(''));
    }),
  );
});

test('a text bigger than the batch grows the buffer', () => {
  const batch = new ByteBatch(4);
  batch.add('é'.repeat(100));
  assert.ok(batch.full);
  assert.equal(batch.take().toString('utf8'), 'é'.repeat(100));
  assert.equal(batch.take().length, 0);
});
