/**
 * Contributions (docs/reference/v1-reference-behaviour.md §3.5, docs/reference/history-engine-semantics.md §4.3), pure: the engine hands over, per kept (not
 * changeset-collapsed) state in the time range that is "in" or whose previous kept state was
 * "in", the facts about both; this module classifies it.
 *
 * in(state) = not deleted AND matches the filter AND its geometry clipped to the area is not empty.
 *   creation        in(cur) and not in(prev)           (new, moved in, newly matching, undeleted)
 *   deletion        in(prev) and not in(cur)           (deleted, moved out, stops matching)
 *   tagChange       both in, tags differ
 *   geometryChange  both in, the compared geometries differ exactly (same coordinates, same order):
 *                   a side the area contains whole as it is, a side the area's edge cuts as its
 *                   clip without repeated consecutive coordinates (`comparedGeometry`)
 *   (neither)       both in, nothing visible changed: counted unless contributionTypes is given.
 * prev = the element's previous kept state, also when it lies before the range (so the first
 * contribution in the range is typed against the state just before it).
 */
import { sameBytes } from '../core/same-bytes.js';
import { decodeWkb } from '../geometry/wkb.js';
import type { Geometry, Position } from '../geometry/types.js';
import type { ContributionType } from './model.js';

export interface ContributionRow {
  type: number;
  id: number;
  validFrom: number;
  userId: number;
  deleted: boolean;
  matches: boolean;
  hit: boolean;
  interior: boolean;
  /** null when there is no previous kept state. */
  prev: { deleted: boolean; matches: boolean; hit: boolean; interior: boolean } | null;
  /** The store's flags relative to the previous kept state (unclipped). */
  tagChange: boolean;
  geometryChange: boolean;
  /** packTagNumber(key id, value id) of the state and of the previous kept state. */
  tags: number[];
  tagsBefore: number[];
  /** WKB, present whenever the state or its previous state is a boundary row, or the store flags a geometry change. */
  geometry: Uint8Array | null;
  prevGeometry: Uint8Array | null;
}

export interface Contribution {
  type: number;
  id: number;
  time: number;
  userId: number;
  creation: boolean;
  deletion: boolean;
  tagChange: boolean;
  geometryChange: boolean;
  /** The tags that group it: deletion → before; creation → after; otherwise both. */
  tagSets: number[][];
}

/** Clipped geometry of a state that is "hit" (its bbox meets the area); null when the clip is empty. */
function clippedOf(interior: boolean, wkb: Uint8Array | null, clip: (g: Geometry) => Geometry | null): Geometry | null {
  if (wkb === null) return null;
  const g = decodeWkb(wkb);
  return interior ? g : clip(g);
}

/**
 * One side's geometry for `classifyWith`, computed on demand. `key` identifies the geometry's
 * content (equal keys: equal geometries), so equal sides need no comparison.
 */
export interface SideGeometry {
  /** The geometry clipped to the area (null: empty or no geometry). */
  clipped(): Geometry | null;
  /** The unclipped geometry (used when the side is interior). */
  unclipped(): Geometry | null;
  /** Whether `clipped()` is not null, when the side can tell more cheaply than by clipping. */
  meets?(): boolean;
  /**
   * `comparedGeometry(clipped(), unclipped)`, remembered by a side that takes part in many
   * comparisons (a border relation's geometry run, compared with the runs before and after it).
   */
  compared?(): Geometry | null;
  /** The unclipped geometry's WKB (encodeWkb's bytes), when the side has it at hand. */
  wkb?: Uint8Array;
  /** `compared()` as encodeWkb's bytes (null when the clip is empty), when the side can give them. */
  comparedWkb?(): Uint8Array | null;
  key?: number;
}

export function classifyContribution(row: ContributionRow, clip: (g: Geometry) => Geometry | null): Contribution | null {
  return classifyWith(
    row,
    { clipped: () => clippedOf(false, row.geometry, clip), unclipped: () => clippedOf(true, row.geometry, clip) },
    { clipped: () => clippedOf(false, row.prevGeometry, clip), unclipped: () => clippedOf(true, row.prevGeometry, clip) },
  );
}

/**
 * classifyContribution with the geometries of both sides given as `SideGeometry` (the row's WKB
 * fields are not read). `geometryChange: false` skips the geometry comparison (the flag is then
 * false: for counts that do not filter by type only "in" matters); `same` replaces
 * `sameGeometry` (e.g. memoized).
 */
