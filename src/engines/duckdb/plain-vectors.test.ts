import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DuckDBInstance, JSDuckDBValueConverter } from '@duckdb/node-api';
import { isPlainType, plainAt, plainColumn, writePlain } from './plain-vectors.js';

// Every plain type, with NULLs at the validity mask's word and byte edges (rows 0, 7, 8, 63, 64,
// 127, 2047: the last row of a chunk) and every 5th row, values at each type's extremes and, for
// FLOAT and DOUBLE, NaN, infinities and -0; 5,000 rows, so three chunks, the last one partial.
// One column has no NULL at all (DuckDB then gives no validity mask).
const SQL = `SELECT
  CASE WHEN n THEN NULL ELSE i % 2 = 0 END AS b,
  CASE WHEN n THEN NULL ELSE (i % 256 - 128)::TINYINT END AS i8,
  CASE WHEN n THEN NULL ELSE (i * 13 % 65536 - 32768)::SMALLINT END AS i16,
  CASE WHEN n THEN NULL WHEN i = 1 THEN -2147483648 WHEN i = 2 THEN 2147483647 ELSE (i * 7919 - 10000000)::INTEGER END AS i32,
  CASE WHEN n THEN NULL ELSE (i % 256)::UTINYINT END AS u8,
  CASE WHEN n THEN NULL ELSE (i * 13 % 65536)::USMALLINT END AS u16,
  CASE WHEN n THEN NULL WHEN i = 1 THEN 4294967295 ELSE (i * 104729)::UINTEGER END AS u32,
  CASE WHEN n THEN NULL WHEN i = 1 THEN 'nan'::FLOAT WHEN i = 2 THEN '-inf'::FLOAT WHEN i = 3 THEN -0.0::FLOAT ELSE (i / 3)::FLOAT END AS f32,
  CASE WHEN n THEN NULL WHEN i = 1 THEN 'nan'::DOUBLE WHEN i = 2 THEN 'inf'::DOUBLE WHEN i = 3 THEN -0.0::DOUBLE ELSE i / 7 + 1e15 END AS f64,
  (i * 1.5)::DOUBLE AS dense
FROM (SELECT i, i IN (0, 7, 8, 63, 64, 127, 2047) OR i % 5 = 4 AS n FROM range(5000) t(i)) ORDER BY i`;

test('plain columns read from the vectors memory give what the converter gives, NULLs and edge values included', async () => {
  const instance = await DuckDBInstance.create(':memory:');
  const con = await instance.connect();
  try {
    const result = await con.run(SQL);
    let rows = 0;
    for (;;) {
      const chunk = await result.fetchChunk();
      if (chunk === null || chunk.rowCount === 0) break;
      for (let c = 0; c < chunk.columnCount; c++) {
        const vector = chunk.getColumnVector(c);
        const typeId = vector.type.typeId;
        assert.ok(isPlainType(typeId), `column ${c} is of a plain type`);
        const expected: unknown[] = [];
        for (let i = 0; i < chunk.rowCount; i++) expected.push(JSDuckDBValueConverter(vector.getItem(i), vector.type, JSDuckDBValueConverter));
        const plain = plainColumn(chunk, c, typeId);
        const appended: unknown[] = [];
        writePlain(plain, chunk.rowCount, appended, 0);
        // From an offset into an array made to length (readColumns writes each chunk so).
        const placed: unknown[] = new Array(chunk.rowCount + 2);
        writePlain(plain, chunk.rowCount, placed, 2);
        const one = expected.map((_, i) => plainAt(plain, i));
        // deepStrictEqual tells -0 from 0 and takes NaN as equal to NaN (Object.is).
        assert.deepStrictEqual(appended, expected, `column ${c}, rows ${rows}…`);
        assert.deepStrictEqual(placed.slice(2), expected, `column ${c}, rows ${rows}…, at 2`);
        assert.deepStrictEqual(one, expected, `column ${c}, rows ${rows}…`);
      }
      rows += chunk.rowCount;
    }
    assert.equal(rows, 5000);
  } finally {
    con.closeSync();
    instance.closeSync();
  }
});

test('a column of another type is refused, not misread', async () => {
  const instance = await DuckDBInstance.create(':memory:');
  const con = await instance.connect();
  try {
    const chunk = (await (await con.run("SELECT 'a' AS s, 1::BIGINT AS big")).fetchChunk())!;
    for (let c = 0; c < 2; c++) {
      const typeId = chunk.getColumnVector(c).type.typeId;
      assert.equal(isPlainType(typeId), false);
      assert.throws(() => plainColumn(chunk, c, typeId), /not a plain type/);
    }
  } finally {
    con.closeSync();
    instance.closeSync();
  }
});
