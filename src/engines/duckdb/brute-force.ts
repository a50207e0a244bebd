/**
 * Test oracle: the v1 semantics (snapshots docs/reference/v1-reference-behaviour.md §3.1, contributions/users/latest §3.5) evaluated
 * naively in TypeScript over every row of a store: decode every geometry, filter with the
 * JavaScript predicate (not the SQL), clip with the kernel, measure. No interior/boundary split,
 * no SQL window, no one-pass time series: what the engine's fast paths must agree with.
 */
import assert from 'node:assert/strict';
import { compilePredicate, type Filter, type FilterableState, type FilterGeometryType } from '../../filter/index.js';
import { bboxOf, clipToBBox, clipToPolygon } from '../../geometry/clip.js';
import { areaOf, lengthOf, perimeterOf } from '../../geometry/measures.js';
import { decodeWkb } from '../../geometry/wkb.js';
import type { BBox, Geometry, MultiPolygon, Polygon, Position } from '../../geometry/types.js';
import type { AreaOfInterest, ContributionType } from '../../query/model.js';
import { comparedGeometry } from '../../query/contributions.js';
import type { GeometryPool } from '../common/geometry-pool.js';

/** Geometry equality of the oracle: by JSON text (the engine compares structurally: contributions.ts). */
function sameGeometry(a: Geometry | null, b: Geometry | null): boolean {
  return a === null || b === null ? a === b : JSON.stringify(a) === JSON.stringify(b);
}
import type { ImportedDb } from '../../store/test-support.js';

const GEOMETRY_NAMES: (FilterGeometryType | null)[] = [
  null,
  'Point',
  'LineString',
  'Polygon',
  'MultiPoint',
  'MultiLineString',
  'MultiPolygon',
  'GeometryCollection',
];
const TYPES = ['node', 'way', 'relation'] as const;

export interface BruteRow {
  state: FilterableState;
  typeCode: number;
  version: number;
  minor: number;
  validFrom: number;
  validTo: number;
  deleted: boolean;
  collapsed: boolean;
  /** The store's geometry_valid (false: degraded geometry). */
  geometryValid: boolean;
  userId: number;
  geometry: Geometry | null;
  box: BBox | null;
  /**
   * Some state of the element has tags, worked out here from the rows' own tags (not from the
   * store's ever_tagged column, which this oracle checks).
   */
  everTagged: boolean;
  /**
   * For a way or relation: the bbox of its element's whole history (a relation: every state of
   * every node and way member of any version; a way: its own states), null when none; and whether
   * this state's version has members (ways: always). The reference places an element whose
   * geometry is empty by this bbox.
   */
  historyBox: BBox | null;
  members: boolean;
}

/** The rows version 1 sees: no node that never had a tag (the reference never stored them). */
export function v1Rows(rows: readonly BruteRow[]): BruteRow[] {
  return rows.filter((r) => r.typeCode !== 0 || r.everTagged);
}

/** The rows version 2 sees: no element, of any type, whose every version is untagged. */
export function v2Rows(rows: readonly BruteRow[]): BruteRow[] {
  return rows.filter((r) => r.everTagged);
}