export function classifyWith(
  row: Omit<ContributionRow, 'geometry' | 'prevGeometry'>,
  curSide: SideGeometry,
  prevSide: SideGeometry,
  options: { geometryChange?: boolean; same?: (a: Geometry | null, b: Geometry | null) => boolean } = {},
): Contribution | null {
  const bothInterior = row.interior && row.prev !== null && row.prev.interior;
  let cur: Geometry | null | undefined;
  let prevG: Geometry | null | undefined;
  let inCur = !row.deleted && row.matches && row.hit;
  if (inCur && !row.interior) {
    if (curSide.meets) inCur = curSide.meets();
    else inCur = (cur = curSide.clipped()) !== null;
  }
  const p = row.prev;
  let inPrev = p !== null && !p.deleted && p.matches && p.hit;
  if (inPrev && !p!.interior) {
    if (prevSide.meets) inPrev = prevSide.meets();
    else inPrev = (prevG = prevSide.clipped()) !== null;
  }
  if (!inCur && !inPrev) return null;
  if (inCur && !inPrev) return contribution(row, true, false, false, false, [row.tags]);
  if (!inCur && inPrev) return contribution(row, false, true, false, false, [row.tagsBefore]);
  let geometryChange: boolean;
  if (bothInterior && !row.geometryChange) geometryChange = false;
  else if (options.geometryChange === false) geometryChange = false;
  else if (curSide.key !== undefined && curSide.key === prevSide.key && row.interior === p!.interior) geometryChange = false;
  else {
    // By their WKB when both sides offer it: no decoding, no walk over nested arrays.
    const aWkb = row.interior ? curSide.wkb : curSide.comparedWkb?.();
    const bWkb = p!.interior ? prevSide.wkb : prevSide.comparedWkb?.();
    if (aWkb !== undefined && bWkb !== undefined) {
      return contribution(row, false, false, row.tagChange, !sameWkb(aWkb, bWkb), [row.tagsBefore, row.tags]);
    }
    cur ??= row.interior ? curSide.unclipped() : curSide.clipped();
    prevG ??= p!.interior ? prevSide.unclipped() : prevSide.clipped();
    const a = row.interior ? cur : curSide.compared ? curSide.compared() : comparedGeometry(cur, () => curSide.unclipped());
    const b = p!.interior ? prevG : prevSide.compared ? prevSide.compared() : comparedGeometry(prevG, () => prevSide.unclipped());
    geometryChange = !(options.same ?? sameGeometry)(a, b);
  }
  return contribution(row, false, false, row.tagChange, geometryChange, [row.tagsBefore, row.tags]);
}

/**
 * One shape for every contribution, written out: the object spread it replaces (`{ ...base, … }`)
 * took about 4 µs a call in the server's profile, 29 ms of each contributions/count request.
 */
function contribution(
  row: Pick<ContributionRow, 'type' | 'id' | 'validFrom' | 'userId'>,
  creation: boolean,
  deletion: boolean,
  tagChange: boolean,
  geometryChange: boolean,
  tagSets: number[][],
): Contribution {
  return { type: row.type, id: row.id, time: row.validFrom, userId: row.userId, creation, deletion, tagChange, geometryChange, tagSets };
}

/**
 * How a side on the area's edge takes part in the geometry comparison. The reference keeps a
 * geometry that lies inside the area as it is and clips the others with JTS, whose output has no
 * repeated consecutive points. So: the unclipped geometry when the area contains it whole (its clip
 * lost nothing but repeated points), else the clip without repeated coordinates. A way that only
 * gained a repeated node is thus a geometry change inside the area and none across its edge.
 */
export function comparedGeometry(clipped: Geometry | null, unclipped: () => Geometry | null): Geometry | null {
  if (clipped === null) return null;
  const cut = normalizedGeometry(clipped);
  const whole = unclipped();
  return whole !== null && sameGeometry(cut, normalizedGeometry(whole)) ? whole : cut;
}

/**
 * `sameGeometry` on two geometries' WKB as encodeWkb writes them: equal bytes are the same type and
 * the same coordinates in the same order. (The one difference from comparing numbers: 0 and -0
 * differ, which the store's coordinates, whole nanodegrees, and their clips never give.)
 */
