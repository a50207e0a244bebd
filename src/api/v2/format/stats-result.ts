/**
 * A statistics answer ready to print: columns of formatted timestamps and integer values (docs/reference/v2-reference-and-contributions-format.md §1.5:
 * values rounded, groups sorted by tag value). JSON and CSV print the same StatsTable.
 */
import type { FeatureStatsResult } from '../../../query/stats.js';
import { formatTimestamp } from '../params/timestamp.js';

export type StatsTable =
  | { kind: 'series'; timestamp: string[]; value: number[]; groups?: [string, number[]][] }
  | { kind: 'bins'; start: string[]; end: string[]; value: number[] };

function round(values: readonly number[]): number[] {
  return values.map((v) => Math.round(v));
}

export function seriesTable(timestamps: readonly number[], result: FeatureStatsResult): StatsTable {
  const table: StatsTable = { kind: 'series', timestamp: timestamps.map(formatTimestamp), value: round(result.total) };
  if (result.groups) {
    table.groups = [...result.groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, round(v)]);
  }
  return table;
}

export function binsTable(edges: readonly number[], values: readonly number[]): StatsTable {
  return {
    kind: 'bins',
    start: edges.slice(0, -1).map(formatTimestamp),
    end: edges.slice(1).map(formatTimestamp),
    value: round(values),
  };
}
