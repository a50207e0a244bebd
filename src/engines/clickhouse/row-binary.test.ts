import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RowBinaryReader, RowBinaryWriter } from './row-binary.js';

test('RowBinary: varints, fixed-width little-endian numbers, strings, arrays and Nullable as ClickHouse reads them', () => {
  const w = new RowBinaryWriter(4);
  w.value('UInt8', true);
  w.value('Int32', -2);
  w.value('Int64', 300);
  w.value('Float64', 1.5);
  w.value('String', 'é');
  w.value('Array(Int64)', [1, 2]);
  w.value('Array(String)', ['a']);
  w.value('Nullable(String)', null);
  w.value('Nullable(Float64)', 2);
  w.varint(300);
  const got = w.take().toString('hex');
  const want = [
    '01',
    'feffffff',
    '2c01000000000000',
    '000000000000f83f',
    '02c3a9',
    '02' + '0100000000000000' + '0200000000000000',
    '01' + '0161',
    '01',
    '00' + '0000000000000040',
    'ac02',
  ].join('');
  assert.equal(got, want);
  assert.equal(w.length, 0, 'take() empties the writer');
});

test('RowBinary: what the writer writes, the reader reads back (Nullable(String): NULL and text)', () => {
  const w = new RowBinaryWriter(4);
  w.value('Nullable(String)', null);
  w.value('Nullable(String)', 'Straße');
  w.value('Array(String)', ['a', '東京']);
  w.value('Nullable(Float64)', null);
  w.value('UInt8', 1);
  const r = new RowBinaryReader(w.take());
  assert.deepEqual(
    [r.value('Nullable(String)'), r.value('Nullable(String)'), r.value('Array(String)'), r.value('Nullable(Float64)'), r.value('Bool')],
    [null, 'Straße', ['a', '東京'], null, true],
  );
  assert.ok(r.done);
});
