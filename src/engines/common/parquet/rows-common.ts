/**
 * What the record producers of the four files share: the query context, the SQL pieces that read a
 * state's output columns, and their conversion from a row to an ExtractionRecord. Rows are
 * read by name: a SELECT list is built from named expressions (`selectList`) and the same names
 * give each column's place in a row (`columnsAt`), so no producer counts columns.
 */
import type { Filter } from '../../../filter/index.js';
import type { TagSource } from '../../../filter/state.js';
import type { SqlAreaPlan } from '../../sql/area.js';
import { OPEN_END } from '../../../store/schema.js';
import type { BoundaryClipper } from '../boundary-clipper.js';
import type { Pause } from '../../../core/yielding.js';
import type { BBoxStruct, ExtractionRecord, MapEntry } from '../../../query/v2-requests.js';
import type { OutputGeometry } from './geometry-output.js';
import { v2ScopedCollectionFilterSql, v2ScopedFilterSql } from '../scope.js';
import type { ExtractionSql } from './v2-extraction.js';

export interface RowContext {
  /** The database's statements and runner (v2-extraction.ts). */
  db: ExtractionSql;
  /** The request's area, its tests on the rows of `db.alias`. */
  plan: SqlAreaPlan;
  signal?: AbortSignal;
  /** Asked after each row: gives the event loop a turn every 10 ms (src/core/yielding.ts). */
  pause?: Pause;
  /** Clips a chunk's boundary rows, in the geometry pool when they are many or large (absent: each row on the calling thread). */
  clipper?: BoundaryClipper;
}

export const OSM_TYPE_NAME = ['node', 'way', 'relation'] as const;

/**
 * A features or contributions request's filter with the v2 scope (scope.ts): nodes, ways, and
 * multipolygon and boundary relations, none whose every version is untagged.
 */
export function filterSql(ctx: RowContext, filter: Filter, alias: string, tags: TagSource = 'current'): string {
  return v2ScopedFilterSql(filter, (scoped) => memberFilterSql(ctx, scoped, alias, tags), alias);
}

/**
 * A collections request's relations: those version 2 does not count as features, matching the
 * filter, none whose every version is untagged (scope.ts).
 */
export function collectionFilterSql(ctx: RowContext, filter: Filter, alias: string): string {
  return `${ctx.db.collectionRelationSql(alias)} AND ${v2ScopedCollectionFilterSql(filter, memberFilterSql(ctx, filter, alias), alias)}`;
}

/** A filter alone: collection members are listed whether or not they were ever tagged (outer ways usually are not). */
export function memberFilterSql(ctx: RowContext, filter: Filter, alias: string, tags: TagSource = 'current'): string {
  return ctx.db.filterSql(filter, alias, tags);
}

/** The area plan's SQL with its table alias replaced (plans are made for alias `st`). */
export function areaSql(sql: string, alias: string): string {
  return alias === 'st' ? sql : sql.replace(/\bst\./g, `${alias}.`);
}

export function isInteger(t: number): number {
  if (!Number.isSafeInteger(t)) throw new RangeError(`not an integer timestamp: ${t}`);
  return t;
}

/** Where each named column sits in a row whose columns `names` start at index `start`. */
export type ColumnsAt<N extends string> = Readonly<Record<N, number>>;

export function columnsAt<N extends string>(names: readonly N[], start = 0): ColumnsAt<N> {
  const at = {} as Record<N, number>;
  names.forEach((name, i) => (at[name] = start + i));
  return at;
}

/** The SQL of named expressions, in the order of `names` (the order `columnsAt` reads them in). */
export function selectList<N extends string>(names: readonly N[], sql: Readonly<Record<N, string>>): string {
  return names.map((name) => sql[name]).join(', ');
}

/** The columns of a state every file reads (16 values). */
export const STATE_COLUMNS = [
  'type',
  'id',
  'valid_from',
  'valid_to',
  'version',
  'minor_version',
  'edits',
  'user_id',
  'user_name',
  'changeset',
  'tag_keys',
  'tag_values',
  'xmin',
  'ymin',
  'xmax',
  'ymax',
] as const;
export type StateColumn = (typeof STATE_COLUMNS)[number];
export const STATE_COLUMN_COUNT = STATE_COLUMNS.length;

export function pairs(keys: unknown, values: unknown): MapEntry[] {
  const k = keys as string[];
  const v = values as string[];
  const out: MapEntry[] = new Array(k.length);
  for (let i = 0; i < k.length; i++) out[i] = { key: k[i], value: v[i] };
  return out;
}

const MICROS = 1_000_000n;

/** Sets a row's geometry columns (geom, geom_type, bbox) from the output geometry; `clipped` too where the file has it. */
export function setGeometry(row: ExtractionRecord, g: OutputGeometry, withClipped: boolean): ExtractionRecord {
  row.geom = g.wkb;
  row.geom_type = g.geomType;
  row.bbox = g.bbox;
  if (withClipped) row.clipped = g.clipped;
  return row;
}

/** A record's state fields from the state columns at `at` (geometry fields left empty). */
export function stateRecord(r: unknown[], at: ColumnsAt<StateColumn>): ExtractionRecord {
  const validTo = r[at.valid_to] as number;
  return {
    osm_type: OSM_TYPE_NAME[r[at.type] as number],
    osm_id: BigInt(r[at.id] as number),
    edit_timestamp: BigInt(r[at.valid_from] as number) * MICROS,
    valid_to_timestamp: validTo >= OPEN_END ? null : BigInt(validTo) * MICROS,
    version: r[at.version] as number,
    minor_version: r[at.minor_version] as number,
    edits: r[at.edits] as number,
    user_id: r[at.user_id] as number,
    user_name: (r[at.user_name] as string | null) ?? null,
    changeset_id: BigInt(r[at.changeset] as number),
    tags: pairs(r[at.tag_keys], r[at.tag_values]),
    bbox: null,
    geom_type: null,
    geom: null,
  };
}

/** The store's bbox of the state at `at` (null: the state has no geometry). */
export function storeBBox(r: unknown[], at: ColumnsAt<StateColumn>): BBoxStruct | null {
  const xmin = r[at.xmin] as number | null;
  if (xmin === null) return null;
  return { xmin, ymin: r[at.ymin] as number, xmax: r[at.xmax] as number, ymax: r[at.ymax] as number };
}
