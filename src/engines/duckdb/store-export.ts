/**
 * The rows of a store's tables for another engine's loader (`maphist clickhouse load`): each table's
 * columns by name, the tag maps as parallel key and value lists (`tag_keys`, `tag_values`,
 * `…_before`), a state's `rowid` as `rid`, streamed chunk by chunk in the table's order.
 */
import type { Store } from '../../store/open-store.js';
import { chunkRows } from './chunk-rows.js';
import { readRecords, streamRows } from './statements.js';
import { statement } from '../sql/statement.js';
import { EMPTY_GEOMETRY_STATES_SQL, EMPTY_GEOMETRY_WHERE } from './empty-geometry.js';
import { extentSortKey } from '../../geometry/hilbert.js';

/** An element's kept (not collapsed) states in time order: the window of `p_rid` and `run` (the DuckDB engine's `w`, sql/aggregation.ts). */
const KEPT_TIMELINE = '(PARTITION BY type, id, collapsed ORDER BY valid_from, version, minor_version)';

/**
 * Tables that are queries: their rows (empty-geometry.ts), with the state's time and minor version
 * (with type, id and version: the state itself, which a partial reload finds again by them).
 */
const QUERIES: Record<string, string> = {
  empty_states: `SELECT e.*, s.minor_version, s.valid_from FROM (${EMPTY_GEOMETRY_STATES_SQL}) e JOIN states s ON s.rowid = e.rowid::BIGINT`,
};

/** An element's states, all of them. */
const ELEMENT = '(PARTITION BY type, id)';

/**
 * The element's extent, the union of its states' bboxes (NULL when none has one), and whether it
 * has a state without geometry that a query may place by its history's bbox (empty-geometry.ts):
 * exported in place of `extent_class` and `extent_key`, which are computed from them row by row
 * (`extentSortKey`, the kernel's Hilbert key, which DuckDB has not; such an element has no extent
 * for the key, so that it is in the class every area reads whole: spatial-key.ts `UNBOUNDED_CLASS`).
 */
const EXTENT = ['ext_xmin', 'ext_ymin', 'ext_xmax', 'ext_ymax', 'ext_placeable'] as const;
const FROM_EXTENT: ReadonlySet<string> = new Set(['extent_class', 'extent_key']);

/** The states' columns computed by window functions over an element's states. */
const WINDOWED: ReadonlySet<string> = new Set(['p_rid', 'run', 'version_changeset', ...EXTENT]);

/** Columns that are not stored as such: their DuckDB expression. */
const DERIVED: Record<string, Record<string, string>> = {
  states: {
    rid: 'rowid + $BASE',
    ext_xmin: `min(xmin) OVER ${ELEMENT}`,
    ext_ymin: `min(ymin) OVER ${ELEMENT}`,
    ext_xmax: `max(xmax) OVER ${ELEMENT}`,
    ext_ymax: `max(ymax) OVER ${ELEMENT}`,
    ext_placeable: `bool_or(${EMPTY_GEOMETRY_WHERE}) OVER ${ELEMENT}`,
    tag_keys: 'map_keys(tags)',
    tag_values: 'map_values(tags)',
    tag_keys_before: 'map_keys(tags_before)',
    tag_values_before: 'map_values(tags_before)',
    p_rid: `CASE WHEN collapsed THEN -1 ELSE coalesce(lag(rowid) OVER ${KEPT_TIMELINE} + $BASE, -1) END`,
    run: `CASE WHEN collapsed THEN 0 ELSE sum((deleted OR is_creation OR geometry_change)::INTEGER) OVER (${KEPT_TIMELINE.slice(1, -1)} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) END`,
    version_changeset: 'first_value(changeset) OVER (PARTITION BY type, id, version ORDER BY minor_version)',
  },
  empty_states: {},
  changesets: { tag_keys: 'map_keys(tags)', tag_values: 'map_values(tags)' },
  relation_members: {},
  tag_keys: {},
  tag_values: {},
  users: {},
  meta: {},
};

function tableOf(table: string): Record<string, string> {
  const derived = DERIVED[table];
  if (derived === undefined) throw new RangeError(`not an exported table: ${table}`);
  return derived;
}

const from = (table: string) => (QUERIES[table] ? `(${QUERIES[table]})` : table);

/**
 * The columns to select for the requested ones (`extent_class` and `extent_key` replaced by the
 * `EXTENT` columns at the end), and how a selected row becomes a requested one.
 */
function extentColumns(columns: readonly string[]): { select: readonly string[]; row?: (r: unknown[]) => unknown[] } {
  if (!columns.some((c) => FROM_EXTENT.has(c))) return { select: columns };
  const select = [...columns.filter((c) => !FROM_EXTENT.has(c)), ...EXTENT];
  const at = select.length - EXTENT.length;
  const source = columns.map((c) => select.indexOf(c));
  return {
    select,
    row(r) {
      const x0 = r[at];
      const extent =
        x0 === null || x0 === undefined || r[at + 4] === true ? null : ([Number(x0), Number(r[at + 1]), Number(r[at + 2]), Number(r[at + 3])] as const);
      const { sizeClass, key } = extentSortKey(extent);
      return columns.map((c, i) => (c === 'extent_class' ? sizeClass : c === 'extent_key' ? key : r[source[i]!]));
    },
  };
}

