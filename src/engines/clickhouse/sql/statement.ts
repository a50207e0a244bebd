/**
 * A ClickHouse statement: its SQL and the type each result column is read as (RowBinary,
 * row-binary.ts). The SQL casts every column to that type; the reader checks the names ClickHouse
 * reports against the declared ones (`RowBinaryWithNamesAndTypes`), as the DuckDB engine checks its
 * statements' columns.
 */
import type { Statement } from '../../sql/statement.js';
import type { ChReadType } from '../row-binary.js';

export interface ChStatement<R> extends Statement<R> {
  readonly types: Readonly<Record<string, ChReadType>>;
}

export function chStatement<R>(text: string, types: { readonly [K in keyof R & string]: ChReadType }): ChStatement<R> {
  return { text, columns: Object.keys(types) as (keyof R & string)[], types };
}

export function isChStatement<R>(st: Statement<R>): st is ChStatement<R> {
  return 'types' in st;
}
