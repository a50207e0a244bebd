/**
 * Test support: fast-check arbitraries for every geometry type, with finite lon/lat doubles.
 */
import fc from 'fast-check';
import type { Geometry, Position } from '../types.js';

export const position: fc.Arbitrary<Position> = fc.tuple(fc.double({ min: -180, max: 180, noNaN: true }), fc.double({ min: -90, max: 90, noNaN: true }));

const positions = (minLength: number): fc.Arbitrary<Position[]> => fc.array(position, { minLength, maxLength: 8 });

/** A closed ring (first position repeated at the end); not necessarily simple. */
const ring: fc.Arbitrary<Position[]> = positions(3).map((ps) => [...ps, ps[0]]);

const polygonRings: fc.Arbitrary<Position[][]> = fc.array(ring, { minLength: 1, maxLength: 3 });

export const geometry: fc.Arbitrary<Geometry> = fc.letrec<{ geometry: Geometry }>((tie) => ({
  geometry: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    position.map((coordinates): Geometry => ({ type: 'Point', coordinates })),
    positions(2).map((coordinates): Geometry => ({ type: 'LineString', coordinates })),
    polygonRings.map((coordinates): Geometry => ({ type: 'Polygon', coordinates })),
    fc.array(position, { maxLength: 5 }).map((coordinates): Geometry => ({ type: 'MultiPoint', coordinates })),
    fc.array(positions(2), { maxLength: 3 }).map((coordinates): Geometry => ({ type: 'MultiLineString', coordinates })),
    fc.array(polygonRings, { maxLength: 3 }).map((coordinates): Geometry => ({ type: 'MultiPolygon', coordinates })),
    fc.array(tie('geometry'), { maxLength: 3 }).map((geometries): Geometry => ({ type: 'GeometryCollection', geometries })),
  ),
})).geometry;
