/**
 * Area planning (pure, no I/O): how one query area splits the rows into **interior** rows (bbox
 * entirely inside the area: clipping is the identity, so the store's precomputed measures are
 * exact and the work stays in SQL) and **boundary** rows (bbox meets the area but is not known to
 * lie inside: they go to TypeScript to be clipped and measured exactly).
 *
 * - A rectangle area (a Polygon that is exactly its bbox): interior = bbox within the rectangle.
 * - Any other (multi)polygon: the area's bbox is cut into a G×G grid; a cell is *full* when no
 *   edge of the area comes near it (edge bboxes, conservative) and its centre lies inside. A row is
 *   interior when its bbox lies in a rectangle of full cells, tested with a summed-area table of
 *   the non-full cells (4 lookups per row).
 *
 * The plan holds no SQL: each engine writes its own tests from it (DuckDB:
 * src/engines/sql/area.ts).
 */
import polygonClipping from 'polygon-clipping';
import { prepareArea } from '../geometry/clip-area.js';
import { clipToBBox, clipToPolygon } from '../geometry/clip.js';
import { Location } from '../geometry/ring-index.js';
import type { BBox, Geometry, MultiPolygon, Polygon, Position } from '../geometry/types.js';
import type { AreaOfInterest } from './model.js';

export interface AreaPlan {
  bbox: BBox;
  /** The area as a rectangle, when it is one (then clipping uses clipToBBox). */
  rect: boolean;
  /**
   * The area is a rectangle covering the whole world: rows without any geometry are in it and
   * interior (the reference keeps them in its top cell:
   * docs/reference/history-engine-semantics.md §5.3).
   */
  wholeWorld: boolean;
  geometry: Polygon | MultiPolygon;
  /**
   * Rows without geometry placed in the area by their element's history bbox (rowids in `states`,
   * ascending; src/query/empty-placement.ts): in the area and interior (measures 0), though the
   * bbox test does not select them. Set by the engine per query (only the rows its filter
   * matches); absent or empty: none, and the statements are those without the rule.
   */
  placedRowids?: readonly number[];
  /** Exact intersection of a geometry with the area (null when empty). */
  clip(g: Geometry): Geometry | null;
  /** The interior grid of a polygon area (undefined for rectangles). */
  grid?: GridCover;
}

/** Cells per side of the interior grid of a polygon area. */
export const GRID_SIZE = 64;

function bboxOfCoordinates(polygons: Position[][][]): BBox {
  const b: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const polygon of polygons) {
    for (const p of polygon[0] ?? []) {
      if (p[0] < b[0]) b[0] = p[0];
      if (p[1] < b[1]) b[1] = p[1];
      if (p[0] > b[2]) b[2] = p[0];
      if (p[1] > b[3]) b[3] = p[1];
    }
  }
  return b;
}

/** Is this (multi)polygon exactly an axis-aligned rectangle (one ring, no holes)? */
export function rectangleOf(g: Polygon | MultiPolygon): BBox | null {
  const rings = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
  if (rings.length !== 1 || rings[0].length !== 1) return null;
  const ring = rings[0][0];
  const b = bboxOfCoordinates(rings);
  const distinct = new Set<string>();
  for (const p of ring) {
    const onX = p[0] === b[0] || p[0] === b[2];
    const onY = p[1] === b[1] || p[1] === b[3];
    if (!onX || !onY) return null;
    distinct.add(`${p[0]},${p[1]}`);
  }
  return distinct.size === 4 && b[0] < b[2] && b[1] < b[3] ? b : null;
}

/** The union of the areas (one area: itself). */
export function unionOfAreas(areas: readonly AreaOfInterest[]): AreaOfInterest {
  if (areas.length === 0) throw new RangeError('no area');
  if (areas.length === 1) return areas[0];
  const geoms = areas.map((a) => (a.geometry.type === 'Polygon' ? [a.geometry.coordinates] : a.geometry.coordinates) as polygonClipping.MultiPolygon);
  const union = polygonClipping.union(geoms[0], ...geoms.slice(1)) as Position[][][];
  const geometry: Polygon | MultiPolygon = union.length === 1 ? { type: 'Polygon', coordinates: union[0] } : { type: 'MultiPolygon', coordinates: union };
  return { id: 'union', geometry, bbox: bboxOfCoordinates(union) };
}

