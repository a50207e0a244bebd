import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { BATCH_BYTES, BATCH_ROWS, batchCount, idBatches, splitBatch, type IdBatch } from '../../../query/extraction.js';
import { planAreaSql } from '../../sql/area.js';
import { batchSql, candidatesWhere, idCutsSql } from './extraction.js';

const inBatch = (b: IdBatch, id: number) => (b.from === undefined || id >= b.from) && (b.to === undefined || id < b.to);

test('idBatches put every id in exactly one batch, batches ascending, whatever the cuts', () => {
  fc.assert(
    fc.property(
      fc.array(fc.double({ min: -1e12, max: 1e12, noNaN: true }), { maxLength: 20 }),
      fc.array(fc.integer({ min: -1e12, max: 1e12 }), { maxLength: 50 }),
      (cuts, ids) => {
        const batches = idBatches(1, cuts);
        assert.ok(batches.every((b) => b.type === 1));
        assert.ok(batches.length <= cuts.length + 1);
        for (const id of [...ids, ...cuts.map(Math.ceil)]) assert.equal(batches.filter((b) => inBatch(b, id)).length, 1, `id ${id}`);
        for (let i = 1; i < batches.length; i++) assert.ok(batches[i].from! > (batches[i - 1].from ?? -Infinity) && batches[i - 1].to === batches[i].from);
      },
    ),
  );
});

test('no cuts: one batch of the whole type', () => {
  assert.deepEqual(idBatches(2, []), [{ type: 2 }]);
});

test('batchCount keeps a batch under the row and byte budgets', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 1e8 }), fc.integer({ min: 0, max: 1e4 }), (n, verticesEach) => {
      const rows = { type: 1, n, vertices: n * verticesEach, minor: 0 };
      const k = batchCount(rows);
      assert.ok(n / k <= BATCH_ROWS);
      assert.ok((n * 160 + rows.vertices * 16) / k <= BATCH_BYTES);
      assert.ok(k === 1 || n / (k - 1) > BATCH_ROWS || (n * 160 + rows.vertices * 16) / (k - 1) > BATCH_BYTES, 'no more batches than needed');
    }),
  );
  // The x48 synthetic store's ways at 2017-01-01: 1.94 M rows of 14.7 vertices on average.
  assert.equal(batchCount({ type: 1, n: 1_938_240, vertices: 28_445_424, minor: 0 }), 23);
});

test('batchSql and idCutsSql take only integers', () => {
  assert.equal(batchSql({ type: 1, from: 5, to: 9 }), '(st.type = 1 AND st.id >= 5 AND st.id < 9)');
  assert.equal(batchSql({ type: 0 }, 'v'), '(v.type = 0)');
  assert.equal(batchSql({ type: 2, from: 7 }), '(st.type = 2 AND st.id >= 7)');
  assert.throws(() => batchSql({ type: 1, from: 0.5 }), RangeError);
  const area = planAreaSql(
    {
      id: 'a',
      bbox: [0, 0, 1, 1],
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
            [0, 0],
          ],
        ],
      },
    },
    'st',
  );
  const where = candidatesWhere({ area, kind: 'snapshot' as const, t1: 0, t2: 10, filterSql: 'TRUE' });
  assert.match(idCutsSql({ where, type: 1, parts: 4 }).text, /quantile_disc\(sample\.id, \[0\.25\d*, 0\.5\d*, 0\.75\d*\]\)[\s\S]*reservoir\(4000 ROWS\)/);
  assert.throws(() => idCutsSql({ where, type: 1, parts: 1 }), RangeError);
});

test('splitBatch cuts a batch into two that hold exactly its ids, or refuses a cut outside it', () => {
  const bound = fc.option(fc.integer({ min: -1000, max: 1000 }), { nil: undefined });
  fc.assert(
    fc.property(
      bound,
      bound,
      fc.integer({ min: -1100, max: 1100 }),
      fc.array(fc.integer({ min: -1100, max: 1100 }), { maxLength: 40 }),
      (from, to, cut, ids) => {
        const b: IdBatch = { type: 1, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
        const halves = splitBatch(b, cut);
        const inside = (from === undefined || cut > from) && (to === undefined || cut < to);
        assert.equal(halves !== null, inside);
        if (halves === null) return;
        for (const id of [...ids, cut, cut - 1]) assert.equal(halves.filter((h) => inBatch(h, id)).length, inBatch(b, id) ? 1 : 0);
      },
    ),
  );
});
