/**
 * A clip area (Polygon or MultiPolygon) prepared for many point and segment queries: every ring
 * gets a `RingIndex`. Preparations are cached per area object, so clipping many geometries with
 * the same area prepares it once.
 */
import Flatbush from 'flatbush';
import { Location, ON_EDGE_TOLERANCE, RingIndex } from './ring-index.js';
import { bboxesIntersect } from './ring-predicates.js';
import { ringWindow } from './ring-window.js';
import type { BBox, MultiPolygon, Polygon, Position } from './types.js';

interface PreparedPolygon {
  shell: RingIndex;
  holes: RingIndex[];
}

/** Areas with more vertices than this are cut to a window around each geometry before clipping. */
const WINDOW_THRESHOLD = 256;

/**
 * Areas of more polygons (or rings) than this find the ones near a point or box through a static
 * R-tree of their bounding boxes (Flatbush, docs/dependencies.md) instead of trying each: an aoi
 * of 10,000 parts asked for every vertex of every boundary geometry took seconds.
 */
const INDEX_THRESHOLD = 16;

function indexOf(boxes: readonly BBox[]): Flatbush | undefined {
  if (boxes.length <= INDEX_THRESHOLD) return undefined;
  const index = new Flatbush(boxes.length);
  for (const b of boxes) index.add(b[0], b[1], b[2], b[3]);
  index.finish();
  return index;
}

export class PreparedArea {
  readonly polygons: PreparedPolygon[];
  readonly coordinates: Position[][][];
  readonly vertexCount: number;
  readonly bbox: BBox;
  /** Every ring (shells and holes): the edges a line can cross. */
  readonly rings: RingIndex[];
  private readonly polygonIndex: Flatbush | undefined;
  private readonly ringIndex: Flatbush | undefined;

  constructor(area: Polygon | MultiPolygon) {
    const polygons = area.type === 'Polygon' ? [area.coordinates] : area.coordinates;
    this.coordinates = polygons;
    this.vertexCount = polygons.reduce((n, rings) => n + rings.reduce((m, ring) => m + ring.length, 0), 0);
    this.polygons = polygons
      .filter((rings) => rings.length > 0 && rings[0].length > 0)
      .map((rings) => ({ shell: new RingIndex(rings[0]), holes: rings.slice(1).map((ring) => new RingIndex(ring)) }));
    this.rings = this.polygons.flatMap((p) => [p.shell, ...p.holes]);
    this.polygonIndex = indexOf(this.polygons.map((p) => p.shell.bbox));
    this.ringIndex = indexOf(this.rings.map((r) => r.bbox));
    const bbox: BBox = [Infinity, Infinity, -Infinity, -Infinity];
    for (const p of this.polygons) {
      bbox[0] = Math.min(bbox[0], p.shell.bbox[0]);
      bbox[1] = Math.min(bbox[1], p.shell.bbox[1]);
      bbox[2] = Math.max(bbox[2], p.shell.bbox[2]);
      bbox[3] = Math.max(bbox[3], p.shell.bbox[3]);
    }
    this.bbox = bbox;
  }

  /** The polygons whose shell's bbox meets the box (all of them when there are few). */
  polygonsNear(minX: number, minY: number, maxX: number, maxY: number): readonly PreparedPolygon[] {
    if (this.polygonIndex === undefined) return this.polygons;
    // In the area's order, as without the index (a clip's input, and so its output, keep it).
    return this.polygonIndex
      .search(minX, minY, maxX, maxY)
      .sort((a, b) => a - b)
      .map((i) => this.polygons[i]);
  }

  /** The rings whose bbox meets the box (all of them when there are few): those a segment in the box can cross. */
  ringsNear(minX: number, minY: number, maxX: number, maxY: number): readonly RingIndex[] {
    if (this.ringIndex === undefined) return this.rings;
    const t = ON_EDGE_TOLERANCE;
    return this.ringIndex
      .search(minX - t, minY - t, maxX + t, maxY + t)
      .sort((a, b) => a - b)
      .map((i) => this.rings[i]);
  }

  /** Where `p` lies: inside the area, on its boundary (shell or hole edge), or outside. */
  locate(p: Position): Location {
    let boundary = false;
    for (const polygon of this.polygonsNear(p[0], p[1], p[0], p[1])) {
      const b = polygon.shell.bbox;
      if (p[0] < b[0] || p[0] > b[2] || p[1] < b[1] || p[1] > b[3]) continue;
      const inShell = polygon.shell.locate(p);
      if (inShell === Location.Outside) continue;
      if (inShell === Location.Boundary) {
        boundary = true;
        continue;
      }
      let whereInHoles: Location = Location.Outside;
      for (const hole of polygon.holes) {
        whereInHoles = hole.locate(p);
        if (whereInHoles !== Location.Outside) break;
      }
      if (whereInHoles === Location.Outside) return Location.Inside;
      if (whereInHoles === Location.Boundary) boundary = true;
    }
    return boundary ? Location.Boundary : Location.Outside;
  }

  /**
   * The area's coordinates for an exact boolean operation with a geometry inside `bbox`: the area
   * itself when it is small, else its rings cut to a slightly larger window around `bbox`, so that
   * the operation does not sweep the whole of a big area for a small geometry.
   */
  coordinatesNear(bbox: BBox): Position[][][] {
    if (this.vertexCount <= WINDOW_THRESHOLD) return this.coordinates;
    const margin = Math.max(bbox[2] - bbox[0], bbox[3] - bbox[1], 1e-9);
    const window: BBox = [bbox[0] - margin, bbox[1] - margin, bbox[2] + margin, bbox[3] + margin];
    const polygons: Position[][][] = [];
    for (const polygon of this.polygonsNear(window[0], window[1], window[2], window[3])) {
      if (!bboxesIntersect(polygon.shell.bbox, window)) continue;
      const shell = ringWindow(polygon.shell.ring, window);
      if (shell.length === 0) continue;
      const holes = polygon.holes
        .filter((hole) => bboxesIntersect(hole.bbox, window))
        .map((hole) => ringWindow(hole.ring, window))
        .filter((ring) => ring.length > 0);
      polygons.push([shell, ...holes]);
    }
    return polygons;
  }

  /** Could a hole of this area intersect `bbox`? */
  hasHoleNear(bbox: BBox): boolean {
    return this.polygonsNear(bbox[0], bbox[1], bbox[2], bbox[3]).some((p) => p.holes.some((hole) => bboxesIntersect(hole.bbox, bbox)));
  }
}

const cache = new WeakMap<Polygon | MultiPolygon, PreparedArea>();

/** The prepared form of `area`, built on first use and remembered while the object lives. */
export function prepareArea(area: Polygon | MultiPolygon): PreparedArea {
  let prepared = cache.get(area);
  if (!prepared) cache.set(area, (prepared = new PreparedArea(area)));
  return prepared;
}
