/**
 * contributions.parquet: every kept state (not collapsed into a later state of the same
 * changeset) with start <= valid_from < end whose geometry meets the area and whose tags or
 * previous tags match the filter (the reference tests `tags` or `tags_before`), deletions
 * included (they carry the last visible geometry and, as tags, the tags before the deletion).
 * Never clipped. `changeset_tags` are the tags of the state's changeset from the store's `changesets`
 * table (loaded from a changeset dump); an empty map when the store does not have that changeset.
 */
import { checkAborted } from '../statements.js';
import type { ContributionsExtractionRequest, ExtractionRecord } from '../../../query/v2-requests.js';
import { clipOutcomes, outputGeometry } from './geometry-output.js';
import { columnsAt, pairs, setGeometry, stateRecord, storeBBox, STATE_COLUMNS, STATE_COLUMN_COUNT, type RowContext } from './rows-common.js';

/** After the state's columns: its geometry, the change flags, the tags before and the changeset's tags. */
export const CONTRIBUTION_COLUMNS = [
  'geometry_type',
  'geometry',
  'interior',
  'deleted',
  'is_creation',
  'tag_change',
  'geometry_change',
  'tags_before_keys',
  'tags_before_values',
  'changeset_tag_keys',
  'changeset_tag_values',
] as const;
const STATE = columnsAt(STATE_COLUMNS);
const AT = columnsAt(CONTRIBUTION_COLUMNS, STATE_COLUMN_COUNT);

/** The reference's contribution types from the store's change flags. */
export function contributionType(deleted: boolean, creation: boolean, tagChange: boolean, geometryChange: boolean): string {
  if (deleted) return 'DELETION';
  if (creation) return 'CREATION';
  if (tagChange && geometryChange) return 'TAG_GEOMETRY';
  if (tagChange) return 'TAG';
  if (geometryChange) return 'GEOMETRY';
  return '';
}

/** The records, one batch per batch of rows (DuckDB: a chunk). */
export async function* contributionRecords(ctx: RowContext, request: ContributionsExtractionRequest): AsyncGenerator<ExtractionRecord[], void, undefined> {
  for await (const rows of ctx.db.rows(ctx.db.contributions(ctx, request), ctx.signal)) {
    const batch: ExtractionRecord[] = [];
    const outcomes = await clipOutcomes(ctx.clipper, rows, AT.geometry, AT.interior, ctx.signal);
    for (const r of rows) {
      const turn = ctx.pause?.();
      if (turn) {
        await turn;
        checkAborted(ctx.signal);
      }
      const bbox = storeBBox(r, STATE);
      if (bbox === null) continue;
      const g = outputGeometry(ctx.plan, r[AT.geometry] as Uint8Array, r[AT.geometry_type] as number, bbox, r[AT.interior] as boolean, false, false, outcomes);
      if (g === null) continue;
      const deleted = r[AT.deleted] as boolean;
      const row = stateRecord(r, STATE);
      const before = pairs(r[AT.tags_before_keys], r[AT.tags_before_values]);
      row.changeset_tags = pairs(r[AT.changeset_tag_keys], r[AT.changeset_tag_values]);
      row.contribution_type = contributionType(deleted, r[AT.is_creation] as boolean, r[AT.tag_change] as boolean, r[AT.geometry_change] as boolean);
      if (deleted) row.tags = before;
      row.tags_before = before;
      batch.push(setGeometry(row, g, false));
    }
    checkAborted(ctx.signal);
    if (batch.length > 0) yield batch;
  }
}
