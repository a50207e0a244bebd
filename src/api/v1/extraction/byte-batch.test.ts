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

test('recycled buffers are reused, and a batch in use is never overwritten', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.string({ maxLength: 40 }), fc.boolean()), { maxLength: 80 }), fc.integer({ min: 1, max: 64 }), (steps, batchBytes) => {
      const batch = new ByteBatch(batchBytes, 2);
      // Batches handed out and not yet given back must keep their bytes whatever happens after.
      const inUse: { bytes: Buffer; copy: string }[] = [];
      for (const [text, giveBack] of steps) {
        batch.add(text);
        if (batch.full) {
          const bytes = batch.take();
          inUse.push({ bytes, copy: bytes.toString('latin1') });
        }
        if (giveBack && inUse.length > 0) batch.recycle(inUse.shift()!.bytes);
        for (const b of inUse) assert.equal(b.bytes.toString('latin1'), b.copy);
      }
    }),
  );
});

test('a recycled buffer gathers a later batch', () => {
  const batch = new ByteBatch(8);
  batch.add('0123456789');
  const first = batch.take(); // the next batch is gathered in a fresh buffer
  batch.recycle(first);
  batch.add('abcdefghij');
  const second = batch.take(); // and the one after in the recycled one
  assert.notEqual(second.buffer, first.buffer);
  batch.add('klmnopqrst');
  const third = batch.take();
  assert.equal(third.buffer, first.buffer);
  assert.equal(third.toString(), 'klmnopqrst');
  assert.equal(second.toString(), 'abcdefghij');
});
