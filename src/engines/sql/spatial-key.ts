/**
 * SQL: a superset test of "the row's bbox meets this box" on the sort key of a store that keeps
 * each state's size class (`size_class`) and key (`spatial_key`, src/geometry/hilbert.ts) at the head
 * of its ordering (the ClickHouse form, docs/clickhouse.md), so that the database skips the parts of
 * the table no range reaches by its primary index alone: per size class, the key ranges of the box
 * widened by the class's half extent; the last class (large states and states without a bbox) whole.
 * Pure: text only.
 */
import { SIZE_CLASS_HALF_EXTENTS, sizeClassRanges } from '../../geometry/hilbert.js';
import type { BBox } from '../../geometry/types.js';

/** Key ranges per class: each adds two comparisons; the union over-covers the box a little more when fewer. */
const MAX_RANGES_PER_CLASS = 16;

/** SQL: the key test for rows (columns through `c`) meeting `bbox`. */
export function spatialKeySql(bbox: BBox, c: (name: string) => string): string {
  const classes = sizeClassRanges(bbox, MAX_RANGES_PER_CLASS).map((ranges, k) => {
    if (ranges.length === 0) return '';
    const keys = ranges.map(([a, b]) => (a === b ? `${c('spatial_key')} = ${a}` : `(${c('spatial_key')} >= ${a} AND ${c('spatial_key')} <= ${b})`));
    return `(${c('size_class')} = ${k} AND (${keys.join(' OR ')}))`;
  });
  return `(${[...classes.filter((s) => s !== ''), `${c('size_class')} = ${SIZE_CLASS_HALF_EXTENTS.length}`].join(' OR ')})`;
}

/** SQL (DuckDB, at export): a state's size class from its bbox columns, as `sizeClassOf` computes it. */
export function sizeClassSql(c: (name: string) => string = (n) => n): string {
  const half = `greatest(${c('xmax')} - ${c('xmin')}, ${c('ymax')} - ${c('ymin')}) / 2`;
  const steps = SIZE_CLASS_HALF_EXTENTS.map((e, k) => `WHEN ${half} <= ${e.toExponential(17)} THEN ${k}`).join(' ');
  return `CASE WHEN ${c('xmin')} IS NULL THEN ${SIZE_CLASS_HALF_EXTENTS.length} ${steps} ELSE ${SIZE_CLASS_HALF_EXTENTS.length} END`;
}
