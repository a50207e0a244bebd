/**
 * SQL: a superset test of "the row's element has a state whose bbox meets this box" on the sort key
 * of a store that keeps, on each state, its element's extent class (`extent_class`) and key
 * (`extent_key`: `extentSortKey` of the union of the element's bboxes, src/geometry/hilbert.ts) at
 * the head of its ordering (the ClickHouse form, docs/clickhouse.md), so that the database skips the
 * parts of the table no range reaches by its primary index alone: per class, the key ranges of the
 * box widened by the class's half extent; the last class (large extents, elements without a bbox)
 * whole. True for every state of such an element, so that it bounds the reads of whole timelines
 * as well as those of single states. Pure: text only.
 */
import { SIZE_CLASS_HALF_EXTENTS, sizeClassRanges } from '../../geometry/hilbert.js';
import type { BBox } from '../../geometry/types.js';

/** Key ranges per class: each adds two comparisons; the union over-covers the box a little more when fewer. */
const MAX_RANGES_PER_CLASS = 16;

/** SQL: the key test for rows (columns through `c`) meeting `bbox`. */
export function spatialKeySql(bbox: BBox, c: (name: string) => string): string {
  const classes = sizeClassRanges(bbox, MAX_RANGES_PER_CLASS).map((ranges, k) => {
    if (ranges.length === 0) return '';
    const keys = ranges.map(([a, b]) => (a === b ? `${c('extent_key')} = ${a}` : `(${c('extent_key')} >= ${a} AND ${c('extent_key')} <= ${b})`));
    return `(${c('extent_class')} = ${k} AND (${keys.join(' OR ')}))`;
  });
  return `(${[...classes.filter((s) => s !== ''), `${c('extent_class')} = ${SIZE_CLASS_HALF_EXTENTS.length}`].join(' OR ')})`;
}
