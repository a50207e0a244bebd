/**
 * The typed queries the API layers hand to the query engine, and what it answers. The parameter
 * parsers (api/v1/params, api/v2) produce these; the engine (query/) evaluates them over a store;
 * the formatters (api/…/format) round and print the answers. Nothing here knows HTTP.
 */
import type { Filter } from '../filter/index.js';
import type { BBox, MultiPolygon, Polygon } from '../geometry/types.js';

/** One boundary object of the request (a bbox, a circle's polygon, or a (multi)polygon). */
export interface AreaOfInterest {
  /** The id the user gave (or the generated one: "boundary1", "boundary2", …). */
  id: string;
  geometry: Polygon | MultiPolygon;
  bbox: BBox;
}

export type Measure = 'count' | 'length' | 'area' | 'perimeter';

/** How snapshot results are grouped (docs/reference/v1-reference-behaviour.md §3.4). */
export type SnapshotGrouping =
  | { by: 'none' } // the union of all areas
  | { by: 'boundary' } // each area separately, in input order
  | { by: 'type' } // node, way, relation (always all three)
  | { by: 'tag'; key: string; values?: string[] } // key=value groups + remainder
  | { by: 'key'; keys: string[] } // an element goes to every listed key it has; remainder
  | { by: 'boundaryAndTag'; key: string; values?: string[] };

/** What a v1 aggregation request asks to group by: a snapshot grouping, or (contributions only) the contribution type. */
export type RequestGrouping = SnapshotGrouping | { by: 'contributionType' } | { by: 'element' };

/** The group an answer row belongs to. */
export type GroupKey =
  | { kind: 'total' }
  | { kind: 'boundary'; id: string }
  | { kind: 'type'; type: 'node' | 'way' | 'relation' }
  | { kind: 'tag'; key: string; value: string }
  | { kind: 'key'; key: string }
  | { kind: 'remainder' }
  | { kind: 'contributionType'; type: ContributionType }
  | { kind: 'element'; type: 'node' | 'way' | 'relation'; id: number }
  | { kind: 'boundaryAndTag'; id: string; tag: { key: string; value: string } | 'remainder' };

export interface SnapshotQuery {
  areas: AreaOfInterest[];
  /** Epoch seconds, ascending, at least one. */
  timestamps: number[];
  filter: Filter;
  measure: Measure;
  grouping: SnapshotGrouping;
  /** Aborted when the request's time limit passes: the engine stops its work and rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Values are unrounded; one per timestamp (snapshots) or per interval (contributions, users). */
export interface GroupedSeries {
  groups: { key: GroupKey; values: number[] }[];
}

/** Ratio (docs/reference/v1-reference-behaviour.md §3.3): value = measure matching `filter`, value2 = measure matching `filter2`, per timestamp. */
export interface RatioQuery extends Omit<SnapshotQuery, 'grouping'> {
  filter2: Filter;
  /** true: one pair of series per boundary (ratio/groupBy/boundary); false: the union. */
  perBoundary: boolean;
}
export interface RatioSeries {
  groups: { key: GroupKey; values: number[]; values2: number[] }[];
}

export type ContributionType = 'creation' | 'deletion' | 'tagChange' | 'geometryChange';

/** The four contribution types, in the order groupBy/contributionType answers them. */
export const CONTRIBUTION_TYPES: readonly ContributionType[] = ['creation', 'deletion', 'tagChange', 'geometryChange'];

/**
 * How contributions are grouped. `type`, `boundary` and `tag` on users/count follow the reference;
 * on contributions/count (maphist's extension, issue 22): `type` by the element's type; `tag` by the
 * element's value of the key in the state the contribution made (for a deletion, the state it
 * deleted), or `remainder` — every contribution in exactly one group; `contributionType` in each
 * group whose flag it has (creation, deletion, tagChange, geometryChange: a contribution that
 * changed tags and geometry is in both, one that changed nothing visible is in none). `element`
 * (users/count/groupBy/element, issue 22): one group per element with a contribution in the range,
 * its distinct users per interval.
 */
export type ContributionGrouping =
  | { by: 'none' }
  | { by: 'boundary' }
  | { by: 'type' }
  | { by: 'tag'; key: string; values?: string[] }
  | { by: 'key'; keys: string[] }
  | { by: 'contributionType' }
  | { by: 'element' };

export interface ContributionQuery {
  areas: AreaOfInterest[];
  /** Epoch seconds, ascending, at least two: the intervals are [t_i, t_{i+1}). */
  timestamps: number[];
  filter: Filter;
  /** Only contributions of these types (undefined: all, including those with no visible change). */
  contributionTypes?: ContributionType[];
  grouping: ContributionGrouping;
  signal?: AbortSignal;
}

/** What the engine offers the API layers. */
export interface QueryEngine {
  /** Snapshot aggregation: count/length/area/perimeter of the elements valid at each timestamp, clipped to the area. */
  aggregateSnapshots(q: SnapshotQuery): Promise<GroupedSeries>;
  ratio(q: RatioQuery): Promise<RatioSeries>;
  /** Distinct contributing users per interval (users/count; groupBy tag/key add a `total` group). */
  countUsers(q: ContributionQuery): Promise<GroupedSeries>;
  /** Contributions per interval (contributions/count). */
  countContributions(q: ContributionQuery): Promise<GroupedSeries>;
  /** Only each element's last contribution in the whole range (contributions/latest/count). */
  countLatestContributions(q: ContributionQuery): Promise<GroupedSeries>;
}
