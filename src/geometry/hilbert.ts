/**
 * The store's spatial sort key: the index of a position on a Hilbert curve of order 16 laid over
 * the whole lon/lat plane, so that states close in space are close in the sort order.
 */

/** Cells per axis: 2^16. */
const SIDE = 65536;

/**
 * Hilbert index (an integer in [0, 2^32)) of the grid cell containing (lon, lat), with lon in
 * [-180, 180] and lat in [-90, 90] each cut into 2^16 equal steps. Values outside the range are
 * clamped to the border cells; NaN counts as the lowest cell.
 */
export function hilbertKey(lon: number, lat: number): number {
  return cellIndex(cellOf((lon + 180) / 360), cellOf((lat + 90) / 180));
}

/** Hilbert index of grid cell (x, y), each in [0, 2^16). */
function cellIndex(cx: number, cy: number): number {
  let x = cx;
  let y = cy;
  let d = 0;
  for (let s = SIDE >>> 1; s > 0; s >>>= 1) {
    const rx = (x & s) !== 0 ? 1 : 0;
    const ry = (y & s) !== 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    // Rotate the quadrant so that the lower bits follow the curve's orientation in it.
    if (ry === 0) {
      if (rx === 1) {
        x = SIDE - 1 - x;
        y = SIDE - 1 - y;
      }
      const t = x;
      x = y;
      y = t;
    }
  }
  return d;
}

/** Grid cell of a fraction of the axis, clamped to [0, SIDE - 1]. */
function cellOf(fraction: number): number {
  const cell = Math.floor(fraction * SIDE);
  if (!(cell > 0)) return 0; // also NaN
  return cell >= SIDE ? SIDE - 1 : cell;
}

/** An inclusive range of Hilbert keys, [first, last]. */
export type KeyRange = readonly [number, number];

/**
 * Key ranges holding the key of every position in `bbox` ([west, south, east, north], degrees;
 * clamped to the plane as `hilbertKey` clamps): sorted, disjoint, at most `maxRanges` of them. The
 * curve visits every aligned square block of the grid in one run of keys, so the blocks meeting
 * the box are refined level by level, from the whole plane down, while the partly covered ones stay
 * few enough; what is left partly covered is taken whole, and the runs closest together are
 * joined until `maxRanges` remain. The ranges may hold keys of cells outside the box (never fewer
 * than the box's): a filter on them is a superset test, for an index to skip by.
 */
export function hilbertRanges(bbox: readonly [number, number, number, number], maxRanges = 32): KeyRange[] {
  if (!(maxRanges >= 1)) throw new RangeError(`maxRanges must be at least 1: ${maxRanges}`);
  const x0 = cellOf((bbox[0] + 180) / 360);
  const x1 = cellOf((bbox[2] + 180) / 360);
  const y0 = cellOf((bbox[1] + 90) / 180);
  const y1 = cellOf((bbox[3] + 90) / 180);
  if (!(x0 <= x1 && y0 <= y1)) return [];
  const ranges: [number, number][] = [];
  const whole = (x: number, y: number, size: number) => {
    const block = size * size;
    const first = cellIndex(x, y) - (cellIndex(x, y) % block);
    ranges.push([first, first + block - 1]);
  };
  // Blocks partly covered at the current level, as [x, y] of their lower-left cell.
  let partial: [number, number][] = [[0, 0]];
  for (let size = SIDE; partial.length > 0; ) {
    const inside = (x: number, y: number) => x >= x0 && x + size - 1 <= x1 && y >= y0 && y + size - 1 <= y1;
    const next: [number, number][] = [];
    for (const [x, y] of partial) {
      if (inside(x, y)) whole(x, y, size);
      else next.push([x, y]);
    }
    // Refine while the partly covered blocks are few (a level's are along the box's edge; the
    // sorted ranges are joined down to maxRanges below).
    if (size === 1 || next.length > 8 * maxRanges) {
      for (const [x, y] of next) whole(x, y, size);
      break;
    }
    const half = size / 2;
    partial = [];
    for (const [x, y] of next) {
      for (const [cx, cy] of [
        [x, y],
        [x + half, y],
        [x, y + half],
        [x + half, y + half],
      ] as const) {
        if (cx <= x1 && cx + half - 1 >= x0 && cy <= y1 && cy + half - 1 >= y0) partial.push([cx, cy]);
      }
    }
    size = half;
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  while (merged.length > maxRanges) {
    // Join the two neighbours with the smallest gap between them.
    let best = 0;
    for (let i = 1; i < merged.length - 1; i++) if (merged[i + 1]![0] - merged[i]![1] < merged[best + 1]![0] - merged[best]![1]) best = i;
    merged[best]![1] = merged[best + 1]![1];
    merged.splice(best + 1, 1);
  }
  return merged;
}

/**
 * A bbox's key is the cell of its centre, so a bbox meeting a box has its centre within the box
 * widened by its half extent: the key alone bounds only bboxes of known size. Stores that prune by
 * key ranges (the ClickHouse form, docs/clickhouse.md) keep a size class with the key (of each
 * element's extent, `extentSortKey`): the first k with max(width, height) / 2 ≤
 * SIZE_CLASS_HALF_EXTENTS[k] (degrees); larger, or no bbox, is class SIZE_CLASS_HALF_EXTENTS.length,
 * which no key range bounds.
 */
export const SIZE_CLASS_HALF_EXTENTS: readonly number[] = [0.005, 0.05, 0.5, 5];

/** The size class of a state's bbox (null: none). */
export function sizeClassOf(bbox: readonly [number, number, number, number] | null): number {
  if (!bbox) return SIZE_CLASS_HALF_EXTENTS.length;
  const half = Math.max(bbox[2] - bbox[0], bbox[3] - bbox[1]) / 2;
  const k = SIZE_CLASS_HALF_EXTENTS.findIndex((e) => half <= e);
  return k < 0 ? SIZE_CLASS_HALF_EXTENTS.length : k;
}

/**
 * The sort key of an element's states in a store that prunes by key ranges: the size class and the
 * key of the element's extent (the union of every state's bbox, `null` when none has one), so that
 * every state of the element has the same key and meets a box only when the extent does. A
 * timeline read (an element's previous state, its states in a period) then takes the same key test
 * as a single state.
 */
export function extentSortKey(extent: readonly [number, number, number, number] | null): { sizeClass: number; key: number } {
  if (!extent) return { sizeClass: SIZE_CLASS_HALF_EXTENTS.length, key: 0 };
  return { sizeClass: sizeClassOf(extent), key: hilbertKey((extent[0] + extent[2]) / 2, (extent[1] + extent[3]) / 2) };
}

/** Widening added to a class's half extent when a box is widened for it (the centre's rounding). */
const CENTRE_MARGIN = 1e-9;

/**
 * Per size class below the last, the key ranges holding the key of every state of that class whose
 * bbox meets `bbox`: the ranges of `bbox` widened by the class's half extent.
 */
export function sizeClassRanges(bbox: readonly [number, number, number, number], maxRanges = 16): KeyRange[][] {
  return SIZE_CLASS_HALF_EXTENTS.map((e) => {
    const w = e + CENTRE_MARGIN;
    return hilbertRanges([bbox[0] - w, bbox[1] - w, bbox[2] + w, bbox[3] + w], maxRanges);
  });
}