export function sameWkb(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  return sameBytes(a, b);
}

/**
 * Exact equality (JTS `equalsExact`: same type, same coordinates in the same order). A way that
 * only gained or lost a repeated node changes geometry when it lies inside the area (compared as
 * it is), and not when it crosses the area's edge (clipped sides are compared without repeated
 * coordinates, see `classifyWith`), as in the reference.
 */
export function sameGeometry(a: Geometry | null | undefined, b: Geometry | null | undefined): boolean {
  if (a == null || b == null) return (a ?? null) === (b ?? null);
  return a === b || sameShape(a, b);
}

/**
 * Structural equality of two geometries: the same type, the same nesting and the same numbers
 * (NaN equal to NaN, as their JSON texts are). Stops at the first difference and allocates nothing:
 * comparing the JSON texts of two large geometries cost seconds of main-thread time and garbage
 * per request (bench/RESULTS.md, "The event loop under fuzzing").
 */
function sameShape(a: Geometry, b: Geometry): boolean {
  if (a.type !== b.type) return false;
  if (a.type === 'GeometryCollection') {
    const bs = (b as typeof a).geometries;
    if (a.geometries.length !== bs.length) return false;
    for (let i = 0; i < bs.length; i++) if (!sameShape(a.geometries[i], bs[i])) return false;
    return true;
  }
  return sameNested(a.coordinates, (b as typeof a).coordinates);
}

type Nested = number | readonly Nested[];

function sameNested(x: Nested, y: Nested): boolean {
  if (typeof x === 'number' || typeof y === 'number') return x === y || (Number.isNaN(x) && Number.isNaN(y));
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (!sameNested(x[i], y[i])) return false;
  return true;
}

/** The list without repeated consecutive positions: the list itself when it has none (no copy). */
function dedupe(list: Position[]): Position[] {
  for (let i = 1; i < list.length; i++) {
    if (list[i][0] === list[i - 1][0] && list[i][1] === list[i - 1][1]) {
      return list.filter((p, j) => j === 0 || p[0] !== list[j - 1][0] || p[1] !== list[j - 1][1]);
    }
  }
  return list;
}

/** `items` mapped by `f`: `items` itself when `f` returned every item unchanged. */
function mapSame<T>(items: T[], f: (item: T) => T): T[] {
  const out = items.map(f);
  return out.every((x, i) => x === items[i]) ? items : out;
}

/**
 * The geometry without repeated consecutive coordinates (how a clipped side is compared): `g`
 * itself when it has none. Most geometries have none, and copying every ring of a border relation
 * for every comparison cost most of a contributionType request (bench/RESULTS.md).
 */
export function normalizedGeometry(g: Geometry): Geometry {
  switch (g.type) {
    case 'Point':
    case 'MultiPoint':
      return g;
    case 'LineString': {
      const coordinates = dedupe(g.coordinates);
      return coordinates === g.coordinates ? g : { type: 'LineString', coordinates };
    }
    case 'Polygon': {
      const coordinates = mapSame(g.coordinates, dedupe);
      return coordinates === g.coordinates ? g : { type: 'Polygon', coordinates };
    }
    case 'MultiLineString': {
      const coordinates = mapSame(g.coordinates, dedupe);
      return coordinates === g.coordinates ? g : { type: 'MultiLineString', coordinates };
    }
    case 'MultiPolygon': {
      const coordinates = mapSame(g.coordinates, (p) => mapSame(p, dedupe));
      return coordinates === g.coordinates ? g : { type: 'MultiPolygon', coordinates };
    }
    case 'GeometryCollection': {
      const geometries = mapSame(g.geometries, normalizedGeometry);
      return geometries === g.geometries ? g : { type: 'GeometryCollection', geometries };
    }
  }
}

/** Does the contribution pass `contributionTypes` (undefined: everything passes)? */
export function passesTypes(c: Contribution, types: readonly ContributionType[] | undefined): boolean {
  if (types === undefined) return true;
  for (const t of types) {
    if (t === 'creation' && c.creation) return true;
    if (t === 'deletion' && c.deletion) return true;
    if (t === 'tagChange' && c.tagChange) return true;
    if (t === 'geometryChange' && c.geometryChange) return true;
  }
  return false;
}
