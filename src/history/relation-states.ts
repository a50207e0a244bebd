/**
 * States of a relation: its versions, plus a state for every change of a member node or member
 * way (including the way's own member-induced states) while a visible version references it.
 * Geometry: multipolygon/boundary relations are assembled into (Multi)Polygons; others, and
 * multipolygons that cannot be assembled, become a GeometryCollection of their members'
 * geometries. Relation members of relations are not resolved (the reference does not either).
 */
import type { RelationVersion } from '../core/osm.js';
import { isAreaRelation } from '../geometry/area-rules.js';
import { assembleMultipolygon, type MemberLine } from '../geometry/multipolygon.js';
import { RingPairCache } from '../geometry/ring-pair-cache.js';
import { buildWayGeometry } from '../geometry/way-geometry.js';
import type { Geometry, Point } from '../geometry/types.js';
import { encodeWkbWithMembers } from '../geometry/wkb.js';
import type { ElementState } from './element-state.js';
import { finishStates, resolvedPoint, type ResolvedPoint } from './finish-states.js';
import { versionAt, type NodeHistoryStore, type NodeVersionRecord } from './node-history-store.js';
import { buildTimeline, changesWithin, type MemberChange } from './timeline.js';
import type { WayMemberState, WayStateStore } from './way-state-store.js';

export function buildRelationStates(versions: readonly RelationVersion[], nodes: NodeHistoryStore, ways: WayStateStore): ElementState[] {
  const nodeHistories = new Map<number, NodeVersionRecord[] | undefined>();
  const wayHistories = new Map<number, WayMemberState[] | undefined>();
  // Each version's members' histories, in member order: looked up once per version, not once per
  // state, and once for versions that share their members array (the reader gives a version the
  // array of the version before when no member changed, io/pbf/materialize.ts).
  const histories: MemberHistories[] = [];
  for (let i = 0; i < versions.length; i++) {
    const members = versions[i].members;
    if (i > 0 && members === versions[i - 1].members) {
      histories.push(histories[i - 1]);
      continue;
    }
    histories.push(
      members.map((m) => (m.type === 'node' ? lookedUp(nodeHistories, m.ref, nodes) : m.type === 'way' ? lookedUp(wayHistories, m.ref, ways) : undefined)),
    );
  }

  const timeline = buildTimeline(versions, (i, from, to) => {
    const out: MemberChange[] = [];
    for (const h of histories[i]) if (h) changesWithin(h as readonly MemberChange[], from, to, out);
    return out;
  });

  // Many states resolve their members exactly as the state before them (a tag edit of the relation
  // or of a member way): those reuse the previous geometry object instead of assembling it again.
  // The inputs of the previous geometry and of the current state, in two arrays used in turn (a
  // new array per state was the relation phase's largest allocation: big relations have thousands
  // of member-induced states of hundreds of members each).
  let previous: { inputs: Inputs; geometry: Geometry; valid: boolean } | undefined;
  let spare: Inputs = { values: [], length: 0 };
  const cache = new RingPairCache();
  const members = new CollectionMembers();
  const points: ResolvedPoint[] = timeline.map((p) => {
    const v = versions[p.versionIndex];
    if (!v.visible) return resolvedPoint(p, v.version, true, [], null, true);
    const isArea = isAreaRelation(v.tags);
    const hs = histories[p.versionIndex];
    const inputs = geometryInputs(v, isArea, p.timestamp, hs, spare);
    if (previous === undefined || !sameInputs(previous.inputs, inputs)) {
      const { geometry, valid } = isArea ? areaGeometryAt(v, p.timestamp, hs, cache, members) : collectionAt(v, p.timestamp, hs, members);
      spare = previous?.inputs ?? { values: [], length: 0 };
      previous = { inputs, geometry, valid };
    }
    return resolvedPoint(p, v.version, false, v.tags, previous.geometry, previous.valid);
  });
  return finishStates(2, versions[0].id, points, (g) => encodeWkbWithMembers(g, members.wkb));
}

/**
 * The members of one relation's GeometryCollections, as the same objects for as long as they do
 * not change: a route of hundreds of ways has a state for every change of any of them, and each
 * state's collection holds the unchanged ways' geometries again. Shared, each member is encoded
 * once (`wkb`, encodeWkbWithMembers) and measured once (the store writer's member measures,
 * store/state-row.ts) instead of once per state.
 */
class CollectionMembers {
  private readonly ofWay = new Map<WayMemberState, Geometry | null>();
  private readonly ofNode = new Map<NodeVersionRecord, Point>();
  readonly wkb = new WeakMap<Geometry, Uint8Array>();

  /** The geometry of a way member's state (buildWayGeometry), the same object every time. */
  way(ws: WayMemberState): Geometry | null {
    let g = this.ofWay.get(ws);
    if (g === undefined) {
      g = buildWayGeometry(ws.coords, ws.isArea);
      this.ofWay.set(ws, g);
    }
    return g;
  }