/** Does the rectangle cover [-180, -90, 180, 90]? */
export function coversWholeWorld(b: BBox): boolean {
  return b[0] <= -180 && b[1] <= -90 && b[2] >= 180 && b[3] >= 90;
}

export function planArea(area: AreaOfInterest): AreaPlan {
  const rect = rectangleOf(area.geometry);
  if (rect) {
    return { bbox: rect, rect: true, wholeWorld: coversWholeWorld(rect), geometry: area.geometry, clip: (g) => clipToBBox(g, rect) };
  }
  const geometry = area.geometry;
  const bbox = bboxOfCoordinates(geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates);
  const grid = gridCover(geometry, bbox, GRID_SIZE);
  return { bbox, rect: false, wholeWorld: false, geometry, clip: (g) => clipToPolygon(g, geometry), grid };
}

export interface GridCover {
  nx: number;
  ny: number;
  dx: number;
  dy: number;
  full: Uint8Array;
  /** (nx+1)×(ny+1) summed-area table of non-full cells, row-major by y. */
  sat: Int32Array;
  anyFull: boolean;
}

/** Cells are compared after growing them by this fraction of their size (absorbs rounding of the SQL cell index). */
const CELL_MARGIN = 1e-6;

export function gridCover(area: Polygon | MultiPolygon, bbox: BBox, n: number): GridCover {
  const [x0, y0, x1, y1] = bbox;
  const nx = x1 > x0 ? n : 1;
  const ny = y1 > y0 ? n : 1;
  const dx = (x1 - x0) / nx || 1;
  const dy = (y1 - y0) / ny || 1;
  const touched = new Uint8Array(nx * ny);
  const mx = dx * CELL_MARGIN;
  const my = dy * CELL_MARGIN;
  const polygons = area.type === 'Polygon' ? [area.coordinates] : area.coordinates;
  const clampX = (v: number) => Math.max(0, Math.min(nx - 1, v));
  const clampY = (v: number) => Math.max(0, Math.min(ny - 1, v));
  for (const polygon of polygons) {
    for (const ring of polygon) {
      for (let i = 0; i + 1 < ring.length; i++) {
        const a = ring[i];
        const b = ring[i + 1];
        const cx0 = clampX(Math.floor((Math.min(a[0], b[0]) - mx - x0) / dx));
        const cx1 = clampX(Math.floor((Math.max(a[0], b[0]) + mx - x0) / dx));
        const cy0 = clampY(Math.floor((Math.min(a[1], b[1]) - my - y0) / dy));
        const cy1 = clampY(Math.floor((Math.max(a[1], b[1]) + my - y0) / dy));
        for (let cy = cy0; cy <= cy1; cy++) for (let cx = cx0; cx <= cx1; cx++) touched[cy * nx + cx] = 1;
      }
    }
  }
  // Prepared only when a cell is left to locate (an aoi of 10,000 small parts touches every cell).
  let prepared: ReturnType<typeof prepareArea> | undefined;
  const full = new Uint8Array(nx * ny);
  let anyFull = false;
  for (let cy = 0; cy < ny; cy++) {
    for (let cx = 0; cx < nx; cx++) {
      if (touched[cy * nx + cx]) continue;
      const centre: Position = [x0 + (cx + 0.5) * dx, y0 + (cy + 0.5) * dy];
      prepared ??= prepareArea(area);
      if (prepared.locate(centre) === Location.Inside) {
        full[cy * nx + cx] = 1;
        anyFull = true;
      }
    }
  }
  const sat = new Int32Array((nx + 1) * (ny + 1));
  for (let cy = 0; cy < ny; cy++) {
    for (let cx = 0; cx < nx; cx++) {
      const notFull = full[cy * nx + cx] ? 0 : 1;
      sat[(cy + 1) * (nx + 1) + cx + 1] = notFull + sat[cy * (nx + 1) + cx + 1] + sat[(cy + 1) * (nx + 1) + cx] - sat[cy * (nx + 1) + cx];
    }
  }
  return { nx, ny, dx, dy, full, sat, anyFull };
}
