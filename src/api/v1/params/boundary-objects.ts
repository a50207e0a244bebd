/**
 * How the text boundary parameters are cut into objects and ids (docs/reference/v1-reference-behaviour.md §1.4): objects are separated
 * by `|`; an optional id is the text before the first `:` of an object's first comma field; the
 * first object decides whether all have ids.
 */
import { MaphistError } from '../../../core/errors.js';
import type { BBox, MultiPolygon, Polygon } from '../../../geometry/types.js';
import type { AreaOfInterest } from '../../../query/model.js';
import { javaSplit } from './java-text.js';
import { MSG } from './messages.js';

export interface TextObjects {
  /** The custom ids, one per `|` part, or undefined when the objects have none. */
  ids: string[] | undefined;
  /** The comma fields of each part (ids removed). */
  fields: string[][];
}

/** Splits a bboxes/bcircles/bpolys text into its `|` parts, their ids and comma fields. */
export function splitTextObjects(value: string): TextObjects {
  const parts = javaSplit(value, '|');
  if (parts.length === 0) throw new MaphistError('BOUNDARY_INVALID', MSG.BOUNDARY_PARAM_FORMAT);
  const withIds = parts[0]!.includes(':');
  const ids: string[] = [];
  const fields: string[][] = [];
  for (const part of parts) {
    const f = javaSplit(part, ',');
    if (withIds) {
      // Java's split drops trailing empty fields, so a part such as "," has no fields at all.
      const first = f[0] ?? '';
      const colon = first.indexOf(':');
      if (colon < 0) throw new MaphistError('BOUNDARY_INVALID', MSG.BOUNDARY_IDS_FORMAT);
      ids.push(first.slice(0, colon));
      f[0] = first.slice(colon + 1);
    }
    fields.push(f);
  }
  return { ids: withIds ? ids : undefined, fields };
}

/**
 * A coordinate must lie on the globe: longitude within [-180, 180], latitude within [-90, 90]
 * (the reference let such boundaries through to a 404 or a 500). `what` names the object in the
 * message (`The bbox 'b1'`).
 */
export function assertLonLat(lon: number, lat: number, what: string, id: string): void {
  if (lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90) return;
  const [name, value, range] = lon >= -180 && lon <= 180 ? ['latitude', lat, '[-90, 90]'] : ['longitude', lon, '[-180, 180]'];
  throw new MaphistError(
    'BOUNDARY_INVALID',
    `${what} has a ${name} of ${value}, outside ${range}. Give coordinates in WGS84 degrees: longitudes within [-180, 180], latitudes within [-90, 90].`,
    { boundary: id },
  );
}

/** `boundary1`, `boundary2`, … */
export function defaultId(index: number): string {
  return `boundary${index + 1}`;
}

export function bboxOfPolygonal(g: Polygon | MultiPolygon): BBox {
  const b: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  const polygons = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
  for (const polygon of polygons) {
    for (const [x, y] of polygon[0] ?? []) {
      if (x < b[0]) b[0] = x;
      if (y < b[1]) b[1] = y;
      if (x > b[2]) b[2] = x;
      if (y > b[3]) b[3] = y;
    }
  }
  return b;
}

export function area(id: string, geometry: Polygon | MultiPolygon): AreaOfInterest {
  return { id, geometry, bbox: bboxOfPolygonal(geometry) };
}
