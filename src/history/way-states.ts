/**
 * States of a way: its versions, plus a state for every change of a member node while a visible
 * version references it. Each state's geometry uses the node positions valid at its moment
 * (history-engine-semantics §2.1, §2.3, §4.1).
 */
import type { WayVersion } from '../core/osm.js';
import { isAreaWay } from '../geometry/area-rules.js';
import { buildWayGeometry } from '../geometry/way-geometry.js';
import type { Position } from '../geometry/types.js';
import type { ElementState } from './element-state.js';
import { finishStates, type ResolvedPoint } from './finish-states.js';
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
  for (const p of timeline) {
    const v = versions[p.versionIndex];
    const base = { ...p, version: v.version };
    if (!v.visible) {
      points.push({ ...base, deleted: true, tags: [], geometry: null, geometryValid: true });
      memberStates.push({ timestamp: p.timestamp, changeset: p.changeset, uid: p.uid, deleted: true, isArea: false, nodeIds: [], lons: [], lats: [] });
      continue;
    }
    const nodeIds: number[] = [];
    const lons: number[] = [];
    const lats: number[] = [];
    let complete = true;
    for (const ref of v.refs) {
      const h = histories.get(ref);
      const nv = h ? versionAt(h, p.timestamp) : undefined;
      if (!nv || !nv.visible) {
        complete = false;
        continue;
      }
      nodeIds.push(ref);
      lons.push(nv.lon);
      lats.push(nv.lat);
    }
    const isArea = isAreaWay(v.tags, v.refs);
    const geometry = buildWayGeometry(toPositions(lons, lats), isArea);
    const shapeAsTagged = !isArea || geometry?.type === 'Polygon';
    points.push({ ...base, deleted: false, tags: v.tags, geometry, geometryValid: complete && geometry !== null && shapeAsTagged });
    memberStates.push({ timestamp: p.timestamp, changeset: p.changeset, uid: p.uid, deleted: false, isArea, nodeIds, lons, lats });
  }
  return { states: finishStates(1, versions[0].id, points), memberStates };
}

export function toPositions(lons: readonly number[], lats: readonly number[]): Position[] {
  const out: Position[] = new Array(lons.length);
  for (let i = 0; i < lons.length; i++) out[i] = [lons[i] * 1e-7, lats[i] * 1e-7];
  return out;
}
