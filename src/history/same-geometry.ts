/**
 * Exact geometry equality: same type, same coordinates in the same order (JTS `equalsExact`,
 * which the reference uses to decide GEOMETRY_CHANGE).
 */
import type { Geometry } from '../geometry/types.js';

export function sameGeometry(a: Geometry | null, b: Geometry | null): boolean {
  if (a === b) return true;
  if (a === null || b === null || a.type !== b.type) return false;
  if (a.type === 'GeometryCollection') {
    const bg = (b as typeof a).geometries;
    if (a.geometries.length !== bg.length) return false;
    for (let i = 0; i < bg.length; i++) if (!sameGeometry(a.geometries[i], bg[i])) return false;
    return true;
  }
  return sameNested(a.coordinates, (b as typeof a).coordinates);
}

function sameNested(a: unknown, b: unknown): boolean {
  if (typeof a === 'number') return a === b;
  const aa = a as unknown[];
  const bb = b as unknown[];
  if (aa.length !== bb.length) return false;
  for (let i = 0; i < aa.length; i++) if (!sameNested(aa[i], bb[i])) return false;
  return true;
}
