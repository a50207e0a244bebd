/** States of a node: one per version (nodes have no members). */
import type { NodeVersion } from '../core/osm.js';
import type { ElementState } from './element-state.js';
import { finishStates, resolvedPoint, type ResolvedPoint } from './finish-states.js';

export function buildNodeStates(versions: readonly NodeVersion[]): ElementState[] {
  const points: ResolvedPoint[] = versions.map((v, i) =>
    resolvedPoint(
      { timestamp: v.timestamp, versionIndex: i, changeset: v.changeset, uid: v.uid, major: true },
      v.version,
      !v.visible,
      v.visible ? v.tags : [],
      v.visible ? { type: 'Point', coordinates: [v.lon * 1e-7, v.lat * 1e-7] } : null,
      true,
    ),
  );
  return finishStates(0, versions[0].id, points);
}
