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

/**
 * The class no key range bounds, read whole by every area: elements larger than the last half
 * extent, those that never had a bbox, and those with a state without geometry (which a query may
 * place by its history's bbox, src/query/empty-placement.ts: the loader puts them here, so that a
 * placed row's test can name the class and keep the index usable).
 */
export const UNBOUNDED_CLASS = SIZE_CLASS_HALF_EXTENTS.length;

/**
 * Key ranges per class: each adds two comparisons; the union over-covers the box a little more
 * when fewer. 18.16 analyses a statement's expressions once per level of nested subqueries above
 * them, and a contributions statement holds the test four times under five levels: 16 ranges per
 * class took 0.8 s of analysis per statement (4-country store, Andorra bbox: 1.5 s against 0.68 s
 * with no key test, the same rows read), 4 ranges 0.03 s, and cover at most 1.6× the cells 16
 * cover for that box (the smallest class 0.19 against 0.12 deg², the largest 167 against 117).
 */
const MAX_RANGES_PER_CLASS = 4;

/** SQL: the key test for rows (columns through `c`) meeting `bbox`. */
export function spatialKeySql(bbox: BBox, c: (name: string) => string): string {
  const classes = sizeClassRanges(bbox, MAX_RANGES_PER_CLASS).map((ranges, k) => {
    if (ranges.length === 0) return '';
    const keys = ranges.map(([a, b]) => (a === b ? `${c('extent_key')} = ${a}` : `(${c('extent_key')} >= ${a} AND ${c('extent_key')} <= ${b})`));
    return `(${c('extent_class')} = ${k} AND (${keys.join(' OR ')}))`;
  });
  return `(${[...classes.filter((s) => s !== ''), `${c('extent_class')} = ${UNBOUNDED_CLASS}`].join(' OR ')})`;
}
