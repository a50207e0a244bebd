/**
 * The JSON statistics answer (docs/reference/v2-reference-and-contributions-format.md §1.5, OpenAPI 2.0.0a8): `{apiVersion, attribution, result}` with a
 * columnar result; grouped series and bins add `values: {"<tag value or type>": […]}` in answer order. Printed by
 * hand so that tag values like "1" keep their sorted place (JSON.stringify would move
 * integer-like keys first).
 */
import { ATTRIBUTION, API_VERSION_V2 } from '../../attribution.js';
import type { StatsTable } from './stats-result.js';

const j = JSON.stringify;

export function statsJson(table: StatsTable): string {
  let result: string;
  const values = table.groups === undefined ? '' : `,"values":{${table.groups.map(([k, v]) => `${j(k)}:${j(v)}`).join(',')}}`;
  if (table.kind === 'bins') {
    result = `{"start":${j(table.start)},"end":${j(table.end)},"value":${j(table.value)}${values}}`;
  } else {
    result = `{"timestamp":${j(table.timestamp)},"value":${j(table.value)}${values}}`;
  }
  return `{"apiVersion":${j(API_VERSION_V2)},"attribution":${j(ATTRIBUTION)},"result":${result}}`;
}