export async function loadAllRows(db: ImportedDb): Promise<BruteRow[]> {
  const rows = await db.query<
    Record<string, unknown>
  >(`SELECT type, id::DOUBLE AS id, version, minor_version, valid_from::DOUBLE AS valid_from, valid_to::DOUBLE AS valid_to,
      deleted, collapsed, changeset::DOUBLE AS changeset, user_id, map_keys(tags) AS k, map_values(tags) AS v, map_keys(tags_before) AS kb, map_values(tags_before) AS vb,
      geometry_type, geometry, geometry_valid, area, length, perimeter, vertices, outers, inners, roundness, squareness FROM states`);
  const tagged = new Set<string>();
  for (const r of rows) if ((r.k as string[]).length > 0) tagged.add(`${r.type as number}/${r.id as number}`);
  // History bboxes: each element's own states, then relations over their node and way members.
  const own = new Map<string, BBox>();
  const grow = (map: Map<string, BBox>, key: string, b: BBox) => {
    const a = map.get(key);
    map.set(key, a ? [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])] : b);
  };
  const boxes = rows.map((r) => (r.geometry && (r.geometry_type as number) !== 0 ? bboxOf(decodeWkb(r.geometry as Uint8Array)) : null));
  rows.forEach((r, i) => {
    if (boxes[i]) grow(own, `${r.type as number}/${r.id as number}`, boxes[i]!);
  });
  const history = new Map<string, BBox>();
  const withMembers = new Set<string>();
  const members = await db.query<Record<string, number>>(
    'SELECT relation_id::DOUBLE AS r, version, member_type AS t, member_id::DOUBLE AS m FROM relation_members',
  );
  for (const m of members) {
    withMembers.add(`${m.r}/${m.version}`);
    const b = m.t < 2 ? own.get(`${m.t}/${m.m}`) : undefined;
    if (b) grow(history, `2/${m.r}`, b);
  }
  for (const [key, b] of own) if (key.startsWith('1/')) history.set(key, b);
  return rows.map((r, i) => {
    const flat = (k: string[], v: string[]) => k.flatMap((key, i) => [key, v[i]]);
    const geometry = r.geometry ? decodeWkb(r.geometry as Uint8Array) : null;
    return {
      state: {
        type: TYPES[r.type as number],
        id: r.id as number,
        changeset: r.changeset as number,
        tags: flat(r.k as string[], r.v as string[]),
        tagsBefore: flat(r.kb as string[], r.vb as string[]),
        geometryType: GEOMETRY_NAMES[r.geometry_type as number],
        area: r.area as number,
        length: r.length as number,
        perimeter: r.perimeter as number,
        vertices: r.vertices as number,
        outers: r.outers as number,
        inners: r.inners as number,
        roundness: r.roundness as number,
        squareness: r.squareness as number | null,
      },
      typeCode: r.type as number,
      version: r.version as number,
      minor: r.minor_version as number,
      validFrom: r.valid_from as number,
      validTo: r.valid_to as number,
      deleted: r.deleted as boolean,
      collapsed: r.collapsed as boolean,
      geometryValid: r.geometry_valid as boolean,
      userId: r.user_id as number,
      geometry: geometry && (r.geometry_type as number) !== 0 ? geometry : null,
      box: boxes[i],
      everTagged: tagged.has(`${r.type as number}/${r.id as number}`),
      historyBox: (r.type as number) === 0 ? null : (history.get(`${r.type as number}/${r.id as number}`) ?? null),
      members: (r.type as number) !== 2 || withMembers.has(`${r.id as number}/${r.version as number}`),
    };
  });
}

export type BruteArea = { bbox: BBox } | { polygon: Polygon | MultiPolygon };

function clipper(area: BruteArea): { box: BBox; clip: (g: Geometry) => Geometry | null } {
  if ('bbox' in area) return { box: area.bbox, clip: (g) => clipToBBox(g, area.bbox) };
  const box = bboxOf(area.polygon)!;
  return { box, clip: (g) => clipToPolygon(g, area.polygon) };
}

/**
 * Whether the area covers the whole world [-180,-90,180,90]: there, rows without an extent
 * (relations of relations, members all missing: no geometry or an empty collection) are counted
 * too, with measures 0 — as the reference (elements it cannot place sit in its top grid cell,
 * which only a whole-world query covers) and osmium's counts do (src/query/README.md).
 */
function coversWorld(area: BruteArea): boolean {
  return 'bbox' in area && area.bbox[0] <= -180 && area.bbox[1] <= -90 && area.bbox[2] >= 180 && area.bbox[3] >= 90;
}

/** What a row without an extent counts as, in a whole-world area. */
const UNPLACED: Geometry = { type: 'GeometryCollection', geometries: [] };

/**
 * Does the area contain the bbox (boundary included)? Checked by clipping the bbox's outline (a
 * closed line, so a flat bbox works too) and comparing lengths, independently of area-plan.ts.
 */
