/**
 * The WKB of geometry-run representatives (rowids), from the boundary cache when an earlier request
 * fetched them, otherwise in one query (`geometriesSql`, the database's) whose answers are remembered.
 * Both engines (v1 aggregation, v2 statistics) read the boundary rows of an area this way: the big
 * geometries crossing an area's edge (country borders, rivers, coastlines) are the same from one
 * request to the next, and reading them from the geometry column dominates a request's cost.
 */
import type { ByteBoundedLru } from '../../core/byte-lru.js';
import type { Statement } from '../sql/statement.js';
import type { RowGeometry } from '../sql/stats-rows.js';
import { checkAborted } from './statements.js';
import type { Pause } from '../../core/yielding.js';

export async function representativeWkb(
  rowids: Iterable<number>,
  cache: ByteBoundedLru<number, Uint8Array | null>,
  read: <R>(st: Statement<R>) => Promise<R[]>,
  signal: AbortSignal | undefined,
  pause: Pause | undefined,
  /** The statement reading the geometries of rowids, in the database's SQL (DuckDB's `boundaryGeometriesSql`, ClickHouse's). */
  geometriesSql: (rowids: readonly number[]) => Statement<RowGeometry>,
): Promise<Map<number, Uint8Array | null>> {
  const out = new Map<number, Uint8Array | null>();
  const missing: number[] = [];
  for (const r of rowids) {
    if (out.has(r)) continue;
    const wkb = cache.get(r);
    if (wkb === undefined) missing.push(r);
    else out.set(r, wkb);
  }
  if (missing.length === 0) return out;
  let i = 0;
  for (const { r, geometry: wkb } of await read(geometriesSql(missing))) {
    if ((++i & 63) === 0) {
      checkAborted(signal);
      const turn = pause?.();
      if (turn) await turn;
    }
    cache.set(r, wkb);
    out.set(r, wkb);
  }
  return out;
}

/**
 * Keeps the smallest rowid under `key`: the state that stands for a geometry run. Not the first
 * seen: rows come in the order of the database's threads, and a representative that changed between
 * requests missed the boundary cache, which is keyed by rowid (a geometry read of ~25 ms a request).
 */
export function keepSmallestRowid<K>(map: Map<K, number>, key: K, rowid: number): void {
  const known = map.get(key);
  if (known === undefined || rowid < known) map.set(key, rowid);
}

/**
 * The state standing for each geometry run among the rows seen: the smallest rowid per (type, id,
 * run), as `keepSmallestRowid`. Keyed by numbers (the element's id × 3 + type, then the run): a
 * string key built for each of the ~14,000 sides of a contributions/count over Andorra took about
 * 2 ms and added to the request's garbage (issue 21).
 */
export class RunRepresentatives {
  private readonly byElement = new Map<number, Map<number, number>>();
  size = 0;

  keep(type: number, id: number, run: number, rowid: number): void {
    const key = id * 3 + type;
    let runs = this.byElement.get(key);
    if (runs === undefined) this.byElement.set(key, (runs = new Map()));
    if (!runs.has(run)) this.size++;
    keepSmallestRowid(runs, run, rowid);
  }

  get(type: number, id: number, run: number): number | undefined {
    return this.byElement.get(id * 3 + type)?.get(run);
  }

  *rowids(): Generator<number> {
    for (const runs of this.byElement.values()) yield* runs.values();
  }
}
