/**
 * Boundaries by relation id (issue 22; params/README.md, "Boundaries by relation id"): the polygons
 * of the relations a `bpolys=relation/<id>` request names, read from the store at the request's last
 * timestamp (its last snapshot, or the end of its last interval), then checked as pasted bpolys
 * polygons are (validity, vertex limit, data extent). Fills the request's `areas`.
 */
import { MaphistError } from '../../core/errors.js';
import type { Geometry, MultiPolygon, Polygon } from '../../geometry/types.js';
import type { BoundaryRelationSource } from '../../query/boundary-relations.js';
import type { StoreMetadata } from '../../store/metadata.js';
import { polygonProblem } from '../common/limits.js';
import { assertWithinDataExtent } from './params/boundary-extent.js';
import { area } from './params/boundary-objects.js';
import { admit } from './params/limit-check.js';
import type { V1Request } from './params/parse-v1-request.js';

function isoSeconds(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace('.000Z', 'Z');
}

function vertexCount(g: Polygon | MultiPolygon): number {
  const polygons = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
  let n = 0;
  for (const p of polygons) for (const ring of p) n += ring.length;
  return n;
}

function describe(g: Geometry | undefined): string {
  if (g === undefined) return 'no geometry';
  return g.type === 'GeometryCollection' ? 'a GeometryCollection of its members (its rings could not be assembled into polygons)' : `a ${g.type}`;
}

/** Resolves `request.boundaryRelations` into `request.areas` (nothing to do for other boundaries). */
export async function resolveRelationBoundaries(
  request: V1Request,
  source: BoundaryRelationSource,
  metadata: StoreMetadata,
  signal?: AbortSignal,
): Promise<void> {
  const refs = request.boundaryRelations;
  if (refs === undefined) return;
  const at = request.timestamps[request.timestamps.length - 1]!;
  const when = isoSeconds(at);
  const states = await source.relationsAt(
    refs.map((r) => r.relationId),
    at,
    signal,
  );
  const polygons = refs.map((ref) => {
    const what = `Relation ${ref.relationId} (boundary '${ref.id}')`;
    const details = { boundary: ref.id, relation: ref.relationId, time: when };
    const s = states.get(ref.relationId) ?? { kind: 'unknown' as const };
    if (s.kind === 'unknown') {
      throw new MaphistError(
        'BOUNDARY_RELATION_NOT_FOUND',
        `${what} is not in the data. Give the id of a boundary or multipolygon relation the data holds.`,
        details,
      );
    }
    if (s.kind === 'absent') {
      throw new MaphistError(
        'BOUNDARY_RELATION_NOT_FOUND',
        `${what} did not exist at ${when}, the request's last timestamp, at which its polygon is taken (it was created later, or deleted). Choose a time at which it exists.`,
        details,
      );
    }
    const g = s.geometry;
    if (g === undefined || (g.type !== 'Polygon' && g.type !== 'MultiPolygon')) {
      throw new MaphistError(
        'BOUNDARY_RELATION_NOT_AREAL',
        `${what} has no polygon at ${when} (version ${s.version}): its geometry is ${describe(g)}. Give a boundary or multipolygon relation whose rings are closed at that time.`,
        details,
      );
    }
    const refuse = (message: string): never => {
      throw new MaphistError('BOUNDARY_INVALID', `${what}: ${message}`, details);
    };
    const problem = s.geometryValid
      ? polygonProblem(g, 'v1', refuse)
      : 'the data lacks some of its members (the extract cut them), so its polygon is incomplete';
    if (problem !== undefined) {
      throw new MaphistError('BOUNDARY_RELATION_NOT_AREAL', `${what} has no valid polygon at ${when} (version ${s.version}): ${problem}.`, details);
    }
    return g;
  });
  admit(
    'vertices',
    polygons.reduce((n, g) => n + vertexCount(g), 0),
    'vertices over all bpolys (the polygons of the relations named)',
    'Name fewer relations per request.',
  );
  request.areas = polygons.map((g, i) => area(refs[i]!.id, g));
  request.boundaryOutputIds = refs.map((r) => r.id);
  assertWithinDataExtent(request.areas, metadata.spatialExtent);
}
