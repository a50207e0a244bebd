/**
 * What maphist asks of a ClickHouse server, whichever way it is reached: a cluster's node over HTTP
 * (http-client.ts; Debian's 18.16 and current servers) or ClickHouse embedded in the process (chDB,
 * chdb-connection.ts; the tests' engine). The loader and the engine use nothing else, so both run
 * on either.
 */
export interface ChQueryOptions {
  signal?: AbortSignal;
  /** Extra settings for this query. */
  settings?: Record<string, string | number>;
}

export interface ClickHouseConnection {
  /** Where it is (a URL, or `chdb:<dir>`), for messages. */
  readonly url: string;
  /** Runs a statement or a query that names its FORMAT; its answer as text. */
  text(sql: string, options?: ChQueryOptions): Promise<string>;
  /** A query's rows as arrays (JSONCompact: 64-bit integers may come quoted; read them with Number()). */
  rows(sql: string, options?: ChQueryOptions): Promise<unknown[][]>;
  /** A query's answer in `format` (RowBinary for the engine's results), as bytes. */
  bytes(sql: string, format: string, options?: ChQueryOptions): Promise<Uint8Array>;
  /** Inserts RowBinary rows (every column of `table`, in order). */
  insertRowBinary(table: string, body: Uint8Array, options?: ChQueryOptions): Promise<void>;
  /** Whether the server answers. */
  ping(signal?: AbortSignal): Promise<boolean>;
  close?(): void;
}
