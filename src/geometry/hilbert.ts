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
  let x = cellOf((lon + 180) / 360);
  let y = cellOf((lat + 90) / 180);
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
