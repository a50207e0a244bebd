/**
 * The `aoi` parameter (docs/reference/v2-reference-and-contributions-format.md §1.3): a bbox `[xmin, ymin, xmax, ymax]`, a GeoJSON Polygon or MultiPolygon
 * geometry (2D or 3D positions, optional `bbox` member ignored), or a WKT POLYGON/MULTIPOLYGON
 * string; a string that looks like JSON (`{…}`, `[…]`) is parsed as JSON first. GET extraction
 * takes only the text `xmin,ymin,xmax,ymax` (parseAoiText).
 *
 * BBox rules: xmin < xmax, ymin < ymax, y within [-90, 90], x within (-360, 360); a width of 360° or
 * more is clamped to [-180, 180]; a bbox crossing the antimeridian is split into a MultiPolygon of
 * two parts shifted by 360°. Polygons must lie within [-180, 180] × [-90, 90] and be valid (the
 * problem is named); every problem is a BOUNDARY_INVALID error (422), never a 500.
 */
import type { BBox, MultiPolygon, Polygon, Position } from '../../../geometry/types.js';
import { parseWkt } from '../../../geometry/wkt.js';
import type { AreaOfInterest } from '../../../query/model.js';
import type { Pause } from '../../../core/yielding.js';
import { countJsonPositions, LIMITS, limitMessage, polygonProblem, polygonProblemPaced } from '../../common/limits.js';
import { invalidInput, type Loc } from '../error-status.js';

const LOC: Loc = ['aoi'];
const AOI_ID = 'aoi';

function fail(msg: string, type = 'value_error', loc: Loc = LOC): never {
  throw invalidInput('BOUNDARY_INVALID', loc, msg, type);
}

/** The aoi, its polygon checked whole at once (what parseAoiPaced does in steps). */
export function parseAoi(value: unknown): AreaOfInterest {
  const aoi = readAoi(value);
  if (aoi.polygon) refuseProblem(polygonProblem(aoi.area.geometry, 'v2', refuseTooComplex));
  return aoi.area;
}

/**
 * The aoi, its polygon checked in steps with turns of the event loop between them (`pause`,
 * src/core/yielding.ts): what the routes use, so that checking an aoi of 100,000 vertices or 10,000
 * parts (0.1–0.3 s) does not hold the other requests.
 */
export async function parseAoiPaced(value: unknown, pause: Pause): Promise<AreaOfInterest> {
  const aoi = readAoi(value);
  if (aoi.polygon) refuseProblem(await polygonProblemPaced(aoi.area.geometry, 'v2', refuseTooComplex, pause));
  return aoi.area;
}

function refuseTooComplex(message: string): never {
  return fail(`The aoi is too complex to check: ${message}`, 'too_long');
}

function refuseProblem(problem: string | undefined): void {
  if (problem !== undefined) fail(`The aoi is not a valid polygon: ${problem}.`, 'invalid_geometry');
}

/** A read aoi: its area, and whether its polygon is the user's, to be checked (a bbox is valid by construction). */
interface ReadAoi {
  area: AreaOfInterest;
  polygon: boolean;
}

const asBox = (area: AreaOfInterest): ReadAoi => ({ area, polygon: false });

/** The aoi's shape, coordinates and ranges; its polygon not yet checked for validity. */
function readAoi(value: unknown): ReadAoi {
  if (typeof value === 'string') return readAoiString(value);
  if (Array.isArray(value)) return asBox(parseBboxArray(value));
  if (typeof value === 'object' && value !== null) return fromGeometry(parseGeoJson(value as Record<string, unknown>));
  return fail('Input should be a bounding box [xmin, ymin, xmax, ymax], a GeoJSON Polygon or MultiPolygon, or a WKT string.', 'union_error');
}

/** GET extraction: `xmin,ymin,xmax,ymax`. */
export function parseAoiText(text: string): AreaOfInterest {
  const parts = text.split(',');
  if (parts.length !== 4 || parts.some((p) => p.trim() === '' || !Number.isFinite(Number(p)))) {
    return fail('aoi should be a bounding box of four comma-separated numbers: xmin,ymin,xmax,ymax.');
  }
  return bboxAoi(parts.map(Number) as BBox);
}

/** The vertex limit (src/api/common/limits.ts): at most LIMITS.vertices.v2 positions. */
export function admitAoiVertices(count: number, loc: Loc = LOC): void {
  const max = LIMITS.vertices.v2;
  if (count <= max) return;
  fail(limitMessage('vertices in the aoi', max, count, 'Simplify the polygon, or split the area over several requests.'), 'too_long', loc);
}

function readAoiString(text: string): ReadAoi {
  const t = text.trim();
  // Counted in the text, before it is parsed: JSON positions, or WKT coordinates (one more than the commas).
  admitAoiVertices(t.startsWith('{') || t.startsWith('[') ? countJsonPositions(t) : countChar(t, ',') + 1);
  if (t.startsWith('{') || t.startsWith('[')) {
    let json: unknown;
    try {
      json = JSON.parse(t);
    } catch {
      return fail('aoi looks like JSON but is not valid JSON.', 'json_invalid');
    }
    if (typeof json === 'string') return fail('aoi should not be a JSON-encoded string.');
    return readAoi(json);
  }
  if (t === '') return fail('aoi must not be empty.');
  let g;
  try {
    g = parseWkt(t);
  } catch (e) {
    return fail(`aoi is not valid WKT: ${(e as Error).message}`, 'wkt_invalid');
  }
  if (g.type !== 'Polygon' && g.type !== 'MultiPolygon') return fail(`aoi must be a POLYGON or MULTIPOLYGON, not a ${g.type}.`);
  return fromGeometry(g);
}

