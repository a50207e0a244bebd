/**
 * The engine conformance cases: every logical plan shape of the engine contracts (src/query/), as
 * plain data over two small stores. Engine-neutral: nothing here knows an engine. The golden answer
 * of case `c` is testdata/conformance/<c.fixture>/<c.id>.json.
 */
import { join } from 'node:path';
import type { BBox, MultiPolygon, Polygon, Position } from '../../geometry/types.js';
import type { ContributionGrouping, ContributionType, Measure, SnapshotGrouping } from '../../query/model.js';
import type { StatsGrouping, StatsMeasure } from '../../query/stats.js';
import { TEST_DATA } from '../../testing/test-data.js';

/** A store an engine is built over: a history file (and a changeset dump) to import. */
export interface StoreFixture {
  name: 'handmade' | 'andorra-small';
  /** Absolute path of the full-history file (.osh.pbf or .osh). */
  history: string;
  /** Absolute path of a changeset dump to load with it (planet dump layout), if any. */
  changesets?: string;
}

export const CONFORMANCE_DIR = join(TEST_DATA, 'conformance');

export const FIXTURES: Record<StoreFixture['name'], StoreFixture> = {
  // 12 nodes, 3 ways, 1 multipolygon, 28 versions; expected.json there lists its snapshots.
  handmade: {
    name: 'handmade',
    history: join(TEST_DATA, 'testcases', 'handmade', 'history-small.osh.pbf'),
    changesets: join(TEST_DATA, 'changesets', 'handmade-changesets.osm'),
  },
  // Andorra la Vella, 1.515,42.502,1.530,42.512, cut from the Andorra sample (src/testing/cut-history.ts):
  // 18,004 versions of 9,850 nodes, 594 ways, 21 relations.
  'andorra-small': { name: 'andorra-small', history: join(CONFORMANCE_DIR, 'andorra-small.osh.pbf') },
};

/** A named area of a fixture: a bbox (a rectangle polygon) or a polygon / multipolygon. */
export type AreaSpec = { bbox: BBox } | { polygon: Polygon | MultiPolygon };

function ring(cx: number, cy: number, r: number, n: number, phase = 0): Position[] {
  const out: Position[] = [];
  for (let i = 0; i < n; i++) {
    const a = phase + (2 * Math.PI * i) / n;
    // Rounded to 1e-7 so the JSON and every engine see the same numbers.
    out.push([Math.round((cx + r * Math.cos(a)) * 1e7) / 1e7, Math.round((cy + r * Math.sin(a) * 0.75) * 1e7) / 1e7]);
  }
  out.push(out[0]!);
  return out;
}

export const AREAS: Record<StoreFixture['name'], Record<string, AreaSpec>> = {
  handmade: {
    world: { bbox: [-180, -90, 180, 90] },
    // Cuts the building w10 (8.000–8.0015), the street w11 (8.000–8.004 at 49.002), holds the bench n5.
    cut: { bbox: [8.0005, 48.9995, 8.003, 49.0025] },
    // Cuts the multipolygon r20 (8.010–8.012, 49.010–49.012) with a triangle.
    tri: {
      polygon: {
        type: 'Polygon',
        coordinates: [
          [
            [8.009, 49.009],
            [8.0115, 49.009],
            [8.009, 49.0115],
            [8.009, 49.009],
          ],
        ],
      },
    },
  },
  'andorra-small': {
    world: { bbox: [-180, -90, 180, 90] },
    center: { bbox: [1.518, 42.504, 1.527, 42.51] },
    // Overlaps center and reaches beyond the cut's west edge.
    west: { bbox: [1.512, 42.5, 1.521, 42.511] },
    // An 11-gon with a 7-gon hole.
    holed: { polygon: { type: 'Polygon', coordinates: [ring(1.5225, 42.507, 0.0055, 11, 0.2), ring(1.5225, 42.507, 0.0018, 7, 0.5).reverse()] } },
    // Two parts.
    multi: {
      polygon: { type: 'MultiPolygon', coordinates: [[ring(1.518, 42.5045, 0.0025, 5)], [ring(1.5265, 42.5095, 0.003, 6, 0.3)]] },
    },
  },
};

