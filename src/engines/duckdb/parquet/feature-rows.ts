/**
 * features.parquet: the states valid at an instant ({at}: valid_from <= at < valid_to) or
 * overlapping a range ({start, end}: valid_to > start AND valid_from < end, the half-open range the
 * contributions use too), that are not deletions, have a geometry that is not a
 * GeometryCollection (non-area relations are collections.parquet's), match the filter and meet
 * the area. Rows stream in table (spatial) order, unsorted.
 */
import { checkAborted } from '../statements.js';
import type { FeaturesExtractionRequest } from '../../../query/v2-requests.js';
import { streamChunkRows as streamRows } from '../chunk-rows.js';
import { outputGeometry } from './geometry-output.js';
import {
  filterSql, isInteger, setGeometry, stateColumnsSql, stateRow, storeBBox, usersJoin, STATE_COLUMN_COUNT,
  type Emit, type RowContext,
} from './rows-common.js';

export function featureSql(ctx: RowContext, request: FeaturesExtractionRequest): string {
  const plan = ctx.plan;
  const time = 'at' in request.time
    ? `st.valid_from <= ${isInteger(request.time.at)} AND st.valid_to > ${isInteger(request.time.at)}`
    : `st.valid_to > ${isInteger(request.time.start)} AND st.valid_from < ${isInteger(request.time.end)}`;
  const withClause = plan.withSql ? `WITH ${plan.withSql}\n` : '';
  return `${withClause}SELECT ${stateColumnsSql('st')}, st.geometry_type::INTEGER, st.geometry, coalesce(${plan.interiorWithSql}, FALSE)
FROM states st ${usersJoin('st')}
WHERE NOT st.deleted AND st.geometry_type NOT IN (0, 7) AND ${time}
  AND ${plan.intersectsSql} AND ${filterSql(ctx, request.filter, 'st')}`;
}

export async function produceFeatures(ctx: RowContext, request: FeaturesExtractionRequest, emit: Emit): Promise<void> {
  const sql = featureSql(ctx, request);
  const n = STATE_COLUMN_COUNT;
  for await (const rows of streamRows(ctx.store, sql, ctx.signal)) {
    for (const r of rows) {
      const bbox = storeBBox(r, 0);
      const g = outputGeometry(ctx.plan, r[n + 1] as Uint8Array, r[n] as number, bbox!, r[n + 2] as boolean, request.clip);
      if (g === null) continue;
      const p = emit(setGeometry(stateRow(r, 0), g, true));
      if (p) await p;
    }
    checkAborted(ctx.signal);
  }
}
