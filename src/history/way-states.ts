/**
 * States of a way: its versions, plus a state for every change of a member node while a visible
 * version references it. Each state's geometry uses the node positions valid at its moment
 * (docs/reference/history-engine-semantics.md §2.1, §2.3, §4.1).
 */
import type { WayVersion } from '../core/osm.js';
import { isAreaWay } from '../geometry/area-rules.js';
import { buildWayGeometry } from '../geometry/way-geometry.js';
import type { Geometry, Position } from '../geometry/types.js';
import type { ElementState } from './element-state.js';
import { finishStates, resolvedPoint, type ResolvedPoint } from './finish-states.js';
import { versionAt, type NodeHistoryStore, type NodeVersionRecord } from './node-history-store.js';
import { buildTimeline, changesWithin, type MemberChange } from './timeline.js';
import type { WayMemberState } from './way-state-store.js';

export interface WayHistory {
  states: ElementState[];
  /** The same moments as the member of a relation sees them (node ids and fixed-point coordinates). */
  memberStates: WayMemberState[];
}

export function buildWayStates(versions: readonly WayVersion[], nodes: NodeHistoryStore): WayHistory {
  const histories = new Map<number, NodeVersionRecord[] | undefined>();
  for (const v of versions) for (const ref of v.refs) if (!histories.has(ref)) histories.set(ref, nodes.get(ref));
  // Each version's refs' histories, in ref order: looked up once per version, not once per state.
  const refHistories = versions.map((v) => v.refs.map((ref) => histories.get(ref)));

  // A node listed twice (a closed way's first and last) gives its changes twice: buildTimeline keeps
  // the first of a second's changes, so the result is the same as with each node once (a Set per
  // version to skip them was a tenth of the way phase's allocations).
  const timeline = buildTimeline(versions, (i, from, to) => {
    const out: MemberChange[] = [];
    for (const h of refHistories[i]) if (h) changesWithin(h, from, to, out);
    return out;
  });

  const points: ResolvedPoint[] = [];
  const memberStates: WayMemberState[] = [];
  // The previous visible state's resolved nodes and geometry: a state whose nodes resolve to the same
  // ids and coordinates (a tag edit of the way or of one of its nodes) shares them, so that the WKB,
  // the measures and the relation geometries built from it are computed once (compared by identity).
  // Coordinate pairs are immutable and may be shared between states.
  let previous: { nodeIds: number[]; coords: Position[]; isArea: boolean; geometry: Geometry | null } | undefined;
  for (const p of timeline) {
    const v = versions[p.versionIndex];
    if (!v.visible) {
      points.push(resolvedPoint(p, v.version, true, [], null, true));
      memberStates.push({ timestamp: p.timestamp, changeset: p.changeset, uid: p.uid, deleted: true, isArea: false, nodeIds: [], coords: [] });
      continue;
    }
    // Resolve the nodes, comparing them with the previous visible state's as we go: arrays are only
    // allocated from the first difference on (a quarter of way states resolve exactly as before).
    const before = previous;
    let nodeIds: number[] | undefined;
    let coords: Position[] | undefined;
    let n = 0;
    let complete = true;
    const refs = v.refs;
    const hs = refHistories[p.versionIndex];
    for (let r = 0; r < refs.length; r++) {
      const ref = refs[r];
      const h = hs[r];
      const nv = h ? versionAt(h, p.timestamp) : undefined;
      if (!nv || !nv.visible) {
        complete = false;
        continue;
      }
      const lon = nv.lon * 1e-7;
      const lat = nv.lat * 1e-7;
      if (nodeIds === undefined || coords === undefined) {
        if (before !== undefined && n < before.nodeIds.length && before.nodeIds[n] === ref && before.coords[n][0] === lon && before.coords[n][1] === lat) {
          n++;
          continue;
        }
        nodeIds = before !== undefined ? before.nodeIds.slice(0, n) : [];
        coords = before !== undefined ? before.coords.slice(0, n) : [];
      }
      nodeIds.push(ref);
      coords.push([lon, lat]);
      n++;
    }
    const isArea = isAreaWay(v.tags, v.refs);
    let geometry: Geometry | null;
    if (nodeIds === undefined || coords === undefined) {
      if (before !== undefined && n === before.nodeIds.length) {
        // Same nodes as the previous state: share its arrays (and its geometry if the area rule agrees).
        nodeIds = before.nodeIds;
        coords = before.coords;
        geometry = before.isArea === isArea ? before.geometry : buildWayGeometry(coords, isArea);
      } else {
        // A prefix of the previous state's nodes (or none).
        nodeIds = before !== undefined ? before.nodeIds.slice(0, n) : [];
        coords = before !== undefined ? before.coords.slice(0, n) : [];
        geometry = buildWayGeometry(coords, isArea);
      }
    } else {
      geometry = buildWayGeometry(coords, isArea);
    }
    previous = { nodeIds, coords, isArea, geometry };
    const shapeAsTagged = !isArea || geometry?.type === 'Polygon';
    points.push(resolvedPoint(p, v.version, false, v.tags, geometry, complete && geometry !== null && shapeAsTagged));
    memberStates.push({ timestamp: p.timestamp, changeset: p.changeset, uid: p.uid, deleted: false, isArea, nodeIds, coords });
  }
  return { states: finishStates(1, versions[0].id, points), memberStates };
}
