/**
 * Running SQL on a store under an AbortSignal, the one way the DuckDB engines (aggregation,
 * statistics, extraction) do it: an abort interrupts the statement and the call rejects with the
 * signal's reason; every statement gets its own connection, closed afterwards. Any other failure
 * of DuckDB (a closed or damaged store, a file gone, out of memory) rejects as the catalog's
 * ENGINE_FAILURE, with DuckDB's message and DuckDB's error as its `cause` (the APIs log it and
 * answer 500): this is the engine seam every statement of the DuckDB engines passes.
 */
import { JSDuckDBValueConverter, type DuckDBConnection, type DuckDBDataChunk, type DuckDBResult } from '@duckdb/node-api';
import { isMaphistError, MaphistError } from '../../core/errors.js';
import type { Store } from '../../store/open-store.js';
import { chunkCollectionPacer } from './chunk-collection.js';
import { plainAt, plainColumnOf, writePlain } from './plain-vectors.js';
import { slicer, type Pause } from '../../core/yielding.js';
import type { Statement } from '../sql/statement.js';
import { checkAborted, type Columns, type StreamOptions } from '../common/statements.js';

/**
 * A failure of DuckDB as a coded ENGINE_FAILURE; coded errors pass unchanged. The message stays
 * DuckDB's own (extraction.ts recognises an out-of-memory batch by it).
 */
export function engineFailure(e: unknown): MaphistError {
  if (isMaphistError(e)) return e;
  return new MaphistError('ENGINE_FAILURE', e instanceof Error ? e.message : String(e), undefined, { cause: e });
}

async function connect(store: Store, spilling: boolean | undefined): Promise<DuckDBConnection> {
  try {
    return spilling ? await store.connectStreaming() : await store.connect();
  } catch (e) {
    throw engineFailure(e);
  }
}

/**
 * Runs `sql` and returns all rows as arrays of JS values. `spilling`: on the streaming instance
 * (StreamOptions.spilling), whose small buffer pool also keeps a full-table scan from filling the
 * server's memory with cached blocks.
 */
export async function readAllRows(store: Store, sql: string, signal: AbortSignal | undefined, spilling = false): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  await readChunks(store, sql, signal, spilling, (chunk) => {
    for (const row of rowsOf(chunk)) rows.push(row);
  });
  return rows;
}

/**
 * MAPHIST_DEBUG_SQL=1: every statement's text on stderr, then its time to the first chunk, its
 * rows and its total time (to find where a request's time goes and run EXPLAIN ANALYZE on it).
 */
const DEBUG_SQL = (process.env.MAPHIST_DEBUG_SQL ?? '') !== '';

/**
 * Runs `sql` on its own connection, interrupted by the signal, and hands its result to `each` one
 * chunk (up to 2,048 rows) at a time, asking `pause` for a turn of the event loop after each (by
 * default one turn once 10 ms have passed, src/core/yielding.ts). Converting a whole result to JS
 * values at once held the event loop for seconds: the WKB of every geometry on a big relation's
 * edge, read for one daily series (bench/RESULTS.md, "The stalls found by the slow probes").
 * `declared`: the statement whose column names the result must have, in order (checkColumns).
 */
async function readChunks(
  store: Store,
  sql: string,
  signal: AbortSignal | undefined,
  spilling: boolean,
  each: (chunk: DuckDBDataChunk, names: readonly string[], resultRows: number) => void,
  pause: Pause = slicer(),
  declared?: { readonly columns: readonly string[] },
): Promise<void> {
  checkAborted(signal);
  const t0 = DEBUG_SQL ? performance.now() : 0;
  let first = 0;
  let rows = 0;
  if (DEBUG_SQL) process.stderr.write(`-- sql start\n${sql};\n`);
  const con = await connect(store, spilling);
  const onAbort = () => con.interrupt();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const result = await con.run(sql);
    const names = result.columnNames();
    if (declared) checkColumns(names, declared);
    for (;;) {
      checkAborted(signal);
      const chunk = await result.fetchChunk();
      if (chunk === null || chunk.rowCount === 0) break;
      if (DEBUG_SQL && rows === 0) first = performance.now() - t0;
      rows += chunk.rowCount;
      each(chunk, names, result.rowCount);
      const turn = pause();
      if (turn) await turn;
    }
    checkAborted(signal);
  } catch (e) {
    checkAborted(signal);
    throw engineFailure(e);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    con.closeSync();
    if (DEBUG_SQL) process.stderr.write(`-- sql end: first chunk ${first.toFixed(1)} ms, ${rows} rows, ${(performance.now() - t0).toFixed(1)} ms\n`);
  }
}

/**
 * Runs a statement and returns its rows as records keyed by the statement's column names. Throws
 * when the result's columns are not exactly the declared ones (a statement and its reader that
 * drifted apart).
 */
export async function readRecords<R>(store: Store, st: Statement<R>, signal: AbortSignal | undefined, spilling = false, pause?: Pause): Promise<R[]> {
  const records: Record<string, unknown>[] = [];
  const each = (chunk: DuckDBDataChunk, names: readonly string[]) => {
    // Plain columns from the vectors' memory (plain-vectors.ts), the others through the converter.
    const readers = names.map((_, column) => {
      const plain = plainColumnOf(chunk, column);
      if (plain !== null) return (row: number) => plainAt(plain, row);
      const vector = chunk.getColumnVector(column);
      const type = vector.type;
      return (row: number) => JSDuckDBValueConverter(vector.getItem(row), type, JSDuckDBValueConverter);
    });
    for (let row = 0; row < chunk.rowCount; row++) {
      const record: Record<string, unknown> = {};
      for (let column = 0; column < names.length; column++) record[names[column]] = readers[column](row);
      records.push(record);
    }
  };
  await readChunks(store, st.text, signal, spilling, each, pause, st);
  return records as R[];
}

