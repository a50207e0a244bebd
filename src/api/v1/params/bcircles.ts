/**
 * `bcircles`: `lon,lat,radiusInMetres` per circle, separated by `|`, optional `id:` prefix
 * (docs/reference/v1-reference-behaviour.md §1.4). Each circle becomes a geodesic 32-gon. Unlike the reference (which failed with 500
 * for huge radii), radii must be positive, at most 1000 km, and a circle must not reach a pole.
 */
import { MaphistError } from '../../../core/errors.js';
import type { AreaOfInterest } from '../../../query/model.js';
import { area, defaultId, splitTextObjects } from './boundary-objects.js';
import { geodesicCircle } from './geodesic-circle.js';
import { parseJavaDouble } from './java-text.js';
import { MSG } from './messages.js';

/** The largest radius accepted, in metres. */
export const MAX_CIRCLE_RADIUS = 1_000_000;
/** Metres per degree of latitude at the equator (the shortest degree), to keep circles off the poles. */
const MIN_METRES_PER_DEGREE = 110_574;

export function parseBcircles(value: string): AreaOfInterest[] {
  const { ids, fields } = splitTextObjects(value);
  let groups: string[][];
  if (ids !== undefined) {
    for (const f of fields) if (f.length !== 3) throw new MaphistError('BOUNDARY_INVALID', MSG.BOUNDARY_PARAM_FORMAT);
    groups = fields;
  } else {
    const all = fields.flat();
    if (all.length % 3 !== 0) throw new MaphistError('BOUNDARY_INVALID', MSG.BOUNDARY_PARAM_FORMAT);
    groups = [];
    for (let i = 0; i < all.length; i += 3) groups.push(all.slice(i, i + 3));
  }
  return groups.map((g, i) => {
    const [lon, lat, radius] = g.map((text) => {
      const v = parseJavaDouble(text);
      if (v === undefined) throw new MaphistError('BOUNDARY_INVALID', MSG.BCIRCLES_FORMAT);
      return v;
    }) as [number, number, number];
    const id = ids?.[i] ?? defaultId(i);
    if (lat < -90 || lat > 90) {
      throw new MaphistError(
        'BOUNDARY_INVALID',
        `${MSG.BCIRCLES_FORMAT} The centre of bcircle '${id}' has latitude ${lat}; give lon,lat with a latitude between -90 and 90.`,
        { boundary: id },
      );
    }
    if (lon < -180 || lon > 180) {
      throw new MaphistError(
        'BOUNDARY_INVALID',
        `${MSG.BCIRCLES_FORMAT} The centre of bcircle '${id}' has longitude ${lon}; give lon,lat with a longitude between -180 and 180.`,
        { boundary: id },
      );
    }
    if (!(radius > 0) || radius > MAX_CIRCLE_RADIUS) {
      throw new MaphistError(
        'BOUNDARY_INVALID',
        `${MSG.BCIRCLES_FORMAT} The radius of bcircle '${id}' is ${radius}; give a radius in meters greater than 0 and at most ${MAX_CIRCLE_RADIUS}.`,
        { boundary: id },
      );
    }
    if (radius >= (90 - Math.abs(lat)) * MIN_METRES_PER_DEGREE) {
      throw new MaphistError(
        'BOUNDARY_INVALID',
        `The bcircle '${id}' reaches a pole; give a smaller radius or a centre farther from the pole (use bpolys for polar areas).`,
        { boundary: id },
      );
    }
    return area(id, geodesicCircle(lon, lat, radius));
  });
}
