import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BYTES_PER_COLLECTION, ChunkCollectionPacer, chunkBytes, chunkCollectionPacer } from './chunk-collection.js';

test('a collection runs once per BYTES_PER_COLLECTION of chunk data read, not before', () => {
  let collections = 0;
  const pacer = new ChunkCollectionPacer(() => collections++);
  const perChunk = chunkBytes(2048, 12);
  const chunksPerCollection = Math.ceil(BYTES_PER_COLLECTION / perChunk);
  for (let i = 1; i < chunksPerCollection; i++) pacer.chunkRead(2048, 12);
  assert.equal(collections, 0);
  pacer.chunkRead(2048, 12);
  assert.equal(collections, 1);
  for (let i = 0; i < chunksPerCollection * 3; i++) pacer.chunkRead(2048, 12);
  assert.equal(collections, 4);
});

test('whatever the chunk sizes, collections = floor(bytes read / every) when no chunk exceeds `every`', () => {
  fc.assert(
    fc.property(fc.array(fc.record({ rows: fc.integer({ min: 1, max: 2048 }), columns: fc.integer({ min: 1, max: 20 }) }), { maxLength: 400 }), (chunks) => {
      const every = 1_000_000;
      let collections = 0;
      const pacer = new ChunkCollectionPacer(() => collections++, every);
      let read = 0;
      let expected = 0;
      let sinceLast = 0;
      for (const { rows, columns } of chunks) {
        pacer.chunkRead(rows, columns);
        read += chunkBytes(rows, columns);
        sinceLast += chunkBytes(rows, columns);
        if (sinceLast >= every) {
          expected++;
          sinceLast = 0;
        }
      }
      assert.equal(collections, expected, `after ${read} bytes`);
    }),
  );
});

test('the process pacer collects garbage for real: an unreachable object with a finaliser is finalised', async () => {
  const pacer = chunkCollectionPacer();
  let finalised = false;
  const registry = new FinalizationRegistry(() => (finalised = true));
  (() => registry.register({ big: new Array(1000).fill(0) }, 'x'))();
  for (let i = 0; i * chunkBytes(2048, 16) <= BYTES_PER_COLLECTION; i++) pacer.chunkRead(2048, 16);
  // Finalisation callbacks run in a later task.
  for (let i = 0; i < 20 && !finalised; i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(finalised, 'the object was not collected');
});

test('blob payloads count towards the next collection; short ones (inline in the vector) do not', () => {
  let collections = 0;
  const pacer = new ChunkCollectionPacer(() => collections++, 1000);
  for (let i = 0; i < 100; i++) pacer.payloadRead(12);
  assert.equal(collections, 0);
  pacer.payloadRead(600);
  assert.equal(collections, 0);
  pacer.payloadRead(400);
  assert.equal(collections, 1);
});
