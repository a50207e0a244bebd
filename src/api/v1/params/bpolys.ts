/**
 * `bpolys` (docs/reference/v1-reference-behaviour.md §1.4): a coordinate list `lon,lat,lon,lat,…` (objects separated by `|`, optional
 * `id:` prefixes), or a GeoJSON FeatureCollection of Polygon/MultiPolygon features. Every polygon
 * is checked for validity up front (the reference answered most invalid polygons with 500).
 */
import { MaphistError } from '../../../core/errors.js';
import type { MultiPolygon, Polygon, Position } from '../../../geometry/types.js';
import type { AreaOfInterest } from '../../../query/model.js';
import { area, assertLonLat, defaultId, splitTextObjects } from './boundary-objects.js';
import { parseJavaDouble } from './java-text.js';
import { admit } from './limit-check.js';
import { MSG } from './messages.js';
import { polygonProblem } from '../../common/limits.js';

export interface ParsedBpolys {
  areas: AreaOfInterest[];
  /** The ids as responses print them: numbers for numeric GeoJSON ids, else strings. */
  outputIds: (string | number)[];
}

export function parseBpolys(value: string): ParsedBpolys {
  const parsed = /^\s*\{/.test(value) ? parseGeoJsonBpolys(value) : parseTextBpolys(value);
  for (const a of parsed.areas) assertPolygonInRange(a);
  for (const a of parsed.areas) {
    const problem = polygonProblem(a.geometry, 'v1', (message) => {
      throw new MaphistError('BOUNDARY_INVALID', `${MSG.BPOLYS_INVALID_PREFIX}boundary '${a.id}': ${message}`, { boundary: a.id });
    });
    if (problem !== undefined) {
      throw new MaphistError('BOUNDARY_INVALID', `${MSG.BPOLYS_INVALID_PREFIX}boundary '${a.id}': ${problem}.`, {
        boundary: a.id,
      });
    }
  }
  return parsed;
}

/**
 * The text form, with the reference's observable semantics: all coordinates of all parts are
 * concatenated and cut into rings where a ring's first point re-appears; `|` only assigns ids. If
 * the very first pair string-equals the very last, the whole list is one ring. A trailing unclosed
 * ring is dropped.
 */
export function parseTextBpolys(value: string): ParsedBpolys {
  const { ids, fields } = splitTextObjects(value);
  if (ids !== undefined) {
    for (const f of fields) {
      if (f.some((text) => text.includes(':'))) throw new MaphistError('BOUNDARY_INVALID', MSG.BOUNDARY_PARAM_FORMAT);
    }
  }
  const all = fields.flat();
  if (all.length % 2 !== 0) throw new MaphistError('BOUNDARY_INVALID', MSG.BOUNDARY_PARAM_FORMAT);
  const point = (i: number): Position => {
    const lon = parseJavaDouble(all[i]!);
    const lat = parseJavaDouble(all[i + 1]!);
    if (lon === undefined || lat === undefined) throw new MaphistError('BOUNDARY_INVALID', MSG.BPOLYS_FORMAT);
    return [lon, lat];
  };
  const rings: Position[][] = [];
  const n = all.length;
  if (all[0] === all[n - 2] && all[1] === all[n - 1]) {
    const ring: Position[] = [];
    for (let i = 0; i < n; i += 2) ring.push(point(i));
    if (ring.length < 4) throw new MaphistError('BOUNDARY_INVALID', MSG.BPOLYS_FORMAT);
    rings.push(ring);
  } else {
    let current: Position[] = [];
    for (let i = 0; i < n; i += 2) {
      const p = point(i);
      current.push(p);
      const first = current[0]!;
      if (current.length > 1 && p[0] === first[0] && p[1] === first[1]) {
        rings.push(current);
        current = [];
      }
    }
  }
  if (rings.length === 0) throw new MaphistError('BOUNDARY_INVALID', MSG.BPOLYS_FORMAT);
  admitPolygons(rings.length);
  const areas = rings.map((ring, i) => area(ids?.[i] ?? defaultId(i), { type: 'Polygon', coordinates: [ring] }));
  return { areas, outputIds: areas.map((a) => a.id) };
}

function admitPolygons(count: number): void {
  admit('boundaries', count, 'boundaries in bpolys', 'Split them over several requests.');
}

function assertPolygonInRange(a: AreaOfInterest): void {
  const polygons = a.geometry.type === 'Polygon' ? [a.geometry.coordinates] : a.geometry.coordinates;
  for (const polygon of polygons) for (const ring of polygon) for (const [lon, lat] of ring) assertLonLat(lon, lat, `The bpolys boundary '${a.id}'`, a.id);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The GeoJSON form: a FeatureCollection; ids from `feature.id`, else `properties.id`, else `feature<n>`. */
export function parseGeoJsonBpolys(value: string): ParsedBpolys {
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    throw new MaphistError('BOUNDARY_INVALID', MSG.GEOJSON_NOT_FC);
  }
  if (!isObject(json) || !Array.isArray(json.features)) throw new MaphistError('BOUNDARY_INVALID', MSG.GEOJSON_NOT_FC);
  const features = json.features as unknown[];
  if (features.length === 0) {
    throw new MaphistError(
      'BOUNDARY_INVALID',
      'The GeoJSON FeatureCollection given as bpolys has no features; give at least one Polygon or MultiPolygon feature.',
    );
  }
  admitPolygons(features.length);
  const areas: AreaOfInterest[] = [];
  const outputIds: (string | number)[] = [];
  features.forEach((feature, i) => {
    if (!isObject(feature)) throw new MaphistError('BOUNDARY_INVALID', MSG.GEOJSON_CONVERT);
    const properties = isObject(feature.properties) ? feature.properties : {};
    const raw = feature.id ?? properties.id ?? `feature${i + 1}`;
    let id: string | number;
    if (typeof raw === 'string') id = raw;
    else if (typeof raw === 'number' && Number.isSafeInteger(raw)) id = raw;
    else throw new MaphistError('BOUNDARY_INVALID', MSG.GEOJSON_ID);
    const geometry = toPolygonal(feature.geometry);
    if (geometry === undefined) throw new MaphistError('BOUNDARY_INVALID', MSG.GEOJSON_CONVERT, { boundary: String(id) });
    areas.push(area(String(id), geometry));
    outputIds.push(id);
  });
  return { areas, outputIds };
}

function toPosition(v: unknown): Position | undefined {
  if (!Array.isArray(v) || v.length < 2) return undefined;
  const [x, y] = v as unknown[];
  if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y)) return undefined;
  return [x, y];
}

function toRings(v: unknown): Position[][] | undefined {
  if (!Array.isArray(v)) return undefined;
  const rings: Position[][] = [];
  for (const ring of v as unknown[]) {
    if (!Array.isArray(ring)) return undefined;
    const positions: Position[] = [];
    for (const p of ring as unknown[]) {
      const pos = toPosition(p);
      if (pos === undefined) return undefined;
      positions.push(pos);
    }
    rings.push(positions);
  }
  return rings;
}

function toPolygonal(g: unknown): Polygon | MultiPolygon | undefined {
  if (!isObject(g)) return undefined;
  if (g.type === 'Polygon') {
    const rings = toRings(g.coordinates);
    return rings === undefined ? undefined : { type: 'Polygon', coordinates: rings };
  }
  if (g.type === 'MultiPolygon') {
    if (!Array.isArray(g.coordinates)) return undefined;
    const polygons: Position[][][] = [];
    for (const p of g.coordinates as unknown[]) {
      const rings = toRings(p);
      if (rings === undefined) return undefined;
      polygons.push(rings);
    }
    return { type: 'MultiPolygon', coordinates: polygons };
  }
  return undefined;
}