function boxWithin(b: BBox, area: BruteArea): boolean {
  if ('bbox' in area) return b[0] >= area.bbox[0] && b[1] >= area.bbox[1] && b[2] <= area.bbox[2] && b[3] <= area.bbox[3];
  if (b[0] === b[2] && b[1] === b[3]) return clipToPolygon({ type: 'Point', coordinates: [b[0], b[1]] }, area.polygon) !== null;
  const outline: Geometry = {
    type: 'LineString',
    coordinates: [
      [b[0], b[1]],
      [b[2], b[1]],
      [b[2], b[3]],
      [b[0], b[3]],
      [b[0], b[1]],
    ],
  };
  const c = clipToPolygon(outline, area.polygon);
  if (c === null || Math.abs(lengthOf(c) - lengthOf(outline)) > 1e-9 * lengthOf(outline)) return false;
  // the outline inside, and no hole or notch within it: the bbox's area is covered too
  if (b[0] === b[2] || b[1] === b[3]) return true;
  const inner = clipToPolygon({ type: 'Polygon', coordinates: [outline.coordinates as Position[]] }, area.polygon);
  return (
    inner !== null &&
    Math.abs(areaOf(inner) - areaOf({ type: 'Polygon', coordinates: [outline.coordinates as Position[]] })) <=
      1e-9 * areaOf({ type: 'Polygon', coordinates: [outline.coordinates as Position[]] })
  );
}

/** A version without geometry the area contains by its history (snapshots also need members). */
const placedEmpty = (r: BruteRow, area: BruteArea, snapshot: boolean) =>
  r.box === null && r.typeCode !== 0 && r.historyBox !== null && (!snapshot || r.members) && boxWithin(r.historyBox, area);

const meets = (a: BBox, b: BBox) => a[0] <= b[2] && a[2] >= b[0] && a[1] <= b[3] && a[3] >= b[1];

export interface BruteSnapshot {
  count: number[];
  length: number[];
  area: number[];
  perimeter: number[];
}

export function bruteSnapshots(rows: readonly BruteRow[], area: BruteArea, filter: Filter, timestamps: readonly number[]): BruteSnapshot {
  const pred = compilePredicate(filter);
  const { box, clip } = clipper(area);
  const out: BruteSnapshot = { count: [], length: [], area: [], perimeter: [] };
  const cache = new Map<BruteRow, Geometry | null>();
  const world = coversWorld(area);
  // Rows without an extent: every one in a whole-world area, else those placed by their history.
  const near = v1Rows(rows).filter((r) => (r.box !== null && meets(r.box, box)) || (world ? r.box === null : placedEmpty(r, area, true)));
  for (const t of timestamps) {
    let count = 0,
      length = 0,
      areaSum = 0,
      perimeter = 0;
    for (const r of near) {
      if (r.deleted || r.validFrom > t || r.validTo <= t || !pred(r.state)) continue;
      if (r.box === null) {
        count += 1; // placed by its history: counted, measures 0
        continue;
      }
      let c = cache.get(r);
      if (c === undefined) cache.set(r, (c = r.box === null ? UNPLACED : clip(r.geometry!)));
      if (c === null) continue;
      count += 1;
      length += lengthOf(c);
      areaSum += areaOf(c);
      perimeter += perimeterOf(c);
    }
    out.count.push(count);
    out.length.push(length);
    out.area.push(areaSum);
    out.perimeter.push(perimeter);
  }
  return out;
}

export interface BruteContribution {
  typeCode: number;
  id: number;
  time: number;
  userId: number;
  types: Set<ContributionType>;
  /** The state's tags and the previous kept state's (flat lists), for grouping by tag or key. */
  tags: readonly string[];
  tagsBefore: readonly string[];
}