  /** The point of a visible node member's version, the same object every time. */
  node(nv: NodeVersionRecord): Point {
    let g = this.ofNode.get(nv);
    if (g === undefined) {
      g = { type: 'Point', coordinates: [nv.lon * 1e-7, nv.lat * 1e-7] };
      this.ofNode.set(nv, g);
    }
    return g;
  }
}

/** `store.get(id)`, asked once per id (`seen` keeps the answers, a missing history included). */
function lookedUp<T>(seen: Map<number, T | undefined>, id: number, store: { get(id: number): T | undefined }): T | undefined {
  let h = seen.get(id);
  if (h === undefined && !seen.has(id)) seen.set(id, (h = store.get(id)));
  return h;
}

/** A version's members' histories, by member index (undefined: a relation member, or none in the input). */
type MemberHistories = (NodeVersionRecord[] | WayMemberState[] | undefined)[];

function areaGeometryAt(
  v: RelationVersion,
  t: number,
  histories: MemberHistories,
  cache: RingPairCache,
  shared: CollectionMembers,
): { geometry: Geometry; valid: boolean } {
  const outer: MemberLine[] = [];
  const inner: MemberLine[] = [];
  let complete = true;
  const members = v.members;
  for (let i = 0; i < members.length; i++) {
    const m = members[i];
    if (m.type !== 'way') continue;
    const role = m.role === 'inner' ? inner : m.role === 'outer' || m.role === '' ? outer : undefined;
    if (!role) continue;
    const h = histories[i] as WayMemberState[] | undefined;
    const ws = h ? versionAt(h, t) : undefined;
    if (!ws || ws.deleted) {
      complete = false;
      continue;
    }
    role.push({ nodeIds: ws.nodeIds, coords: ws.coords });
  }
  const assembled = assembleMultipolygon(outer, inner, { cache });
  if (assembled.geometry) return { geometry: assembled.geometry, valid: complete && assembled.problems.length === 0 };
  return { geometry: collectionAt(v, t, histories, shared).geometry, valid: false };
}

function collectionAt(v: RelationVersion, t: number, histories: MemberHistories, shared: CollectionMembers): { geometry: Geometry; valid: boolean } {
  const geometries: Geometry[] = [];
  let complete = true;
  const members = v.members;
  for (let i = 0; i < members.length; i++) {
    const m = members[i];
    if (m.type === 'node') {
      const h = histories[i] as NodeVersionRecord[] | undefined;
      const nv = h ? versionAt(h, t) : undefined;
      if (nv && nv.visible) geometries.push(shared.node(nv));
      else complete = false;
    } else if (m.type === 'way') {
      const h = histories[i] as WayMemberState[] | undefined;
      const ws = h ? versionAt(h, t) : undefined;
      const g = ws && !ws.deleted ? shared.way(ws) : null;
      if (g) geometries.push(g);
      else complete = false;
    }
  }
  return { geometry: { type: 'GeometryCollection', geometries }, valid: complete };
}

/** A list of values compared by identity, written in place: `values` beyond `length` are stale. */
interface Inputs {
  values: unknown[];
  length: number;
}

/**
 * Everything the geometry of a visible relation state depends on, as a flat list compared by
 * identity: whether it is an area, and for each member in order its resolved content — a node's
 * coordinates, a way's role class, tags-derived area flag and node arrays (which the way store
 * shares between consecutive way states with the same nodes). Missing members are null. Written
 * over `into`, which it returns.
 */
function geometryInputs(v: RelationVersion, isArea: boolean, t: number, histories: MemberHistories, into: Inputs): Inputs {
  const out = into.values;
  let n = 0;
  out[n++] = isArea;
  const members = v.members;
  for (let i = 0; i < members.length; i++) {
    const m = members[i];
    if (m.type === 'node') {
      const h = histories[i] as NodeVersionRecord[] | undefined;
      const nv = h ? versionAt(h, t) : undefined;
      out[n++] = 'n';
      out[n++] = nv && nv.visible ? nv.lon : null;
      out[n++] = nv && nv.visible ? nv.lat : null;
    } else if (m.type === 'way') {
      const h = histories[i] as WayMemberState[] | undefined;
      const ws = h ? versionAt(h, t) : undefined;
      const visible = ws !== undefined && !ws.deleted;
      out[n++] = 'w';
      out[n++] = m.role === 'inner' ? 1 : m.role === 'outer' || m.role === '' ? 0 : 2;
      out[n++] = visible ? ws.isArea : null;
      out[n++] = visible ? ws.nodeIds : null;
      out[n++] = visible ? ws.coords : null;
    }
  }
  into.length = n;
  return into;
}

function sameInputs(a: Inputs, b: Inputs): boolean {
  if (a.length !== b.length) return false;
  const av = a.values;
  const bv = b.values;
  for (let i = 0; i < a.length; i++) if (av[i] !== bv[i]) return false;
  return true;
}