export type ExtractKind = 'snapshot' | 'fullHistory' | 'contributions' | 'latestContributions';

interface Base {
  /** Unique within the fixture; the golden's file name. */
  id: string;
  fixture: StoreFixture['name'];
  /** Filter text (version 1 for the v1 operations, version 2 for stats and parquet). */
  filter: string;
}
export type SnapshotCase = Base & { op: 'snapshots'; areas: string[]; timestamps: string[]; measure: Measure; grouping: SnapshotGrouping };
export type RatioCase = Base & { op: 'ratio'; areas: string[]; timestamps: string[]; measure: Measure; filter2: string; perBoundary: boolean };
export type ContributionCase = Base & {
  op: 'contributions' | 'latest' | 'users';
  areas: string[];
  timestamps: string[];
  grouping: ContributionGrouping;
  contributionTypes?: ContributionType[];
};
export type ExtractCase = Base & { op: 'extract'; kind: ExtractKind; areas: string[]; timestamps: string[]; clipGeometry: boolean };
/** `groupBy` (issue 22): any grouping of every statistic; its series are `group:<label>`, by code point. */
export type StatsFeaturesCase = Base & {
  op: 'stats.features';
  aoi: string;
  timestamps: string[];
  measure: StatsMeasure;
  clip: boolean;
  groupByKey?: string;
  groupBy?: StatsGrouping;
};
export type StatsBinsCase = Base & { op: 'stats.contributions' | 'stats.contributors'; aoi: string; edges: string[]; groupBy?: StatsGrouping };
export type StatsCurrentnessCase = Base & {
  op: 'stats.currentness';
  aoi: string;
  edges: string[];
  measure: StatsMeasure;
  clip: boolean;
  groupBy?: StatsGrouping;
};
export type ParquetCase = Base & {
  op: 'parquet';
  kind: 'features' | 'contributions' | 'collections' | 'collections_members';
  aoi: string;
  time: { at: string } | { start: string; end: string };
  clip: boolean;
  memberFilter?: string;
};

export type ConformanceCase =
  | SnapshotCase
  | RatioCase
  | ContributionCase
  | ExtractCase
  | StatsFeaturesCase
  | StatsBinsCase
  | StatsCurrentnessCase
  | ParquetCase;

/** Whether a case's numbers are all counts (compared exactly) or may hold lengths/areas (within 0.5 %). */
export function isExactCase(c: ConformanceCase): boolean {
  switch (c.op) {
    case 'snapshots':
    case 'ratio':
    case 'stats.features':
    case 'stats.currentness':
      return c.measure === 'count';
    default:
      return true;
  }
}

