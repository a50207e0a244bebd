// The filter's restatement of the store layout must match src/store/schema.ts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as schema from '../../store/schema.js';
import { GEOMETRY_CODE, KEY_MASK_BITS, packTag, type FilterColumn } from './columns.js';

const COLUMNS: Record<FilterColumn, string> = {
  type: 'UTINYINT',
  id: 'BIGINT',
  changeset: 'BIGINT',
  tag_kv: 'BIGINT[]',
  key_mask: 'BIGINT',
  tag_kv_before: 'BIGINT[]',
  key_mask_before: 'BIGINT',
  geometry_type: 'UTINYINT',
  area: 'DOUBLE',
  length: 'DOUBLE',
  perimeter: 'DOUBLE',
  vertices: 'INTEGER',
  outers: 'INTEGER',
  inners: 'INTEGER',
  roundness: 'DOUBLE',
  squareness: 'DOUBLE',
};

describe('columns.ts matches store/schema.ts', () => {
  it('geometry codes are the one table in core', () => {
    assert.equal(GEOMETRY_CODE, schema.GEOMETRY_TYPE_CODE);
    assert.equal(schema.GEOMETRY_TYPE_CODE.None, 0);
  });
  it('key mask bits', () => assert.equal(KEY_MASK_BITS, schema.KEY_MASK_BITS));
  it('tag packing', () => {
    for (const [k, v] of [
      [0, 0],
      [1, 2],
      [62, 4294967295],
      [2 ** 21, 7],
      [2 ** 31 - 1, 2 ** 32 - 1],
    ] as const) {
      assert.equal(packTag(k, v), schema.packTag(k, v));
    }
    assert.throws(() => packTag(-1, 0), RangeError);
    assert.throws(() => packTag(0, 2 ** 32), RangeError);
    assert.throws(() => packTag(0.5, 0), RangeError);
  });
  it('every column the filter reads exists with the expected type', () => {
    for (const [name, type] of Object.entries(COLUMNS)) {
      const re = new RegExp(`^\\s*${name}\\s+${type.replace(/[[\]]/g, '\\$&')}[\\s,]`, 'm');
      assert.match(schema.STATES_COLUMNS, re, name);
    }
  });
});
