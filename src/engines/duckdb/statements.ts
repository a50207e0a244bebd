/**
 * Running SQL on a store under an AbortSignal, the one way the DuckDB engines (aggregation,
 * statistics, extraction) do it: an abort interrupts the statement and the call rejects with the
 * signal's reason; every statement gets its own connection, closed afterwards.
 */
import { JSDuckDBValueConverter, type DuckDBConnection, type DuckDBDataChunk, type DuckDBResult } from '@duckdb/node-api';
import type { Store } from '../../store/open-store.js';
import { chunkCollectionPacer } from './chunk-collection.js';

/** Throws the signal's reason when it is aborted. */
export function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
}

/**
 * Runs `sql` and returns all rows as arrays of JS values. `spilling`: on the streaming instance
 * (StreamOptions.spilling), whose small buffer pool also keeps a full-table scan from filling the
 * server's memory with cached blocks.
 */
export async function readAllRows(store: Store, sql: string, signal: AbortSignal | undefined, spilling = false): Promise<unknown[][]> {
  checkAborted(signal);
  const con: DuckDBConnection = spilling ? await store.connectStreaming() : await store.connect();
  const onAbort = () => con.interrupt();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const reader = await con.runAndReadAll(sql);
    checkAborted(signal);
    return reader.getRowsJS() as unknown[][];
  } catch (e) {
    checkAborted(signal);
    throw e;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    con.closeSync();
  }
}

export interface StreamOptions {
  signal?: AbortSignal;
  /**
   * Run on the store's streaming instance, whose small memory limit makes a big ORDER BY spill to
   * disk (the server's memory stays flat); only for statements whose operators can spill (sorts,
   * hash joins) — window functions cannot, so they run on the main instance.
   */
  spilling?: boolean;
}

const rowsOf = (chunk: DuckDBDataChunk) => chunk.convertRows(JSDuckDBValueConverter) as unknown[][];

/**
 * Streams the rows of `sql`, one DuckDB chunk at a time: the next chunk is fetched only when the
 * consumer asks for it (backpressure reaches DuckDB). Chunks read are reported to the process's
 * chunk-collection pacer (chunk-collection.ts), which keeps consumed chunks from piling up. Ending the iteration early or aborting the
 * signal interrupts the statement and closes the connection.
 */
export function streamRows(store: Store, sql: string, options?: StreamOptions): AsyncGenerator<unknown[][], void, undefined>;
/** `convert`: how a chunk becomes rows (default: row-wise JS values, `convertRows`). */
export function streamRows<R>(store: Store, sql: string, options: StreamOptions, convert: (chunk: DuckDBDataChunk) => R): AsyncGenerator<R, void, undefined>;
export async function* streamRows(
  store: Store,
  sql: string,
  options: StreamOptions = {},
  convert: (chunk: DuckDBDataChunk) => unknown = rowsOf,
): AsyncGenerator<unknown, void, undefined> {
  const { signal } = options;
  checkAborted(signal);
  const pacer = chunkCollectionPacer();
  const con: DuckDBConnection = options.spilling ? await store.connectStreaming() : await store.connect();
  const onAbort = () => con.interrupt();
  signal?.addEventListener('abort', onAbort, { once: true });
  let done = false;
  let result: DuckDBResult | undefined;
  try {
    result = await con.stream(sql);
    for (;;) {
      checkAborted(signal);
      const chunk = await result.fetchChunk();
      if (chunk === null || chunk.rowCount === 0) break;
      pacer.chunkRead(chunk.rowCount, chunk.columnCount);
      yield convert(chunk);
    }
    done = true;
  } catch (e) {
    checkAborted(signal);
    throw e;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (!done) {
      con.interrupt();
      // An interrupted query releases its memory (the pinned blocks of its sort) only when it next
      // runs: until then it holds them for as long as the result object lives, which is until a
      // garbage collection, and the streaming instance's next query ran out of memory.
      await result?.fetchChunk().catch(() => undefined);
    }
    con.closeSync();
  }
}