/**
 * Runs a statement and returns its result by column name, one array per column: for results of
 * many rows, where building a record per row would cost. Same column check as `readRecords`.
 */
export async function readColumns<R>(store: Store, st: Statement<R>, signal: AbortSignal | undefined, spilling = false, pause?: Pause): Promise<Columns<R>> {
  // One array per column made to the result's length (it is materialized: its row count is known
  // before the first chunk), so no array is copied as it grows (issue 21: the growing arrays were
  // about a quarter of the JavaScript a contributions/count request allocated).
  const byName: Record<string, unknown[]> = {};
  let rowCount = 0;
  const each = (chunk: DuckDBDataChunk, names: readonly string[], resultRows: number) => {
    if (rowCount === 0) for (const name of names) byName[name] = new Array(resultRows);
    for (let column = 0; column < names.length; column++) {
      const values = byName[names[column]];
      const vector = chunk.getColumnVector(column);
      const n = vector.itemCount;
      // Numbers and booleans from the vector's memory (plain-vectors.ts): through the converter,
      // the ~180,000 values of a contributions/count over Andorra took about 14 ms a request, and
      // through `getItem` its BigInt validity test allocated for every value (issue 21).
      const plain = plainColumnOf(chunk, column);
      if (plain !== null) {
        writePlain(plain, n, values, rowCount);
      } else {
        const type = vector.type;
        for (let row = 0; row < n; row++) values[rowCount + row] = JSDuckDBValueConverter(vector.getItem(row), type, JSDuckDBValueConverter);
      }
    }
    rowCount += chunk.rowCount;
  };
  await readChunks(store, st.text, signal, spilling, each, pause, st);
  if (rowCount === 0) for (const name of st.columns) byName[name] = [];
  return Object.assign(byName, { rowCount }) as unknown as Columns<R>;
}

function checkColumns(names: readonly string[], st: { readonly columns: readonly string[] }): void {
  if (names.length !== st.columns.length || st.columns.some((c, i) => names[i] !== c)) {
    throw new Error(`statement columns (${names.join(', ')}) are not the declared ones (${st.columns.join(', ')})`);
  }
}

/**
 * Streams the rows of a statement as records keyed by its column names, one chunk at a time
 * (`streamRows`); `convert` builds a chunk's records (`chunk-rows.ts` `lazyChunkRecords`). The
 * result's column names must be the declared ones in order (as `readRecords` checks, here once per
 * statement, at its first chunk), so the declared name at index i is the chunk's column i.
 */
export function streamRecords<R, C>(
  store: Store,
  st: Statement<R>,
  options: StreamOptions,
  convert: (chunk: DuckDBDataChunk, columns: readonly (keyof R & string)[]) => C,
): AsyncGenerator<C, void, undefined> {
  let checked = false;
  return streamRows(store, st.text, options, (chunk, names) => {
    if (!checked) {
      checkColumns(names, st);
      checked = true;
    }
    return convert(chunk, st.columns);
  });
}

const rowsOf = (chunk: DuckDBDataChunk) => chunk.convertRows(JSDuckDBValueConverter) as unknown[][];

/** `StreamOptions`, and statements run first on the statement's own connection (a temporary table that it reads is the connection's). */
export interface RowStreamOptions extends StreamOptions {
  setup?: readonly string[];
}

/**
 * Streams the rows of `sql`, one DuckDB chunk at a time: the next chunk is fetched only when the
 * consumer asks for it (backpressure reaches DuckDB). Chunks read are reported to the process's
 * chunk-collection pacer (chunk-collection.ts), which keeps consumed chunks from piling up. Ending the iteration early or aborting the
 * signal interrupts the statement and closes the connection.
 */
export function streamRows(store: Store, sql: string, options?: RowStreamOptions): AsyncGenerator<unknown[][], void, undefined>;
/** `convert`: how a chunk becomes rows (default: row-wise JS values, `convertRows`), given the result's column names. */
export function streamRows<R>(
  store: Store,
  sql: string,
  options: RowStreamOptions,
  convert: (chunk: DuckDBDataChunk, names: readonly string[]) => R,
): AsyncGenerator<R, void, undefined>;
export async function* streamRows(
  store: Store,
  sql: string,
  options: RowStreamOptions = {},
  convert: (chunk: DuckDBDataChunk, names: readonly string[]) => unknown = rowsOf,
): AsyncGenerator<unknown, void, undefined> {
  const { signal } = options;
  checkAborted(signal);
  const pacer = chunkCollectionPacer();
  const con = await connect(store, options.spilling);
  const onAbort = () => con.interrupt();
  signal?.addEventListener('abort', onAbort, { once: true });
  let done = false;
  let result: DuckDBResult | undefined;
  try {
    for (const setup of options.setup ?? []) await con.run(setup);
    result = await con.stream(sql);
    const names = result.columnNames();
    for (;;) {
      checkAborted(signal);
      const chunk = await result.fetchChunk();
      if (chunk === null || chunk.rowCount === 0) break;
      pacer.chunkRead(chunk.rowCount, chunk.columnCount);
      yield convert(chunk, names);
    }
    done = true;
  } catch (e) {
    checkAborted(signal);
    throw engineFailure(e);
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
