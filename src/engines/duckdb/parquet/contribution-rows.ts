/**
 * contributions.parquet: every kept state (not collapsed into a later state of the same
 * changeset) with start <= valid_from < end whose geometry meets the area and whose tags or
 * previous tags match the filter (the reference tests `tags` or `tags_before`), deletions
 * included (they carry the last visible geometry and, as tags, the tags before the deletion).
 * Never clipped. `changeset_tags` are the tags of the state's changeset from the store's `changesets`
 * table (loaded from a changeset dump); an empty map when the store does not have that changeset.
 */
import { checkAborted } from '../statements.js';
import type { ContributionsExtractionRequest } from '../../../query/v2-requests.js';
import { streamChunkRows as streamRows } from '../chunk-rows.js';
import { outputGeometry } from './geometry-output.js';
import {
  filterSql, isInteger, pairs, setGeometry, stateColumnsSql, stateRow, storeBBox, usersJoin, STATE_COLUMN_COUNT,
  type Emit, type RowContext,
} from './rows-common.js';

/** The reference's contribution types from the store's change flags. */
export function contributionType(deleted: boolean, creation: boolean, tagChange: boolean, geometryChange: boolean): string {
  if (deleted) return 'DELETION';
  if (creation) return 'CREATION';
  if (tagChange && geometryChange) return 'TAG_GEOMETRY';
  if (tagChange) return 'TAG';
  if (geometryChange) return 'GEOMETRY';
  return '';
}

export function contributionSql(ctx: RowContext, request: ContributionsExtractionRequest): string {
  const plan = ctx.plan;
  const { start, end } = request.time;
  const withClause = plan.withSql ? `WITH ${plan.withSql}\n` : '';
  return `${withClause}SELECT ${stateColumnsSql('st')}, st.geometry_type::INTEGER, st.geometry, coalesce(${plan.interiorWithSql}, FALSE),
  st.deleted, st.is_creation, st.tag_change, st.geometry_change, map_keys(st.tags_before), map_values(st.tags_before),
  coalesce(map_keys(cs.tags), []), coalesce(map_values(cs.tags), [])
FROM states st ${usersJoin('st')} LEFT JOIN changesets cs ON cs.id = st.changeset
WHERE NOT st.collapsed AND st.valid_from >= ${isInteger(start)} AND st.valid_from < ${isInteger(end)}
  AND ${plan.intersectsSql} AND ${filterSql(ctx, request.filter, 'st', 'currentOrBefore')}`;
}

export async function produceContributions(ctx: RowContext, request: ContributionsExtractionRequest, emit: Emit): Promise<void> {
  const sql = contributionSql(ctx, request);
  const n = STATE_COLUMN_COUNT;
  for await (const rows of streamRows(ctx.store, sql, ctx.signal)) {
    for (const r of rows) {
      const bbox = storeBBox(r, 0);
      if (bbox === null) continue;
      const g = outputGeometry(ctx.plan, r[n + 1] as Uint8Array, r[n] as number, bbox, r[n + 2] as boolean, false);
      if (g === null) continue;
      const deleted = r[n + 3] as boolean;
      const row = stateRow(r, 0);
      const before = pairs(r[n + 7], r[n + 8]);
      row.changeset_tags = pairs(r[n + 9], r[n + 10]);
      row.contribution_type = contributionType(deleted, r[n + 4] as boolean, r[n + 5] as boolean, r[n + 6] as boolean);
      if (deleted) row.tags = before;
      row.tags_before = before;
      const p = emit(setGeometry(row, g, false));
      if (p) await p;
    }
    checkAborted(ctx.signal);
  }
}
