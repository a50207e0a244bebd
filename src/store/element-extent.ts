/**
 * The element's extent (`states.ext_xmin` … `ext_ymax`, schema version 5): the same on every row of
 * an element, the union of the bboxes of all its states. A state that is "in" an area by its bbox
 * lies in its element's extent, so the reads of whole timelines (contributions, users: every kept
 * state of an element with a state in the area) can skip by the extent, which DuckDB's min/max per
 * row group prunes as it prunes the bbox columns (issue 21: the timeline read scanned all states of
 * the store, growing with the store while the area stayed the same).
 *
 * An element without any bbox, or with a visible way or relation state without a geometry (such a
 * state may be placed in an area by its members' history: the engine's EMPTY_GEOMETRY_WHERE,
 * src/engines/duckdb/empty-geometry.ts), gets the whole world, so every area's test keeps it.
 * Pure: no I/O.
 */

/** The extent of an element without one: every area's extent test keeps its rows. */
export const WHOLE_WORLD_EXTENT = [-180, -90, 180, 90] as const;

/**
 * The extent of one element from its states in order: `bboxOf(i)` is state i's bbox ([minX, minY,
 * maxX, maxY], null without a geometry). The import's writer computes it per element
 * (store-writer.ts) and stages it with every row: an aggregate and a join over the staged rows in
 * the finish exceeded the finish's memory limit at 44.7 M states.
 */
export function elementExtent(
  states: readonly { readonly type: number; readonly deleted: boolean }[],
  bboxOf: (i: number) => readonly number[] | null,
): readonly number[] {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i < states.length; i++) {
    const b = bboxOf(i);
    if (b === null) {
      const s = states[i]!;
      if (!s.deleted && s.type > 0) return WHOLE_WORLD_EXTENT;
      continue;
    }
    if (b[0]! < x0) x0 = b[0]!;
    if (b[1]! < y0) y0 = b[1]!;
    if (b[2]! > x1) x1 = b[2]!;
    if (b[3]! > y1) y1 = b[3]!;
  }
  return x0 === Infinity ? WHOLE_WORLD_EXTENT : [x0, y0, x1, y1];
}

/**
 * `elementExtent` in SQL, for an update's rebuilt elements (update-write.ts), whose kept rows widen
 * with the new ones: aggregates (`ext_xmin, ext_ymin, ext_xmax, ext_ymax`) over the rows of one element, for a
 * `GROUP BY type, id`: `col(name)` reads `type`, `deleted`, `xmin`, `ymin`, `xmax`, `ymax` (a bbox
 * column NULL when the state has no geometry).
 */
export function elementExtentAggregatesSql(col: (name: 'type' | 'deleted' | 'xmin' | 'ymin' | 'xmax' | 'ymax') => string = (n) => n): string {
  const placeable = `bool_or(NOT ${col('deleted')} AND ${col('xmin')} IS NULL AND ${col('type')} > 0)`;
  const unbounded = `(${placeable} OR min(${col('xmin')}) IS NULL)`;
  const [x0, y0, x1, y1] = WHOLE_WORLD_EXTENT.map((v) => `${v}::DOUBLE`);
  return [
    `CASE WHEN ${unbounded} THEN ${x0} ELSE min(${col('xmin')}) END AS ext_xmin`,
    `CASE WHEN ${unbounded} THEN ${y0} ELSE min(${col('ymin')}) END AS ext_ymin`,
    `CASE WHEN ${unbounded} THEN ${x1} ELSE max(${col('xmax')}) END AS ext_xmax`,
    `CASE WHEN ${unbounded} THEN ${y1} ELSE max(${col('ymax')}) END AS ext_ymax`,
  ].join(', ');
}
