/**
 * features.parquet: the states valid at an instant ({at}: valid_from <= at < valid_to) or
 * overlapping a range ({start, end}: valid_to > start AND valid_from < end, the half-open range the
 * contributions use too), that are not deletions, have a geometry that is not a
 * GeometryCollection (non-area relations are collections.parquet's), match the filter and meet
 * the area. Rows stream in table (spatial) order, unsorted.
 */
import { checkAborted } from '../statements.js';
import type { ExtractionRecord, FeaturesExtractionRequest } from '../../../query/v2-requests.js';
import { clipOutcomes, outputGeometry } from './geometry-output.js';
import { columnsAt, setGeometry, stateRecord, storeBBox, STATE_COLUMNS, STATE_COLUMN_COUNT, type RowContext } from './rows-common.js';

/** After the state's columns: its geometry and whether it lies inside the area. */
export const FEATURE_COLUMNS = ['geometry_type', 'geometry', 'interior'] as const;
const STATE = columnsAt(STATE_COLUMNS);
const AT = columnsAt(FEATURE_COLUMNS, STATE_COLUMN_COUNT);

/** The records, one batch per batch of rows (DuckDB: a chunk). */
export async function* featureRecords(ctx: RowContext, request: FeaturesExtractionRequest): AsyncGenerator<ExtractionRecord[], void, undefined> {
  for await (const rows of ctx.db.rows(ctx.db.features(ctx, request), ctx.signal)) {
    const batch: ExtractionRecord[] = [];
    const outcomes = await clipOutcomes(ctx.clipper, rows, AT.geometry, AT.interior, ctx.signal);
    for (const r of rows) {
      const turn = ctx.pause?.();
      if (turn) {
        await turn;
        checkAborted(ctx.signal);
      }
      const g = outputGeometry(
        ctx.plan,
        r[AT.geometry] as Uint8Array,
        r[AT.geometry_type] as number,
        storeBBox(r, STATE)!,
        r[AT.interior] as boolean,
        request.clip,
        false,
        outcomes,
      );
      if (g === null) continue;
      batch.push(setGeometry(stateRecord(r, STATE), g, true));
    }
    checkAborted(ctx.signal);
    if (batch.length > 0) yield batch;
  }
}