/** Every contribution in [t_0, t_last), per element in time order (docs/reference/v1-reference-behaviour.md §3.5). */
export function bruteContributions(rows: readonly BruteRow[], area: BruteArea, filter: Filter, timestamps: readonly number[]): BruteContribution[] {
  const pred = compilePredicate(filter);
  const { box, clip } = clipper(area);
  const t0 = timestamps[0];
  const t1 = timestamps[timestamps.length - 1];
  const byElement = new Map<string, BruteRow[]>();
  for (const r of v1Rows(rows)) {
    const key = `${r.typeCode}/${r.state.id}`;
    let list = byElement.get(key);
    if (!list) byElement.set(key, (list = []));
    list.push(r);
  }
  const out: BruteContribution[] = [];
  const keys = [...byElement.keys()].sort((a, b) => {
    const [ta, ia] = a.split('/').map(Number);
    const [tb, ib] = b.split('/').map(Number);
    return ta - tb || ia - ib;
  });
  const world = coversWorld(area);
  for (const key of keys) {
    const kept = byElement
      .get(key)!
      .filter((r) => !r.collapsed)
      .sort((a, b) => a.validFrom - b.validFrom || a.version - b.version || a.minor - b.minor);
    const clipped = (r: BruteRow): Geometry | null => {
      if (r.deleted || !pred(r.state)) return null;
      if (r.box === null) return world ? UNPLACED : null;
      return meets(r.box, box) ? clip(r.geometry!) : null;
    };
    // A version without geometry that the area contains by its history is "in", compared as it is
    // (in a whole-world area every such version is, as UNPLACED, above).
    const placed = (r: BruteRow) => !world && !r.deleted && pred(r.state) && placedEmpty(r, area, false);
    let prev: Geometry | null = null;
    let prevIn = false;
    let prevRow: BruteRow | null = null;
    for (const r of kept) {
      if (r.validFrom >= t1) break;
      const isPlaced = placed(r);
      const cur = isPlaced ? r.geometry : clipped(r);
      const curIn = isPlaced || cur !== null;
      if (r.validFrom >= t0 && (curIn || prevIn)) {
        const types = new Set<ContributionType>();
        if (curIn && !prevIn) types.add('creation');
        else if (!curIn) types.add('deletion');
        else {
          if (!sameTags(r.state.tags, prevRow!.state.tags)) types.add('tagChange');
          const side = (g: Geometry | null, row: BruteRow) => (row.box === null ? g : comparedGeometry(g, () => row.geometry));
          if (!sameGeometry(side(cur, r), side(prev, prevRow!))) types.add('geometryChange');
        }
        out.push({
          typeCode: r.typeCode,
          id: r.state.id,
          time: r.validFrom,
          userId: r.userId,
          types,
          tags: r.state.tags,
          tagsBefore: prevRow?.state.tags ?? [],
        });
      }
      prev = cur;
      prevIn = curIn;
      prevRow = r;
    }
  }
  return out;
}

function sameTags(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const m = new Map<string, string>();
  for (let i = 0; i < a.length; i += 2) m.set(a[i], a[i + 1]);
  for (let i = 0; i < b.length; i += 2) if (m.get(b[i]) !== b[i + 1]) return false;
  return true;
}

function intervalOf(ts: readonly number[], x: number): number {
  for (let k = ts.length - 2; k >= 0; k--) if (ts[k] <= x) return x < ts[ts.length - 1] ? k : -1;
  return -1;
}

/** contributions/count, latest/count and users/count from the brute-force contribution list. */
export function bruteCounts(list: readonly BruteContribution[], timestamps: readonly number[], types?: ContributionType[]) {
  const n = timestamps.length - 1;
  const pass = (c: BruteContribution) => types === undefined || types.some((t) => c.types.has(t));
  const count = new Array(n).fill(0);
  const users: Set<number>[] = Array.from({ length: n }, () => new Set());
  const lastOf = new Map<string, BruteContribution>();
  for (const c of list) {
    lastOf.set(`${c.typeCode}/${c.id}`, c);
    if (!pass(c)) continue;
    const k = intervalOf(timestamps, c.time);
    count[k] += 1;
    users[k].add(c.userId);
  }
  const latest = new Array(n).fill(0);
  for (const c of lastOf.values()) if (pass(c)) latest[intervalOf(timestamps, c.time)] += 1;
  return { count, latest, users: users.map((s) => s.size) };
}

/** Deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ANDORRA: BBox = [1.4, 42.42, 1.8, 42.66];

export function rectArea(b: BBox, id: string): AreaOfInterest {
  return {
    id,
    bbox: b,
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [b[0], b[1]],
          [b[2], b[1]],
          [b[2], b[3]],
          [b[0], b[3]],
          [b[0], b[1]],
        ],
      ],
    },
  };
}
export function polyArea(g: Polygon | MultiPolygon, id: string): AreaOfInterest {
  const pts = (g.type === 'Polygon' ? [g.coordinates] : g.coordinates).flatMap((p) => p[0]);
  const bbox: BBox = [
    Math.min(...pts.map((p) => p[0])),
    Math.min(...pts.map((p) => p[1])),
    Math.max(...pts.map((p) => p[0])),
    Math.max(...pts.map((p) => p[1])),
  ];
  return { id, bbox, geometry: g };
}
export function randomBBox(r: () => number): BBox {
  const w = 0.01 + r() * 0.15;
  const h = 0.01 + r() * 0.12;
  const x = ANDORRA[0] + r() * (ANDORRA[2] - ANDORRA[0] - w);
  const y = ANDORRA[1] + r() * (ANDORRA[3] - ANDORRA[1] - h);
  return [x, y, x + w, y + h];
}
function randomStar(r: () => number, cx: number, cy: number, radius: number, n: number): Position[] {
  const ring: Position[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n + r() * 0.3;
    const rad = radius * (0.4 + 0.6 * r());
    ring.push([cx + rad * Math.cos(a), cy + rad * Math.sin(a) * 0.75]);
  }
  ring.push(ring[0]);
  return ring;
}

/** The random areas of the consistency test (5 bboxes, 4 star polygons, one with a hole, one multipolygon). */
export function randomAreas(r: () => number): { area: AreaOfInterest; brute: BruteArea }[] {
  const areas: { area: AreaOfInterest; brute: BruteArea }[] = [];
  for (let i = 0; i < 5; i++) {
    const b = randomBBox(r);
    areas.push({ area: rectArea(b, `bbox${i}`), brute: { bbox: b } });
  }
  for (let i = 0; i < 4; i++) {
    const b = randomBBox(r);
    const ring = randomStar(r, (b[0] + b[2]) / 2, (b[1] + b[3]) / 2, 0.02 + r() * 0.06, 5 + Math.floor(r() * 10));
    const g: Polygon = { type: 'Polygon', coordinates: [ring] };
    areas.push({ area: polyArea(g, `poly${i}`), brute: { polygon: g } });
  }
  {
    // a polygon with a hole, and a multipolygon of two parts
    const outer = randomStar(r, 1.53, 42.53, 0.08, 12);
    const hole = randomStar(r, 1.53, 42.53, 0.02, 6).reverse();
    const g: Polygon = { type: 'Polygon', coordinates: [outer, hole] };
    areas.push({ area: polyArea(g, 'holed'), brute: { polygon: g } });
    const m: MultiPolygon = { type: 'MultiPolygon', coordinates: [[randomStar(r, 1.47, 42.47, 0.03, 7)], [randomStar(r, 1.65, 42.58, 0.04, 9)]] };
    areas.push({ area: polyArea(m, 'multi'), brute: { polygon: m } });
  }

  return areas;
}

/**
 * The engines' numbers against the oracle's (or against each other's): equal up to the order of
 * the sums (DuckDB's row order varies between runs).
 */
export function assertCloseSeries(got: readonly number[], want: readonly number[], what: string): void {
  assert.equal(got.length, want.length, what);
  got.forEach((g, i) => assert.ok(Math.abs(g - want[i]) <= 1e-6 + 1e-9 * Math.abs(want[i]), `${what}[${i}]: ${g} vs ${want[i]}`));
}

/** `pool`, telling `count` how many geometries each task sends to be clipped (measured or not). */
export function countingPool(pool: GeometryPool, count: (geometries: number) => void): GeometryPool {
  return {
    threads: pool.threads,
    close: () => pool.close(),
    measureClipped: (area, measure, wkbs, signal) => {
      count(wkbs.length);
      return pool.measureClipped(area, measure, wkbs, signal);
    },
    clipWkbs: (area, wkbs, signal) => {
      count(wkbs.length);
      return pool.clipWkbs(area, wkbs, signal);
    },
  };
}
