/**
 * The boundary rows of an engine-side GeoParquet writer (the database writes the interior rows
 * itself): each row's clipped geometry, computed by the same kernel and rules as the records
 * (geometry-output.ts `outputGeometry`), for the database to put in the row's place.
 */
import { checkAborted } from '../statements.js';
import type { BBoxStruct } from '../../../query/v2-requests.js';
import { clipOutcomes, outputGeometry } from './geometry-output.js';
import type { RowContext } from './rows-common.js';

/** A boundary row that meets the area: `geom` null keeps the stored geometry (not clipped, or the clip changed nothing). */
export interface ClippedBoundaryRow {
  rid: number;
  geom: Uint8Array | null;
  geomType: string | null;
  bbox: BBoxStruct | null;
  clipped: boolean;
}

/** The columns of a boundary row, in order. */
export const BOUNDARY_COLUMNS = ['rid', 'geometry_type', 'geometry', 'xmin', 'ymin', 'xmax', 'ymax'] as const;

/** The rows of a batch that meet the area, with their clipped geometries (`clip` false: only the test). */
export async function clipBoundaryRows(ctx: RowContext, rows: readonly unknown[][], clip: boolean): Promise<ClippedBoundaryRow[]> {
  // No interior column (index past the row): every row is a boundary row.
  const outcomes = await clipOutcomes(ctx.clipper, rows, 2, BOUNDARY_COLUMNS.length, ctx.signal);
  const out: ClippedBoundaryRow[] = [];
  for (const r of rows) {
    const turn = ctx.pause?.();
    if (turn) {
      await turn;
      checkAborted(ctx.signal);
    }
    const bbox = { xmin: r[3] as number, ymin: r[4] as number, xmax: r[5] as number, ymax: r[6] as number };
    const g = outputGeometry(ctx.plan, r[2] as Uint8Array, r[1] as number, bbox, false, clip, false, outcomes);
    if (g === null) continue;
    const rid = Number(r[0]);
    out.push(
      g.clipped ? { rid, geom: g.wkb, geomType: g.geomType, bbox: g.bbox, clipped: true } : { rid, geom: null, geomType: null, bbox: null, clipped: false },
    );
  }
  return out;
}