function parseBboxArray(values: unknown[]): AreaOfInterest {
  if (values.length !== 4 || !values.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    return fail('A bounding box aoi should be an array of four numbers: [xmin, ymin, xmax, ymax].');
  }
  return bboxAoi(values as BBox);
}

/** The bbox rules of docs/reference/v2-reference-and-contributions-format.md §1.3. */
export function bboxAoi([xmin, ymin, xmax, ymax]: BBox): AreaOfInterest {
  if (!(xmin < xmax)) fail('The bounding box is invalid: xmin must be smaller than xmax.');
  if (!(ymin < ymax)) fail('The bounding box is invalid: ymin must be smaller than ymax.');
  if (ymin < -90 || ymax > 90) fail('The bounding box is invalid: y values must lie within [-90, 90].');
  if (!(xmin > -360 && xmax < 360)) fail('The bounding box is invalid: x values must lie within (-360, 360).');
  if (xmax - xmin >= 360) return area(box(-180, ymin, 180, ymax), [-180, ymin, 180, ymax]);
  if (xmin < -180) {
    const g: MultiPolygon = { type: 'MultiPolygon', coordinates: [box(xmin + 360, ymin, 180, ymax).coordinates, box(-180, ymin, xmax, ymax).coordinates] };
    return area(g, [-180, ymin, 180, ymax]);
  }
  if (xmax > 180) {
    const g: MultiPolygon = { type: 'MultiPolygon', coordinates: [box(xmin, ymin, 180, ymax).coordinates, box(-180, ymin, xmax - 360, ymax).coordinates] };
    return area(g, [-180, ymin, 180, ymax]);
  }
  return area(box(xmin, ymin, xmax, ymax), [xmin, ymin, xmax, ymax]);
}

function box(xmin: number, ymin: number, xmax: number, ymax: number): Polygon {
  return {
    type: 'Polygon',
    coordinates: [
      [
        [xmin, ymin],
        [xmax, ymin],
        [xmax, ymax],
        [xmin, ymax],
        [xmin, ymin],
      ],
    ],
  };
}

function area(geometry: Polygon | MultiPolygon, bbox: BBox): AreaOfInterest {
  return { id: AOI_ID, geometry, bbox };
}

function countChar(text: string, c: string): number {
  let n = 0;
  for (let i = text.indexOf(c); i >= 0; i = text.indexOf(c, i + 1)) n++;
  return n;
}

/** The positions of GeoJSON coordinates (Polygon: depth 2, MultiPolygon: 3), counted before any is read. */
function countPositions(coordinates: unknown, depth: number): number {
  if (!Array.isArray(coordinates)) return 0;
  if (depth === 0) return coordinates.length;
  let n = 0;
  for (const c of coordinates) n += countPositions(c, depth - 1);
  return n;
}

function parseGeoJson(o: Record<string, unknown>): Polygon | MultiPolygon {
  if (o.type !== 'Polygon' && o.type !== 'MultiPolygon') {
    return fail("A GeoJSON aoi must be a geometry of type 'Polygon' or 'MultiPolygon' (not a Feature or FeatureCollection).", 'literal_error', [
      ...LOC,
      'type',
    ]);
  }
  const loc = [...LOC, 'coordinates'];
  admitAoiVertices(countPositions(o.coordinates, o.type === 'Polygon' ? 1 : 2), loc);
  if (o.type === 'Polygon') return { type: 'Polygon', coordinates: rings(o.coordinates, loc) };
  if (!Array.isArray(o.coordinates)) return fail('Input should be a valid list', 'list_type', loc);
  return { type: 'MultiPolygon', coordinates: o.coordinates.map((p, i) => rings(p, [...loc, i])) };
}

function rings(v: unknown, loc: Loc): Position[][] {
  if (!Array.isArray(v)) return fail('Input should be a valid list', 'list_type', loc);
  return v.map((ring, r) => {
    if (!Array.isArray(ring)) return fail('Input should be a valid list', 'list_type', [...loc, r]);
    if (ring.length < 4) return fail('A linear ring should have at least 4 positions.', 'too_short', [...loc, r]);
    return ring.map((p, i) => position(p, [...loc, r, i]));
  });
}

function position(p: unknown, loc: Loc): Position {
  if (!Array.isArray(p) || p.length < 2 || p.length > 3 || !p.every((n) => typeof n === 'number' && Number.isFinite(n))) {
    return fail('A position should be an array of two or three numbers.', 'value_error', loc);
  }
  return [p[0] as number, p[1] as number];
}

function fromGeometry(g: Polygon | MultiPolygon): ReadAoi {
  const parts = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
  let [xmin, ymin, xmax, ymax] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const part of parts) {
    for (const ring of part) {
      for (const [x, y] of ring) {
        if (!(Math.abs(x) <= 180 && Math.abs(y) <= 90)) fail(`The aoi has a coordinate outside [-180, 180] × [-90, 90]: ${x} ${y}.`);
        xmin = Math.min(xmin, x);
        ymin = Math.min(ymin, y);
        xmax = Math.max(xmax, x);
        ymax = Math.max(ymax, y);
      }
    }
  }
  return { area: area(g, [xmin, ymin, xmax, ymax]), polygon: true };
}
