/**
 * The CSV statistics answer (docs/reference/v2-reference-and-contributions-format.md §1.5): three `# ` comment lines, a header, one row per timestamp or
 * bin; `;` between fields, `\n` after each line, fields quoted with `"` only when they must be.
 * Grouped: `timestamp;value;tagvalue` (`start;end;value;tagvalue` for bins; the column is `type`
 * for groupBy byType), first the rows of each group (in answer order), then the totals with an
 * empty group.
 */
import { ATTRIBUTION, API_VERSION_V2 } from '../../attribution.js';
import type { StatsTable } from './stats-result.js';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** Minimal quoting (Python's csv.QUOTE_MINIMAL with `;`). */
export function csvField(value: string): string {
  return /[;"\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function statsCsv(table: StatsTable): string {
  const lines = [`# apiVersion: ${API_VERSION_V2}`, `# attribution.url: ${ATTRIBUTION.url}`, `# attribution.text: ${ATTRIBUTION.text}`];
  const row = (...fields: (string | number)[]) => lines.push(fields.map((f) => csvField(String(f))).join(';'));
  const column = table.groupColumn ?? 'tagvalue';
  if (table.kind === 'bins') {
    if (table.groups === undefined) {
      row('start', 'end', 'value');
      table.value.forEach((v, i) => row(table.start[i]!, table.end[i]!, v));
    } else {
      row('start', 'end', 'value', column);
      for (const [group, values] of table.groups) values.forEach((v, i) => row(table.start[i]!, table.end[i]!, v, group));
      table.value.forEach((v, i) => row(table.start[i]!, table.end[i]!, v, ''));
    }
  } else if (table.groups === undefined) {
    row('timestamp', 'value');
    table.value.forEach((v, i) => row(table.timestamp[i]!, v));
  } else {
    row('timestamp', 'value', column);
    for (const [group, values] of table.groups) values.forEach((v, i) => row(table.timestamp[i]!, v, group));
    table.value.forEach((v, i) => row(table.timestamp[i]!, v, ''));
  }
  return `${lines.join('\n')}\n`;
}
