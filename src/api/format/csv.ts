/**
 * CSV as the reference writes it with opencsv (docs/reference/v1-reference-behaviour.md §4.3): delimiter `;`, quote
 * `"` (doubled inside), line end `\n`; `#` comment lines first. Whether data rows are quoted depends
 * on the output kind (non-grouped rows quoted, grouped rows not), as in the reference.
 */
import { javaDoubleToString } from './java-double.js';

export interface CsvDocument {
  comments: string[];
  header: string[];
  rows: string[][];
  /** Quote every field of the data rows (non-grouped outputs). */
  quoteRows: boolean;
}

function needsQuotes(field: string): boolean {
  return /[;"\n\r]/.test(field);
}

function quote(field: string): string {
  return `"${field.replace(/"/g, '""')}"`;
}

function line(fields: string[], quoteAll: boolean): string {
  return fields.map((f) => (quoteAll || needsQuotes(f) ? quote(f) : f)).join(';') + '\n';
}

export function writeCsv(doc: CsvDocument): string {
  let text = '';
  for (const c of doc.comments) text += line([`# ${c}`], false);
  text += line(doc.header, false);
  for (const row of doc.rows) text += line(row, doc.quoteRows);
  return text;
}

/** A value cell: Java `String.valueOf(double)` (`5.0`, `NaN`, `Infinity`). */
export function csvNumber(x: number): string {
  return javaDoubleToString(x);
}
