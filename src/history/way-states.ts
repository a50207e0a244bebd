/**
 * States of a way: its versions, plus a state for every change of a member node while a visible
 * version references it. Each state's geometry uses the node positions valid at its moment
 * (history-engine-semantics §2.1, §2.3, §4.1).
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

  const timeline = buildTimeline(versions, (i, from, to) => {
    const out: MemberChange[] = [];
    const seen = new Set<number>();
    for (const ref of versions[i].refs) {
      if (seen.has(ref)) continue;
      seen.add(ref);
      const h = histories.get(ref);
      if (h) changesWithin(h, from, to, out);
    }
    return out;
  });

  const points: ResolvedPoint[] = [];
  const memberStates: WayMemberState[] = [];
  // The previous visible state's resolved nodes and geometry: a state whose nodes resolve to the same
  // ids and coordinates (a tag edit of the way or of one of its nodes) shares them, so that the WKB,
  // the measures and the relation geometries built from it are computed once (compared by identity).
  let previous: { nodeIds: number[]; coords: Position[]; isArea: boolean; geometry: Geometry | null } | undefined;
  for (const p of timeline) {
    const v = versions[p.versionIndex];
    if (!v.visible) {
      points.push(resolvedPoint(p, v.version, true, [], null, true));
      memberStates.push({ timestamp: p.timestamp, changeset: p.changeset, uid: p.uid, deleted: true, isArea: false, nodeIds: [], coords: [] });
      continue;
    }
    let nodeIds: number[] = [];
    let coords: Position[] = [];
    let complete = true;
    for (const ref of v.refs) {
      const h = histories.get(ref);
      const nv = h ? versionAt(h, p.timestamp) : undefined;
      if (!nv || !nv.visible) {
        complete = false;
        continue;
      }
      nodeIds.push(ref);
      coords.push([nv.lon * 1e-7, nv.lat * 1e-7]);
    }
    const isArea = isAreaWay(v.tags, v.refs);
    let geometry: Geometry | null;
    if (previous !== undefined && sameNodes(previous.nodeIds, previous.coords, nodeIds, coords)) {
      nodeIds = previous.nodeIds;
      coords = previous.coords;
      geometry = previous.isArea === isArea ? previous.geometry : buildWayGeometry(coords, isArea);
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

/** Same node ids and the same coordinates, in the same order. */
function sameNodes(idsA: readonly number[], coordsA: readonly Position[], idsB: readonly number[], coordsB: readonly Position[]): boolean {
  if (idsA.length !== idsB.length) return false;
  for (let i = 0; i < idsA.length; i++) {
    if (idsA[i] !== idsB[i] || coordsA[i][0] !== coordsB[i][0] || coordsA[i][1] !== coordsB[i][1]) return false;
  }
  return true;
}
