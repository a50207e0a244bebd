/**
 * The ClickHouse rendering of filter SQL, for the ClickHouse form of a store (src/engines/clickhouse/
 * schema.ts: the same columns, booleans as UInt8). Written to what both ClickHouse 18.16 (Debian's)
 * and current servers accept: no `bitCount` in 18.16 (the set bits are counted as the length of
 * `bitmaskToArray`, which takes the non-negative masks the compiler makes), no boolean literals.
 * Tested against a real 18.16 cluster (src/engines/clickhouse/cluster.test.ts).
 */
import type { FilterColumn } from './columns.js';
import type { SqlDialect } from './dialect.js';

export const clickhouseDialect: SqlDialect = {
  name: 'clickhouse',
  column(name: FilterColumn, table?: string): string {
    return table === undefined ? `\`${name}\`` : `${table}.\`${name}\``;
  },
  trueLiteral: '1',
  falseLiteral: '0',
  bitAnd: (a, b) => `bitAnd(${a}, ${b})`,
  shiftRight: (a, bits) => `bitShiftRight(${a}, ${bits})`,
  bitCount: (a) => `length(bitmaskToArray(${a}))`,
  least: (a, b) => `least(${a}, ${b})`,
  listElement: (list, index) => `arrayElement(${list}, ${index})`,
  listContains: (list, element) => `has(${list}, ${element})`,
  listHasAny: (list, elements) => `hasAny(${list}, [${elements.map((e) => `toInt64(${e})`).join(', ')}])`,
  listHasInRange: (list, lo, hi) => `arrayExists(t -> t >= ${lo} AND t <= ${hi}, ${list})`,
};
