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
 * the finish exceeded the finish's memory limit at 44.7 M states. An update computes it the same
 * way for every element it rebuilds (update-write.ts), over all the element's states.
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
 * SQL over a row's extent columns (`prefix` + `ext_xmin` …): the element's extent is the whole
 * world. The import's finish writes such rows after all others: spread in their own spatial order
 * they widened the extent min/max of almost every row group (×40: 296 of 365 row groups met
 * Andorra's box only because of them), so the extent test skipped almost none; last, they are a
 * few row groups that every query with a bbox reads. When one sort pass holds every staged row, the
 * same INSERT sorts them last (this test as the first sort key, finalize-sql.ts). With several
 * passes a second INSERT writes them unsorted: the ×40 finish sorting them with the last range (by
 * an ORDER BY expression, or by an offset on the staged spatial key) ran out of its memory both
 * times, as these rows hold a fifth of the geometry bytes (big relations).
 */
export function wholeWorldExtentSql(prefix = ''): string {
  return WHOLE_WORLD_EXTENT.map((v, i) => `${prefix}${['ext_xmin', 'ext_ymin', 'ext_xmax', 'ext_ymax'][i]} = ${v}`).join(' AND ');
}
