/**
 * A statistics answer ready to print: columns of formatted timestamps and integer values (docs/reference/v2-reference-and-contributions-format.md §1.5:
 * values rounded, groups sorted by tag value). JSON and CSV print the same StatsTable.
 */
import { STATS_TYPE_GROUPS, type FeatureStatsResult, type StatsGrouping } from '../../../query/stats.js';
import { formatTimestamp } from '../params/timestamp.js';

/** Groups: [name, values] in answer order; `column`: the CSV column naming the group. */
export interface TableGroups {
  groups?: [string, number[]][];
  groupColumn?: 'tagvalue' | 'type';
}

export type StatsTable =
  | ({ kind: 'series'; timestamp: string[]; value: number[] } & TableGroups)
  | ({ kind: 'bins'; start: string[]; end: string[]; value: number[] } & TableGroups);

function round(values: readonly number[]): number[] {
  return values.map((v) => Math.round(v));
}

/** The groups in answer order: tag values sorted (code points), types as node, way, relation. */
function orderedGroups(groups: Map<string, number[]> | undefined, groupBy: StatsGrouping | undefined): TableGroups {
  if (!groups) return {};
  if (groupBy?.by === 'type') {
    return { groups: STATS_TYPE_GROUPS.map((t) => [t, round(groups.get(t) ?? [])]), groupColumn: 'type' };
  }
  return {
    groups: [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, round(v)]),
    groupColumn: 'tagvalue',
  };
}

export function seriesTable(timestamps: readonly number[], result: FeatureStatsResult, groupBy?: StatsGrouping): StatsTable {
  return {
    kind: 'series',
    timestamp: timestamps.map(formatTimestamp),
    value: round(result.total),
    ...orderedGroups(result.groups, groupBy ?? (result.groups ? { by: 'tag', key: '' } : undefined)),
  };
}

export function binsTable(
  edges: readonly number[],
  values: readonly number[] | { total: number[]; groups: Map<string, number[]> },
  groupBy?: StatsGrouping,
): StatsTable {
  const grouped = !Array.isArray(values) ? (values as { total: number[]; groups: Map<string, number[]> }) : undefined;
  return {
    kind: 'bins',
    start: edges.slice(0, -1).map(formatTimestamp),
    end: edges.slice(1).map(formatTimestamp),
    value: round(grouped ? grouped.total : (values as number[])),
    ...orderedGroups(grouped?.groups, groupBy),
  };
}
