/**
 * The DuckDB tests of an area plan (src/query/area-plan.ts): which rows of `states` meet the area's
 * bbox, and which lie inside the area (interior: their measures are exact without clipping). The
 * plan is engine-neutral; this file writes it as SQL on the columns `geometry_type`, `xmin`,
 * `ymin`, `xmax`, `ymax` of the row alias given.
 */
import { type AreaPlan, type GridCover, planArea } from '../../query/area-plan.js';
import type { AreaOfInterest } from '../../query/model.js';
import type { BBox } from '../../geometry/types.js';
import { DUCKDB_FLAVOR, type SqlFlavor } from './flavor.js';

export interface SqlAreaPlan extends AreaPlan {
  /** SQL: the row's bbox meets the area's bbox (and the row has a geometry). */
  intersectsSql: string;
  /**
   * The same test without the index's key test (`elementKeySql`), which only helps a database
   * skip and costs each row it reads its comparisons: for a value computed per row (a fact such as
   * "hit"), not for a WHERE. The same as `intersectsSql` where there is no key test.
   */
  intersectsRowSql: string;
  /** SQL: the row's bbox lies inside the area (its geometry is unchanged by clipping). */
  interiorSql: string;
  /**
   * The same test as `interiorSql`, reading its constants from the common table expressions
   * `withSql` (`name AS (…)`, comma-separated; '' when none), which the statement must put in its
   * WITH clause. DuckDB copies a list literal per row it is indexed on; the grid's summed-area
   * table (4,225 numbers) read from a one-row CTE is a constant instead (bench's border polygon:
   * 75 → 25 ms of SQL). `interiorSql` stays self-contained for statements without the CTE.
   */
  interiorWithSql: string;
  withSql: string;
  /**
   * SQL, where the store's sort key bounds elements (`SqlFlavor.spatialKeyTest`, ClickHouse) or
   * the store has each element's extent (`SqlFlavor.elementExtentTest`, DuckDB): true for every
   * state of an element with a state whose bbox meets the area's bbox (and for others: a superset
   * test for the index to skip by). Bounds the reads of whole timelines. Absent: no such test.
   */
  elementKeySql?: string;
}

/** The name of the CTE holding the grid's summed-area table (see `SqlAreaPlan.withSql`). */
const SAT_CTE = 'area_grid_sat';

/** Finite-double SQL literal (exponent form, so DuckDB reads a DOUBLE). */
export function sqlDouble(x: number): string {
  if (!Number.isFinite(x)) throw new RangeError(`not a finite number: ${x}`);
  return x.toExponential(17);
}

/** Plan the area (src/query/area-plan.ts) and write its tests on the rows of `alias` ('' for none). */
export function planAreaSql(area: AreaOfInterest, alias = '', flavor: SqlFlavor = DUCKDB_FLAVOR): SqlAreaPlan {
  return areaSql(planArea(area), alias, flavor);
}

/** SQL: the row of `alias` ('' for none) has a geometry and its bbox meets `bbox`. */
export function bboxIntersectsSql(bbox: BBox, alias = ''): string {
  const c = (name: string) => (alias ? `${alias}.${name}` : name);
  const [x0, y0, x1, y1] = bbox.map(sqlDouble);
  return `(${c('geometry_type')} <> 0 AND ${c('xmax')} >= ${x0} AND ${c('xmin')} <= ${x1} AND ${c('ymax')} >= ${y0} AND ${c('ymin')} <= ${y1})`;
}

/** The plan with its SQL tests on the rows of `alias`. */
export function areaSql(plan: AreaPlan, alias = '', flavor: SqlFlavor = DUCKDB_FLAVOR): SqlAreaPlan {
  const c = (name: string) => (alias ? `${alias}.${name}` : name);
  const [x0, y0, x1, y1] = plan.bbox.map(sqlDouble);
  const bboxTest = bboxIntersectsSql(plan.bbox, alias);
  const keyTest = flavor.spatialKeyTest && !plan.wholeWorld ? flavor.spatialKeyTest(plan.bbox, c) : undefined;
  const extentTest = flavor.elementExtentTest && !plan.wholeWorld ? flavor.elementExtentTest(plan.bbox, c) : undefined;
  const elementKey = keyTest ?? extentTest;
  const intersects = keyTest ? `(${keyTest} AND ${bboxTest})` : bboxTest;
  const within = `(${c('xmin')} >= ${x0} AND ${c('xmax')} <= ${x1} AND ${c('ymin')} >= ${y0} AND ${c('ymax')} <= ${y1})`;
  if (plan.wholeWorld) {
    // A row without any geometry (a relation of relations, a way or relation whose members are all
    // missing) is in an area covering the whole world, unclipped (AreaPlan.wholeWorld).
    const empty = `${c('xmin')} IS NULL`;
    const interior = `(${empty} OR ${within})`;
    return {
      ...plan,
      intersectsSql: `(${empty} OR ${intersects})`,
      intersectsRowSql: `(${empty} OR ${bboxTest})`,
      interiorSql: interior,
      interiorWithSql: interior,
      withSql: '',
    };
  }
  const keyed = { intersectsRowSql: bboxTest, ...(elementKey ? { elementKeySql: elementKey } : {}) };
  if (!plan.grid) return { ...plan, ...keyed, intersectsSql: intersects, interiorSql: within, interiorWithSql: within, withSql: '' };
  const grid = plan.grid;
  if (!grid.anyFull) return { ...plan, ...keyed, intersectsSql: intersects, interiorSql: flavor.false, interiorWithSql: flavor.false, withSql: '' };
  const satList = `[${Array.from(grid.sat).join(',')}]`;
  const constant = flavor.constantList(SAT_CTE, satList);
  return {
    ...plan,
    ...keyed,
    intersectsSql: intersects,
    interiorSql: `(${within} AND ${gridSql(grid, plan.bbox, c, satList, flavor)})`,
    interiorWithSql: `(${within} AND ${gridSql(grid, plan.bbox, c, constant.ref, flavor)})`,
    withSql: constant.withSql,
  };
}

/** SQL: the cells the row's bbox spans are all full (the row's bbox is already known to lie in the area's bbox). */
function gridSql(g: GridCover, bbox: BBox, c: (name: string) => string, list: string, flavor: SqlFlavor): string {
  const ix = (col: string, origin: number, step: number, count: number) =>
    `least(${count - 1}, greatest(0, ${flavor.int(`floor((${c(col)} - ${sqlDouble(origin)}) / ${sqlDouble(step)})`)}))`;
  const cx0 = ix('xmin', bbox[0], g.dx, g.nx);
  const cx1 = ix('xmax', bbox[0], g.dx, g.nx);
  const cy0 = ix('ymin', bbox[1], g.dy, g.ny);
  const cy1 = ix('ymax', bbox[1], g.dy, g.ny);
  const w = g.nx + 1;
  // sat index (1-based list): row * w + col + 1
  const at = (row: string, col: string) => `${list}[(${row}) * ${w} + (${col}) + 1]`;
  return `(${at(`${cy1} + 1`, `${cx1} + 1`)} - ${at(cy0, `${cx1} + 1`)} - ${at(`${cy1} + 1`, cx0)} + ${at(cy0, cx0)} = 0)`;
}
