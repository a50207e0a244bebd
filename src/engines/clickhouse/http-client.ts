/**
 * ClickHouse over its HTTP interface, by hand: `@clickhouse/client` supports servers from 24.8 on,
 * and Debian's server is 18.16 (docs/clickhouse.md, docs/dependencies.md). A query is one POST
 * with the SQL in the body (or in `query=` when the body carries the rows of an INSERT); every query
 * carries a `query_id`, so a cancelled one is stopped on the server with `KILL QUERY` (on every
 * shard: the entry node forwards a distributed query's kill). Errors come back as a
 * MaphistError ENGINE_FAILURE with ClickHouse's own message.
 */
import { randomUUID } from 'node:crypto';
import { MaphistError } from '../../core/errors.js';
import type { ClickHouseConnection } from './connection.js';

export interface ClickHouseHttpOptions {
  /** `http://host:port` of the server (a cluster's entry node). */
  url: string;
  /** Settings sent with every query (`max_threads`, …). */
  settings?: Record<string, string | number>;
}

export interface QueryOptions {
  signal?: AbortSignal;
  /** The database queries run in (the `database` parameter). */
  database?: string;
  /** Extra settings for this query. */
  settings?: Record<string, string | number>;
}

export class ClickHouseHttp implements ClickHouseConnection {
  readonly url: string;
  private readonly settings: Record<string, string | number>;

  constructor(options: ClickHouseHttpOptions) {
    this.url = options.url.replace(/\/+$/, '');
    this.settings = options.settings ?? {};
  }

  private target(params: Record<string, string | number | undefined>): string {
    const u = new URL(`${this.url}/`);
    for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  }

  /** Runs `sql` (a statement, or a query whose FORMAT it names) and returns the answer's text. */
  text(sql: string, options: QueryOptions = {}): Promise<string> {
    return this.run(sql, undefined, options, (res) => res.text());
  }

  /** Runs a query and returns its rows as arrays (JSONCompact; 18.16 quotes 64-bit integers: read them with Number()). */
  async rows(sql: string, options: QueryOptions = {}): Promise<unknown[][]> {
    const text = await this.text(`${sql}\nFORMAT JSONCompact`, options);
    return (JSON.parse(text) as { data: unknown[][] }).data;
  }

  /** A query's answer in `format`, as bytes. */
  async bytes(sql: string, format: string, options: QueryOptions = {}): Promise<Uint8Array> {
    return new Uint8Array(await this.run(`${sql}\nFORMAT ${format}`, undefined, options, (res) => res.arrayBuffer()));
  }

  /** Inserts RowBinary rows into `table` (every column, in order). */
  insertRowBinary(table: string, body: Uint8Array, options: QueryOptions = {}): Promise<void> {
    return this.insert(`INSERT INTO ${table} FORMAT RowBinary`, body, options);
  }

  /** Inserts a body (RowBinary, TSV, …) for `statement` (`INSERT INTO … FORMAT …`, sent in the URL). */
  async insert(statement: string, body: Uint8Array, options: QueryOptions = {}): Promise<void> {
    await this.run(statement, body, options, (res) => res.arrayBuffer());
  }

  /** Whether the server answers `/ping`. */
  async ping(signal?: AbortSignal): Promise<boolean> {
    try {
      const res = await fetch(`${this.url}/ping`, { signal });
      return res.ok && (await res.text()).trim() === 'Ok.';
    } catch {
      return false;
    }
  }

  /**
   * One query: its answer read by `read` while the cancel listener is on. An abort before the
   * answer is complete sends `KILL QUERY` for its id (the server would otherwise go on until it
   * noticed the closed connection).
   */
  private async run<T>(sql: string, body: Uint8Array | undefined, options: QueryOptions, read: (res: Response) => Promise<T>): Promise<T> {
    const queryId = randomUUID();
    const params: Record<string, string | number | undefined> = { ...this.settings, ...options.settings, query_id: queryId, database: options.database };
    if (body !== undefined) params.query = sql;
    const signal = options.signal;
    if (signal?.aborted) throw signal.reason;
    const kill = () => {
      void fetch(this.target({}), { method: 'POST', body: `KILL QUERY WHERE query_id = '${queryId}' ASYNC` }).then(
        (r) => r.arrayBuffer(),
        () => undefined,
      );
    };
    signal?.addEventListener('abort', kill, { once: true });
    try {
      let res: Response;
      try {
        res = await fetch(this.target(params), { method: 'POST', body: (body as BodyInit | undefined) ?? sql, signal });
      } catch (e) {
        if (signal?.aborted) throw signal.reason;
        throw new MaphistError('ENGINE_FAILURE', `ClickHouse at ${this.url} cannot be reached: ${(e as Error).message}`);
      }
      if (!res.ok) {
        const message = (await res.text()).trim();
        throw new MaphistError('ENGINE_FAILURE', `ClickHouse at ${this.url} refused a query: ${message.slice(0, 2000)}`);
      }
      try {
        return await read(res);
      } catch (e) {
        if (signal?.aborted) throw signal.reason;
        throw e;
      }
    } finally {
      signal?.removeEventListener('abort', kill);
    }
  }
}
