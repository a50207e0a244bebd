/**
 * What every engine's statement runner shares, whatever the database: the abort check, a result
 * read by column, and the options of a streamed statement. Each database runs statements its own
 * way (DuckDB: src/engines/duckdb/statements.ts; ClickHouse: src/engines/clickhouse/connection.ts).
 */

/** Throws the signal's reason when it is aborted. */
export function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
}

/** A result as one array per named column (`columns.k[i]` is row i's k): no object per row. */
export type Columns<R> = { readonly [K in keyof R]: R[K][] } & { readonly rowCount: number };

export interface StreamOptions {
  signal?: AbortSignal;
  /**
   * Run on the store's streaming instance, whose small memory limit makes a big ORDER BY spill to
   * disk (the server's memory stays flat); only for statements whose operators can spill (sorts,
   * hash joins) — window functions cannot, so they run on the main instance.
   */
  spilling?: boolean;
}