export interface StoreExport {
  count(table: string): Promise<number>;
  rows(table: string, columns: readonly string[]): AsyncIterable<unknown[][]>;
  /** The elements the updates numbered above `since` touched (`touched_elements`, docs/store.md): [type, id]. */
  touched(since: number): Promise<(readonly [number, number])[]>;
}

/** Which rows: every row (a load), or those of the elements the updates after `since` touched (a sync). */
export interface ExportScope {
  /** Only the elements in `touched_elements` with `update_no > since` (states by element, relation_members by relation). */
  touchedSince?: number;
  /** Added to every state's `rid` and `p_rid` (a sync's new rows must not meet the rids already loaded). */
  ridBase?: number;
}

/** The tables a sync reloads only in part; the others it reloads whole. */
export const PER_ELEMENT_TABLES: ReadonlySet<string> = new Set(['states', 'relation_members']);

export function storeExport(store: Store, signal?: AbortSignal, scope: ExportScope = {}): StoreExport {
  const base = scope.ridBase ?? 0;
  if (!Number.isSafeInteger(base) || base < 0) throw new RangeError(`not a rid base: ${base}`);
  const since = scope.touchedSince;
  if (since !== undefined && !Number.isSafeInteger(since)) throw new RangeError(`not an update number: ${since}`);
  const where = (table: string) => {
    if (since === undefined || !PER_ELEMENT_TABLES.has(table)) return '';
    const touched = `SELECT type, id FROM touched_elements WHERE update_no > ${since}`;
    return table === 'states' ? ` WHERE (type, id) IN (${touched})` : ` WHERE relation_id IN (SELECT id FROM (${touched}) WHERE type = 2)`;
  };
  /**
   * Every state, its window columns computed first into a narrow temporary table in row order and
   * joined by position: a window over the whole table carries every column of every state through
   * its sort (blobs and tag lists: at ×40, 45 M states, beyond DuckDB's memory limit, which it could
   * not spill), the narrow one only the keys and the results. The same connection holds both (a
   * temporary table is the connection's); the first window column checks the alignment by rowid.
   */
  function wholeStates(columns: readonly string[], windowed: readonly string[]): AsyncGenerator<unknown[][], void, undefined> {
    const derived = DERIVED.states!;
    const windows = `CREATE TEMP TABLE export_windows AS SELECT rowid AS r, ${windowed.map((c) => `${derived[c]!.replaceAll('$BASE', String(base))} AS ${c}`).join(', ')} FROM states ORDER BY r`;
    const select = columns.map((c) => {
      if (c === windowed[0]) return `CASE WHEN w.r = s.rowid THEN w.${c} ELSE error('export: the window columns lost their rows') END AS ${c}`;
      if (WINDOWED.has(c)) return `w.${c}`;
      return derived[c] ? `${derived[c].replaceAll('rowid', 's.rowid').replaceAll('$BASE', String(base))} AS ${c}` : `s.${c}`;
    });
    return streamRows(store, `SELECT ${select.join(', ')} FROM states s POSITIONAL JOIN export_windows w`, { signal, setup: [windows] }, chunkRows);
  }

  return {
    async count(table) {
      tableOf(table);
      const [row] = await readRecords(store, statement<{ n: number }>(`SELECT count(*)::DOUBLE AS n FROM ${from(table)}${where(table)}`, ['n']), signal);
      return row.n;
    },
    rows(table, columns) {
      const derived = tableOf(table);
      for (const c of columns) if (!/^[a-z_][a-z_0-9]*$/.test(c)) throw new RangeError(`not a column name: ${c}`);
      const extent = table === 'states' ? extentColumns(columns) : { select: columns };
      const select = extent.select.map((c) => (derived[c] ? `${derived[c].replaceAll('$BASE', String(base))} AS ${c}` : c));
      const windowed = extent.select.filter((c) => WINDOWED.has(c));
      // The windows see whole elements: a sync selects whole elements (few).
      const rows =
        table === 'states' && since === undefined && windowed.length > 0
          ? wholeStates(extent.select, windowed)
          : streamRows(store, `SELECT ${select.join(', ')} FROM ${from(table)}${where(table)}`, { signal }, chunkRows);
      return extent.row ? mapRows(rows, extent.row) : rows;
    },
    async touched(after) {
      if (!Number.isSafeInteger(after)) throw new RangeError(`not an update number: ${after}`);
      const st = statement<{ type: number; id: number }>(
        `SELECT DISTINCT type::INTEGER AS type, id::DOUBLE AS id FROM touched_elements WHERE update_no > ${after}`,
        ['type', 'id'],
      );
      return (await readRecords(store, st, signal)).map((r) => [r.type, r.id] as const);
    },
  };
}

async function* mapRows(chunks: AsyncIterable<unknown[][]>, row: (r: unknown[]) => unknown[]): AsyncGenerator<unknown[][], void, undefined> {
  for await (const chunk of chunks) yield chunk.map(row);
}