/** Epoch seconds of an ISO date or time (UTC). */
export function epochOf(iso: string): number {
  const t = Date.parse(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  if (!Number.isFinite(t)) throw new RangeError(`not a time: ${iso}`);
  return t / 1000;
}

// ---------------------------------------------------------------------------------------------
// The cases

const H = 'handmade' as const;
const A = 'andorra-small' as const;

/** expected.json's seven snapshot times. */
const H_SNAP = ['2020-01-15', '2020-02-20', '2020-05-15', '2020-06-15', '2020-07-15', '2020-08-15', '2020-09-15'];
const H_INT = ['2020-01-01', '2020-02-10', '2020-04-01', '2020-06-15', '2020-10-01'];
const A_SNAP = ['2009-01-01', '2011-01-01', '2013-01-01', '2015-01-01', '2017-01-01'];
const A_INT = ['2008-01-01', '2010-01-01', '2012-01-01', '2014-01-01', '2016-01-01', '2017-03-01'];

const snap = (fixture: typeof H | typeof A, id: string, areas: string[], filter: string, measure: Measure, grouping: SnapshotGrouping): SnapshotCase => ({
  id: `snapshots-${id}`,
  fixture,
  op: 'snapshots',
  areas,
  timestamps: fixture === H ? H_SNAP : A_SNAP,
  filter,
  measure,
  grouping,
});

const contrib = (
  fixture: typeof H | typeof A,
  op: ContributionCase['op'],
  id: string,
  areas: string[],
  filter: string,
  grouping: ContributionGrouping,
  contributionTypes?: ContributionType[],
): ContributionCase => ({
  id: `${op}-${id}`,
  fixture,
  op,
  areas,
  timestamps: fixture === H ? H_INT : A_INT,
  filter,
  grouping,
  ...(contributionTypes ? { contributionTypes } : {}),
});

export const CASES: readonly ConformanceCase[] = [
  // ---- snapshots: every measure, every grouping, bbox / polygon with a hole / multipolygon / several areas / whole world
  snap(H, 'count-type-world', ['world'], 'type:node or type:way or type:relation', 'count', { by: 'type' }),
  snap(H, 'count-none-world', ['world'], 'building=* or amenity=* or highway=* or landuse=*', 'count', { by: 'none' }),
  snap(H, 'length-none-cut', ['cut'], 'highway=*', 'length', { by: 'none' }),
  snap(H, 'area-none-cut', ['cut'], 'building=*', 'area', { by: 'none' }),
  snap(H, 'perimeter-none-cut', ['cut'], 'building=*', 'perimeter', { by: 'none' }),
  snap(H, 'area-none-tri', ['tri'], 'landuse=*', 'area', { by: 'none' }),
  snap(H, 'count-tag-amenity', ['world'], 'amenity=*', 'count', { by: 'tag', key: 'amenity' }),
  snap(H, 'count-tag-building-values', ['world'], 'building=* or amenity=*', 'count', { by: 'tag', key: 'building', values: ['house', 'church'] }),
  snap(H, 'count-key', ['world'], 'type:way or type:relation or amenity=*', 'count', { by: 'key', keys: ['highway', 'building', 'landuse'] }),
  snap(H, 'area-boundaryAndTag-landuse', ['world', 'tri', 'cut'], 'landuse=* or building=*', 'area', { by: 'boundaryAndTag', key: 'landuse' }),
  snap(H, 'count-boundary', ['cut', 'tri'], 'building=* or landuse=* or highway=* or amenity=*', 'count', { by: 'boundary' }),

  snap(A, 'count-none-center', ['center'], 'building=*', 'count', { by: 'none' }),
  snap(A, 'count-none-world-relations', ['world'], 'type:relation', 'count', { by: 'none' }),
  snap(A, 'length-none-holed', ['holed'], 'highway=*', 'length', { by: 'none' }),
  snap(A, 'area-none-holed', ['holed'], 'building=*', 'area', { by: 'none' }),
  snap(A, 'perimeter-none-multi', ['multi'], 'building=* or landuse=*', 'perimeter', { by: 'none' }),
  snap(A, 'count-none-union', ['center', 'west'], 'highway=* or building=*', 'count', { by: 'none' }),
  snap(A, 'area-none-union', ['holed', 'west'], 'building=*', 'area', { by: 'none' }),
  snap(A, 'area-boundary', ['center', 'holed', 'multi'], 'building=*', 'area', { by: 'boundary' }),
  snap(A, 'count-type-west', ['west'], 'name=*', 'count', { by: 'type' }),
  snap(A, 'length-type-holed', ['holed'], 'highway=* or power=*', 'length', { by: 'type' }),
  snap(A, 'count-tag-highway-values', ['center'], 'highway=*', 'count', {
    by: 'tag',
    key: 'highway',
    values: ['residential', 'primary', 'footway', 'motorway'],
  }),
  snap(A, 'length-tag-highway', ['holed'], 'type:way', 'length', { by: 'tag', key: 'highway' }),
  snap(A, 'count-key', ['center'], 'type:way', 'count', { by: 'key', keys: ['building', 'highway', 'name'] }),
  snap(A, 'area-key-multi', ['multi'], 'building=* or landuse=* or leisure=*', 'area', { by: 'key', keys: ['building', 'addr:street'] }),
  snap(A, 'count-boundaryAndTag', ['center', 'holed'], 'building=*', 'count', { by: 'boundaryAndTag', key: 'building' }),
  snap(A, 'area-boundaryAndTag-values', ['center', 'west'], 'building=*', 'area', { by: 'boundaryAndTag', key: 'building', values: ['yes', 'residential'] }),

  // ---- ratio: union and per boundary
  {
    id: 'ratio-count-union',
    fixture: H,
    op: 'ratio',
    areas: ['cut', 'tri'],
    timestamps: H_SNAP,
    measure: 'count',
    filter: 'building=* or landuse=* or amenity=*',
    filter2: 'landuse=*',
    perBoundary: false,
  },
  {
    id: 'ratio-count-world',
    fixture: A,
    op: 'ratio',
    areas: ['world'],
    timestamps: A_SNAP,
    measure: 'count',
    filter: 'type:relation',
    filter2: 'type:relation and type=multipolygon',
    perBoundary: false,
  },
  {
    id: 'ratio-count-union',
    fixture: A,
    op: 'ratio',
    areas: ['center', 'west'],
    timestamps: A_SNAP,
    measure: 'count',
    filter: 'building=*',
    filter2: 'building=* and addr:street=*',
    perBoundary: false,
  },
  {
    id: 'ratio-area-boundary',
    fixture: A,
    op: 'ratio',
    areas: ['center', 'holed'],
    timestamps: A_SNAP,
    measure: 'area',
    filter: 'building=*',
    filter2: 'building=yes',
    perBoundary: true,
  },
  {
    id: 'ratio-length-boundary',
    fixture: A,
    op: 'ratio',
    areas: ['multi', 'west'],
    timestamps: A_SNAP,
    measure: 'length',
    filter: 'highway=*',
    filter2: 'highway=residential or highway=primary',
    perBoundary: true,
  },

  // ---- contributions, latest, users: every grouping, contributionTypes
  contrib(H, 'contributions', 'none-world', ['world'], 'building=* or amenity=* or highway=* or landuse=*', { by: 'none' }),
  contrib(H, 'contributions', 'type-world', ['world'], 'type:node or type:way or type:relation', { by: 'type' }),
  contrib(H, 'contributions', 'tag-amenity', ['world'], 'amenity=*', { by: 'tag', key: 'amenity' }),
  contrib(H, 'contributions', 'none-cut', ['cut'], 'building=* or highway=*', { by: 'none' }),
  contrib(H, 'contributions', 'geometry-cut', ['cut'], 'building=* or highway=*', { by: 'none' }, ['geometryChange']),
  contrib(H, 'contributions', 'boundary', ['cut', 'tri'], 'type:way or type:relation or amenity=*', { by: 'boundary' }),
  contrib(H, 'latest', 'none-world', ['world'], 'building=* or amenity=* or highway=* or landuse=*', { by: 'none' }),
  contrib(H, 'users', 'key-world', ['world'], 'type:way or type:relation or amenity=*', { by: 'key', keys: ['building', 'landuse', 'amenity'] }),

  // Times exactly at edits: a state counts from its start (valid_from <= t), intervals are half-open [t_i, t_i+1).
  {
    ...snap(H, 'count-type-at-edits', ['world'], 'type:node or type:way or type:relation', 'count', { by: 'type' }),
    timestamps: ['2020-02-01', '2020-04-01', '2020-07-01', '2020-09-01'],
  },
  {
    ...contrib(H, 'contributions', 'type-at-edits', ['world'], 'type:node or type:way or type:relation', { by: 'type' }),
    timestamps: ['2020-02-01', '2020-04-01', '2020-07-01', '2020-09-01'],
  },
  {
    ...contrib(H, 'users', 'none-at-edits', ['world'], 'type:node or type:way or type:relation', { by: 'none' }),
    timestamps: ['2020-02-01', '2020-04-01', '2020-07-01', '2020-09-01'],
  },
  {
    id: 'stats-contributions-at-edits',
    fixture: H,
    op: 'stats.contributions',
    aoi: 'world',
    edges: ['2020-02-01', '2020-04-01', '2020-07-01', '2020-09-01'],
    filter: 'building=* or amenity=* or highway=* or landuse=*',
  },
  contrib(A, 'contributions', 'type-world', ['world'], 'type:relation or building=*', { by: 'type' }),
  contrib(A, 'users', 'none-world', ['world'], 'type:relation', { by: 'none' }),
  contrib(A, 'contributions', 'none-center', ['center'], 'building=*', { by: 'none' }),
  contrib(A, 'contributions', 'boundary', ['center', 'holed'], 'highway=*', { by: 'boundary' }),
  contrib(A, 'contributions', 'none-union', ['multi', 'west'], 'highway=* or building=*', { by: 'none' }),
  contrib(A, 'contributions', 'type-west', ['west'], 'name=*', { by: 'type' }),
  contrib(A, 'contributions', 'tag-highway', ['center'], 'highway=*', { by: 'tag', key: 'highway' }),
  contrib(A, 'contributions', 'tag-building-values', ['holed'], 'building=* or highway=*', { by: 'tag', key: 'building', values: ['yes', 'house'] }),
  contrib(A, 'contributions', 'key', ['center'], 'type:way', { by: 'key', keys: ['building', 'highway', 'name'] }),
  contrib(A, 'contributions', 'creation-deletion', ['holed'], 'highway=* or building=*', { by: 'none' }, ['creation', 'deletion']),
  contrib(A, 'contributions', 'tag-change', ['center'], 'highway=* or building=*', { by: 'none' }, ['tagChange']),
  contrib(A, 'contributions', 'geometry-change', ['center'], 'highway=* or building=*', { by: 'type' }, ['geometryChange']),
  contrib(A, 'latest', 'none-center', ['center'], 'building=* or highway=*', { by: 'none' }),
  contrib(A, 'latest', 'types-holed', ['holed'], 'building=* or highway=*', { by: 'none' }, ['tagChange', 'geometryChange']),
  contrib(A, 'latest', 'tag-highway', ['west'], 'highway=*', { by: 'tag', key: 'highway', values: ['residential', 'service'] }),
  contrib(A, 'latest', 'type-west', ['west'], 'name=* or building=*', { by: 'type' }),
  contrib(A, 'latest', 'key', ['center'], 'type:way', { by: 'key', keys: ['building', 'highway'] }),
  contrib(A, 'latest', 'boundary', ['center', 'multi'], 'type:way', { by: 'boundary' }),
  contrib(A, 'users', 'none-center', ['center'], 'building=* or highway=*', { by: 'none' }),
  contrib(A, 'users', 'boundary', ['center', 'holed'], 'type:way', { by: 'boundary' }),
  contrib(A, 'users', 'type-west', ['west'], 'name=* or building=*', { by: 'type' }),
  contrib(A, 'users', 'tag-highway', ['center'], 'highway=*', { by: 'tag', key: 'highway' }),
  contrib(A, 'users', 'key', ['multi'], 'type:way', { by: 'key', keys: ['building', 'highway'] }),
  contrib(A, 'users', 'geometry-change', ['holed'], 'building=* or highway=*', { by: 'none' }, ['geometryChange']),
  // users per element (issue 22): the distinct users of each element with a contribution
  contrib(H, 'users', 'element-world', ['world'], 'building=* or amenity=* or highway=* or landuse=*', { by: 'element' }),
  contrib(A, 'users', 'element-holed', ['holed'], 'highway=*', { by: 'element' }),
  // groupBy/contributionType (issue 22): a contribution in each group whose flag it has; the edge of
  // an area (cut, holed) needs the exact geometry comparison of single rows.
  contrib(H, 'contributions', 'contributionType-world', ['world'], 'building=* or amenity=* or highway=* or landuse=*', { by: 'contributionType' }),
  contrib(H, 'contributions', 'contributionType-cut', ['cut'], 'building=* or highway=*', { by: 'contributionType' }),
  contrib(H, 'latest', 'contributionType-world', ['world'], 'building=* or amenity=* or highway=* or landuse=*', { by: 'contributionType' }),
  contrib(A, 'contributions', 'contributionType-holed', ['holed'], 'highway=* or building=*', { by: 'contributionType' }),
  contrib(A, 'contributions', 'contributionType-center-typed', ['center'], 'highway=* or building=*', { by: 'contributionType' }, ['tagChange', 'creation']),
  contrib(A, 'latest', 'contributionType-center', ['center'], 'building=* or highway=*', { by: 'contributionType' }),

  // ---- version 1 extraction (features compared as sorted records)
  {
    id: 'extract-snapshot',
    fixture: H,
    op: 'extract',
    kind: 'snapshot',
    areas: ['world'],
    timestamps: ['2020-01-15', '2020-02-20', '2020-03-15', '2020-05-15', '2020-07-15', '2020-09-15'],
    filter: 'type:way or type:relation or amenity=*',
    clipGeometry: true,
  },
  {
    id: 'extract-fullHistory-cut',
    fixture: H,
    op: 'extract',
    kind: 'fullHistory',
    areas: ['cut'],
    timestamps: ['2020-01-10', '2020-08-15'],
    filter: 'building=* or highway=* or amenity=*',
    clipGeometry: true,
  },
  {
    id: 'extract-contributions',
    fixture: H,
    op: 'extract',
    kind: 'contributions',
    areas: ['world'],
    timestamps: ['2020-01-01', '2020-12-01'],
    filter: 'type:way or type:relation or amenity=*',
    clipGeometry: true,
  },
  {
    id: 'extract-latestContributions-cut',
    fixture: H,
    op: 'extract',
    kind: 'latestContributions',
    areas: ['cut'],
    timestamps: ['2020-01-01', '2020-12-01'],
    filter: 'type:way or amenity=*',
    clipGeometry: false,
  },
  {
    id: 'extract-snapshot-center',
    fixture: A,
    op: 'extract',
    kind: 'snapshot',
    areas: ['center'],
    timestamps: ['2012-01-01', '2017-01-01'],
    filter: 'building=*',
    clipGeometry: true,
  },
  {
    id: 'extract-snapshot-holed-unclipped',
    fixture: A,
    op: 'extract',
    kind: 'snapshot',
    areas: ['holed'],
    timestamps: ['2016-06-01'],
    filter: 'highway=*',
    clipGeometry: false,
  },
  {
    id: 'extract-fullHistory-center',
    fixture: A,
    op: 'extract',
    kind: 'fullHistory',
    areas: ['center'],
    timestamps: ['2012-01-01', '2017-01-01'],
    filter: 'building=* or amenity=*',
    clipGeometry: true,
  },
  {
    id: 'extract-contributions-multi',
    fixture: A,
    op: 'extract',
    kind: 'contributions',
    areas: ['multi'],
    timestamps: ['2013-01-01', '2015-01-01'],
    filter: 'building=* or highway=*',
    clipGeometry: true,
  },
  {
    id: 'extract-latestContributions-center',
    fixture: A,
    op: 'extract',
    kind: 'latestContributions',
    areas: ['center'],
    timestamps: ['2012-01-01', '2017-03-01'],
    filter: 'highway=*',
    clipGeometry: true,
  },

  // ---- version 2 statistics: every measure and statistic, clip, groupBy
  {
    id: 'stats-features-count-world',
    fixture: H,
    op: 'stats.features',
    aoi: 'world',
    timestamps: H_SNAP,
    measure: 'count',
    clip: false,
    filter: 'building=* or amenity=* or highway=* or landuse=*',
  },
  {
    id: 'stats-features-length-cut-clip',
    fixture: H,
    op: 'stats.features',
    aoi: 'cut',
    timestamps: H_SNAP,
    measure: 'length',
    clip: true,
    filter: 'highway=*',
  },
  {
    id: 'stats-features-area-tri-groupby',
    fixture: H,
    op: 'stats.features',
    aoi: 'tri',
    timestamps: H_SNAP,
    measure: 'area',
    clip: true,
    filter: 'landuse=*',
    groupByKey: 'landuse',
  },
  {
    id: 'stats-contributions-world',
    fixture: H,
    op: 'stats.contributions',
    aoi: 'world',
    edges: H_INT,
    filter: 'building=* or amenity=* or highway=* or landuse=*',
  },
  { id: 'stats-contributors-cut', fixture: H, op: 'stats.contributors', aoi: 'cut', edges: H_INT, filter: 'building=* or highway=* or amenity=*' },
  {
    id: 'stats-currentness-count-world',
    fixture: H,
    op: 'stats.currentness',
    aoi: 'world',
    edges: H_INT,
    measure: 'count',
    clip: false,
    filter: 'highway=* or amenity=* or landuse=*',
  },

  {
    id: 'stats-features-count-center',
    fixture: A,
    op: 'stats.features',
    aoi: 'center',
    timestamps: A_SNAP,
    measure: 'count',
    clip: false,
    filter: 'building=*',
  },
  {
    id: 'stats-features-count-holed-groupby',
    fixture: A,
    op: 'stats.features',
    aoi: 'holed',
    timestamps: A_SNAP,
    measure: 'count',
    clip: false,
    filter: 'highway=*',
    groupByKey: 'highway',
  },
  {
    id: 'stats-features-length-holed-clip',
    fixture: A,
    op: 'stats.features',
    aoi: 'holed',
    timestamps: A_SNAP,
    measure: 'length',
    clip: true,
    filter: 'highway=*',
  },
  {
    id: 'stats-features-length-multi',
    fixture: A,
    op: 'stats.features',
    aoi: 'multi',
    timestamps: A_SNAP,
    measure: 'length',
    clip: false,
    filter: 'highway=*',
  },
  {
    id: 'stats-features-area-center-clip-groupby',
    fixture: A,
    op: 'stats.features',
    aoi: 'center',
    timestamps: A_SNAP,
    measure: 'area',
    clip: true,
    filter: 'building=*',
    groupByKey: 'building',
  },
  {
    id: 'stats-features-area-west',
    fixture: A,
    op: 'stats.features',
    aoi: 'west',
    timestamps: A_SNAP,
    measure: 'area',
    clip: false,
    filter: 'building=* or landuse=*',
  },
  { id: 'stats-contributions-center', fixture: A, op: 'stats.contributions', aoi: 'center', edges: A_INT, filter: 'building=* or highway=*' },
  { id: 'stats-contributions-holed', fixture: A, op: 'stats.contributions', aoi: 'holed', edges: A_INT, filter: 'highway=*' },
  { id: 'stats-contributors-center', fixture: A, op: 'stats.contributors', aoi: 'center', edges: A_INT, filter: 'building=* or highway=*' },
  { id: 'stats-contributors-multi', fixture: A, op: 'stats.contributors', aoi: 'multi', edges: A_INT, filter: 'type:way' },
  {
    id: 'stats-currentness-count-center',
    fixture: A,
    op: 'stats.currentness',
    aoi: 'center',
    edges: A_INT,
    measure: 'count',
    clip: false,
    filter: 'building=* or highway=*',
  },
  {
    id: 'stats-currentness-length-holed-clip',
    fixture: A,
    op: 'stats.currentness',
    aoi: 'holed',
    edges: A_INT,
    measure: 'length',
    clip: true,
    filter: 'highway=*',
  },
  { id: 'stats-currentness-area-multi', fixture: A, op: 'stats.currentness', aoi: 'multi', edges: A_INT, measure: 'area', clip: false, filter: 'building=*' },
  // groupBy on every statistic (issue 22): byTag with and without values, byType
  {
    id: 'stats-features-count-holed-groupBy-type',
    fixture: A,
    op: 'stats.features',
    aoi: 'holed',
    timestamps: A_SNAP,
    measure: 'count',
    clip: false,
    filter: 'type:node or type:way or type:relation',
    groupBy: { by: 'type' },
  },
  {
    id: 'stats-features-length-holed-groupBy-values',
    fixture: A,
    op: 'stats.features',
    aoi: 'holed',
    timestamps: A_SNAP,
    measure: 'length',
    clip: true,
    filter: 'highway=*',
    groupBy: { by: 'tag', key: 'highway', values: ['residential', 'service', 'no_such_value'] },
  },
  {
    id: 'stats-contributions-center-groupBy-tag',
    fixture: A,
    op: 'stats.contributions',
    aoi: 'center',
    edges: A_INT,
    filter: 'building=* or highway=*',
    groupBy: { by: 'tag', key: 'highway' },
  },
  {
    id: 'stats-contributions-holed-groupBy-type',
    fixture: A,
    op: 'stats.contributions',
    aoi: 'holed',
    edges: A_INT,
    filter: 'type:node or type:way or type:relation',
    groupBy: { by: 'type' },
  },
  {
    id: 'stats-contributors-center-groupBy-values',
    fixture: A,
    op: 'stats.contributors',
    aoi: 'center',
    edges: A_INT,
    filter: 'building=*',
    groupBy: { by: 'tag', key: 'building', values: ['yes', 'house'] },
  },
  {
    id: 'stats-contributors-multi-groupBy-type',
    fixture: A,
    op: 'stats.contributors',
    aoi: 'multi',
    edges: A_INT,
    filter: 'type:node or type:way or type:relation',
    groupBy: { by: 'type' },
  },
  {
    id: 'stats-currentness-area-holed-groupBy-tag',
    fixture: A,
    op: 'stats.currentness',
    aoi: 'holed',
    edges: A_INT,
    measure: 'area',
    clip: true,
    filter: 'building=* or landuse=*',
    groupBy: { by: 'tag', key: 'building' },
  },
  {
    id: 'stats-currentness-count-center-groupBy-type',
    fixture: A,
    op: 'stats.currentness',
    aoi: 'center',
    edges: A_INT,
    measure: 'count',
    clip: false,
    filter: 'type:node or type:way or type:relation',
    groupBy: { by: 'type' },
  },
  {
    id: 'stats-contributions-world-groupBy-tag',
    fixture: H,
    op: 'stats.contributions',
    aoi: 'world',
    edges: H_INT,
    filter: 'building=* or amenity=* or highway=* or landuse=*',
    groupBy: { by: 'tag', key: 'amenity' },
  },
  {
    id: 'stats-contributors-cut-groupBy-type',
    fixture: H,
    op: 'stats.contributors',
    aoi: 'cut',
    edges: H_INT,
    filter: 'building=* or highway=* or amenity=*',
    groupBy: { by: 'type' },
  },

  // ---- version 2 GeoParquet extraction (decoded rows)
  {
    id: 'parquet-features-at',
    fixture: H,
    op: 'parquet',
    kind: 'features',
    aoi: 'world',
    time: { at: '2020-05-15' },
    clip: true,
    filter: 'building=* or amenity=* or highway=* or landuse=*',
  },
  {
    id: 'parquet-features-range-cut',
    fixture: H,
    op: 'parquet',
    kind: 'features',
    aoi: 'cut',
    time: { start: '2020-01-10', end: '2020-08-15' },
    clip: true,
    filter: 'building=* or highway=* or amenity=*',
  },
  {
    id: 'parquet-contributions',
    fixture: H,
    op: 'parquet',
    kind: 'contributions',
    aoi: 'world',
    time: { start: '2020-01-01', end: '2020-12-01' },
    clip: false,
    filter: 'building=* or amenity=* or highway=* or landuse=*',
  },
  {
    id: 'parquet-features-at-center',
    fixture: A,
    op: 'parquet',
    kind: 'features',
    aoi: 'center',
    time: { at: '2017-01-01' },
    clip: true,
    filter: 'building=*',
  },
  {
    id: 'parquet-features-range-holed',
    fixture: A,
    op: 'parquet',
    kind: 'features',
    aoi: 'holed',
    time: { start: '2015-01-01', end: '2015-07-01' },
    clip: false,
    filter: 'highway=*',
  },
  {
    id: 'parquet-contributions-center',
    fixture: A,
    op: 'parquet',
    kind: 'contributions',
    aoi: 'center',
    time: { start: '2015-06-01', end: '2017-03-01' },
    clip: false,
    filter: 'building=* or highway=*',
  },
  { id: 'parquet-collections', fixture: A, op: 'parquet', kind: 'collections', aoi: 'center', time: { at: '2017-01-01' }, clip: true, filter: 'type:relation' },
  {
    id: 'parquet-collections-members',
    fixture: A,
    op: 'parquet',
    kind: 'collections_members',
    aoi: 'west',
    time: { at: '2017-01-01' },
    clip: false,
    filter: 'type:relation',
    memberFilter: 'highway=*',
  },
];
