/** States of a node: one per version (nodes have no members). */
import type { NodeVersion } from '../core/osm.js';
import type { Point } from '../geometry/types.js';
import type { ElementState } from './element-state.js';
import { finishStates, resolvedPoint, type ResolvedPoint } from './finish-states.js';

export function buildNodeStates(versions: readonly NodeVersion[]): ElementState[] {
  // A version that did not move the node shares the previous point (its WKB and measures are computed once).
  let previous: { lon: number; lat: number; point: Point } | undefined;
  const points: ResolvedPoint[] = versions.map((v, i) => {
    let point: Point | null = null;
    if (v.visible) {
      if (previous === undefined || previous.lon !== v.lon || previous.lat !== v.lat) {
        previous = { lon: v.lon, lat: v.lat, point: { type: 'Point', coordinates: [v.lon * 1e-7, v.lat * 1e-7] } };
      }
      point = previous.point;
    }
    return resolvedPoint(
      { timestamp: v.timestamp, versionIndex: i, changeset: v.changeset, uid: v.uid, major: true },
      v.version,
      !v.visible,
      v.visible ? v.tags : [],
      point,
      true,
    );
  });
  return finishStates(0, versions[0].id, points);
}
