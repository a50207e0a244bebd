/** The DuckDB rendering of filter SQL (tested against @duckdb/node-api 1.5). */
import type { FilterColumn } from './columns.js';
import type { SqlDialect } from './dialect.js';

export const duckdbDialect: SqlDialect = {
  name: 'duckdb',
  column(name: FilterColumn, table?: string): string {
    return table === undefined ? `"${name}"` : `${table}."${name}"`;
  },
  trueLiteral: 'TRUE',
  falseLiteral: 'FALSE',
  bitAnd: (a, b) => `(${a} & ${b})`,
  shiftRight: (a, bits) => `(${a} >> ${bits})`,
  bitCount: (a) => `bit_count(${a})`,
  least: (a, b) => `least(${a}, ${b})`,
  listElement: (list, index) => `${list}[${index}]`,
  listContains: (list, element) => `list_contains(${list}, ${element})`,
  listHasAny: (list, elements) => `list_has_any(${list}, [${elements.join(', ')}]::BIGINT[])`,
  listHasInRange: (list, lo, hi) => `(len(list_filter(${list}, lambda t: t >= ${lo} AND t <= ${hi})) > 0)`,
};
