/** Boundary areas in km² for density outputs (docs/reference/v1-reference-behaviour.md §3.2): the union of all boundaries, and each one. */
import { areaOf } from '../../geometry/measures.js';
import type { AreaOfInterest } from '../../query/model.js';
import { unionOfAreas } from '../../query/area-plan.js';
import type { DensityAreas } from './output.js';

export function densityAreas(areas: readonly AreaOfInterest[]): DensityAreas {
  const byBoundaryKm2 = new Map<string, number>();
  for (const a of areas) byBoundaryKm2.set(a.id, areaOf(a.geometry) * 1e-6);
  const unionKm2 = areas.length === 1 ? areaOf(areas[0].geometry) * 1e-6 : areaOf(unionOfAreas(areas).geometry) * 1e-6;
  return { unionKm2, byBoundaryKm2 };
}
