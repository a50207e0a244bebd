/**
 * What the row producers of the four files share: the query context, the SQL pieces that read a
 * state's output columns, and their conversion from a DuckDB row to a ParquetRow.
 */
import { compileSql, duckdbDialect, type Filter } from '../../../filter/index.js';
import type { TagSource } from '../../../filter/state.js';
import type { AreaPlan } from '../../../query/area-plan.js';
import type { Store } from '../../../store/open-store.js';
import type { StoreTagDictionary } from '../../../store/store-tag-dictionary.js';
import { OPEN_END } from '../../../store/schema.js';
import type { BBoxStruct, MapEntry, ParquetRow } from './geoparquet-schema.js';
import type { OutputGeometry } from './geometry-output.js';
import { v2CollectionRelationSql, v2ScopedCollectionFilterSql, v2ScopedFilterSql } from '../scope.js';

export interface RowContext {
  store: Store;
  dictionary: StoreTagDictionary;
  plan: AreaPlan;
  signal?: AbortSignal;
}

/** Receives a row; a returned promise (a full row group being written) must be awaited before the next. */
export type Emit = (row: ParquetRow) => Promise<void> | undefined;

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
  return `${v2CollectionRelationSql(alias)} AND ${v2ScopedCollectionFilterSql(filter, memberFilterSql(ctx, filter, alias), alias)}`;
}

/** A filter alone: collection members are listed whether or not they were ever tagged (outer ways usually are not). */
export function memberFilterSql(ctx: RowContext, filter: Filter, alias: string, tags: TagSource = 'current'): string {
  return compileSql(filter, { dialect: duckdbDialect, dictionary: ctx.dictionary, tableAlias: alias, tags }).sql;
}

/** The area plan's SQL with its table alias replaced (plans are made for alias `st`). */
export function areaSql(sql: string, alias: string): string {
  return alias === 'st' ? sql : sql.replace(/\bst\./g, `${alias}.`);
}

export function isInteger(t: number): number {
  if (!Number.isSafeInteger(t)) throw new RangeError(`not an integer timestamp: ${t}`);
  return t;
}

/**
 * The columns of a state `a` every file reads, in STATE_COLUMN order (16 values). Needs
 * `LEFT JOIN users u_a ON u_a.id = a.user_id`.
 */
export function stateColumnsSql(a: string): string {
  return `${a}.type::INTEGER, ${a}.id::DOUBLE, ${a}.valid_from::DOUBLE, ${a}.valid_to::DOUBLE, ${a}.version, ${a}.minor_version,
  ${a}.edits, ${a}.user_id, u_${a}.name, ${a}.changeset::DOUBLE, map_keys(${a}.tags), map_values(${a}.tags),
  ${a}.xmin, ${a}.ymin, ${a}.xmax, ${a}.ymax`;
}
export const STATE_COLUMN_COUNT = 16;

export function usersJoin(a: string): string {
  return `LEFT JOIN users u_${a} ON u_${a}.id = ${a}.user_id`;
}

export function pairs(keys: unknown, values: unknown): MapEntry[] {
  const k = keys as string[];
  const v = values as string[];
  const out: MapEntry[] = new Array(k.length);
  for (let i = 0; i < k.length; i++) out[i] = { key: k[i], value: v[i] };
  return out;
}

const MICROS = 1_000_000n;

/** Sets a row's geometry columns (geom, geom_type, bbox) from the output geometry; `clipped` too where the file has it. */
export function setGeometry(row: ParquetRow, g: OutputGeometry, withClipped: boolean): ParquetRow {
  row.geom = g.wkb;
  row.geom_type = g.geomType;
  row.bbox = g.bbox;
  if (withClipped) row.clipped = g.clipped;
  return row;
}

/** A ParquetRow's state fields from the 16 state columns starting at `o` (geometry fields left empty). */
export function stateRow(r: unknown[], o: number): ParquetRow {
  const validTo = r[o + 3] as number;
  return {
    osm_type: OSM_TYPE_NAME[r[o] as number],
    osm_id: BigInt(r[o + 1] as number),
    edit_timestamp: BigInt(r[o + 2] as number) * MICROS,
    valid_to_timestamp: validTo >= OPEN_END ? null : BigInt(validTo) * MICROS,
    version: r[o + 4] as number,
    minor_version: r[o + 5] as number,
    edits: r[o + 6] as number,
    user_id: r[o + 7] as number,
    user_name: (r[o + 8] as string | null) ?? null,
    changeset_id: BigInt(r[o + 9] as number),
    tags: pairs(r[o + 10], r[o + 11]),
    bbox: null,
    geom_type: null,
    geom: null,
  };
}

export function storeBBox(r: unknown[], o: number): BBoxStruct | null {
  const xmin = r[o + 12] as number | null;
  if (xmin === null) return null;
  return { xmin, ymin: r[o + 13] as number, xmax: r[o + 14] as number, ymax: r[o + 15] as number };
}
