/**
 * Version 2 statistics (docs/reference/v2-reference-and-contributions-format.md §2): the typed queries the v2 request
 * layer (src/api/v2) hands to a statistics engine, and its answers. Nothing here knows HTTP.
 *
 * Values are unrounded (the API rounds them to integers); arrays are zero-filled, one entry per
 * timestamp (features) or per bin (the others).
 */
import type { Filter } from '../filter/index.js';
import type { AreaOfInterest } from './model.js';

export type StatsMeasure = 'count' | 'length' | 'area';

/**
 * groupBy of every statistic (issue 22; the reference's v2 has `byTag` on features only):
 *   - `tag`: one series per value of `key` (only the `values` when given), next to the total; a
 *     feature lacking the key (or with another value) counts only in the total. A contribution
 *     counts in the group of the key's value after it and in that of the value before it (a
 *     deletion only before, a creation only after), so one that changed the value is in both;
 *   - `type`: one series per element type, `node`, `way`, `relation` (always all three).
 * A contributor counts in each group where they have a contribution in the bin.
 */
export type StatsGrouping = { by: 'tag'; key: string; values?: string[] } | { by: 'type' };

/** The element types of a `type` grouping, in answer order. */
export const STATS_TYPE_GROUPS = ['node', 'way', 'relation'] as const;

/** A grouped bin statistic: the total and, per group label (tag value or type), its series. */
export interface GroupedBins {
  total: number[];
  groups: Map<string, number[]>;
}

/**
 * /stats/features/{measure}: per timestamp ts, the states with valid_from <= ts < valid_to that are
 * not deleted, have a valid geometry, are not GeometryCollections (relations other than
 * multipolygon/boundary), intersect the aoi (exact geometry test, not only bboxes) and match the
 * filter. count = number of states; length/area = sum of the unclipped precomputed measure, or,
 * with clip, of the measure of geometry ∩ aoi.
 */
export interface FeatureStatsQuery {
  aoi: AreaOfInterest;
  /** Epoch seconds, ascending, at least one. */
  timestamps: number[];
  filter: Filter;
  measure: StatsMeasure;
  clip: boolean;
  /** groupBy {type: byTag, key}: also one series per value of this key (features lacking it only count in the total). Same as `groupBy: {by: 'tag', key}`. */
  groupByKey?: string;
  /** Any grouping (StatsGrouping); wins over `groupByKey`. */
  groupBy?: StatsGrouping;
  signal?: AbortSignal;
}

export interface FeatureStatsResult {
  /** Over all matching features (with or without the group key). */
  total: number[];
  /**
   * Only when grouped: tag value → series, every value that occurs (only the requested ones, each
   * even when it does not occur, with `values`); or type → series for the three types. Sorted by
   * the API layer.
   */
  groups?: Map<string, number[]>;
}

/** The bins are [edges[i], edges[i+1]): at least two edges, ascending (epoch seconds). */
export interface BinStatsQuery {
  aoi: AreaOfInterest;
  edges: number[];
  filter: Filter;
  signal?: AbortSignal;
}

/** /stats/currentness/{measure}: the current (latest, not deleted) states, binned by their valid_from. */
export interface CurrentnessQuery extends BinStatsQuery {
  measure: StatsMeasure;
  clip: boolean;
}

export interface StatsEngine {
  features(q: FeatureStatsQuery): Promise<FeatureStatsResult>;
  /**
   * Distinct user ids per bin over the contributions (kept, i.e. not collapsed, states of any status,
   * deletions included) whose valid_from lies in the bin, whose geometry intersects the aoi, and whose
   * current tags or tags before match the filter.
   */
  contributors(q: BinStatsQuery): Promise<number[]>;
  /** Number of those contributions per bin. */
  contributions(q: BinStatsQuery): Promise<number[]>;
  currentness(q: CurrentnessQuery): Promise<number[]>;
  /** contributors, contributions or currentness (then `q` is a CurrentnessQuery) grouped (StatsGrouping). */
  groupedBins(kind: 'contributors' | 'contributions', q: BinStatsQuery, groupBy: StatsGrouping): Promise<GroupedBins>;
  groupedBins(kind: 'currentness', q: CurrentnessQuery, groupBy: StatsGrouping): Promise<GroupedBins>;
}
