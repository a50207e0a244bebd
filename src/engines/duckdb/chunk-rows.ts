/**
 * DuckDB result chunks as rows of plain JS values, read with the vectors' typed accessors: lists
 * through the flat child vector (no per-row list value objects), blobs copied once from their
 * bytes. Replaces the generic value converter (`convertRows`), which cost half of a features
 * extraction's time. `chunkRows` converts a chunk column by column (the GeoParquet writer);
 * `lazyChunkRows` converts one row at a time as it is iterated, so a streamed extraction holds
 * one row's values, not the chunk's 2,048 (they die young instead of being promoted by the
 * garbage collector and growing the heap while streaming).
 */
import { DuckDBBlobVector, DuckDBListVector, type DuckDBDataChunk, type DuckDBVector } from '@duckdb/node-api';
import type { Store } from '../../store/open-store.js';
import { streamRows } from './statements.js';
import { chunkCollectionPacer } from './chunk-collection.js';
import { plainAt, plainColumnOf, writePlain } from './plain-vectors.js';

/**
 * A blob's bytes, owned by the caller: payloads of more than 12 bytes already come back as a
 * fresh copy; the short ones are a view into the chunk and are copied.
 */
function blobAt(v: DuckDBBlobVector, i: number): Uint8Array | null {
  const b = v.getItemBytes(i);
  if (b !== null) chunkCollectionPacer().payloadRead(b.length);
  return b === null ? null : b.length <= 12 ? b.slice() : b;
}

/** One value of a vector. */
function valueAt(v: DuckDBVector, i: number): unknown {
  if (v instanceof DuckDBListVector) {
    const len = v.getEntryLength(i);
    const off = v.getEntryOffset(i);
    const child = v.childVector;
    const items: unknown[] = new Array(len);
    for (let k = 0; k < len; k++) items[k] = child.getItem(off + k);
    return items;
  }
  if (v instanceof DuckDBBlobVector) return blobAt(v, i);
  return v.getItem(i);
}

/** How to read column c of a chunk, row by row: plain columns from the vector's memory (plain-vectors.ts). */
function readerOf(chunk: DuckDBDataChunk, c: number): (i: number) => unknown {
  const plain = plainColumnOf(chunk, c);
  if (plain !== null) return (i) => plainAt(plain, i);
  const v = chunk.getColumnVector(c);
  return (i) => valueAt(v, i);
}

/** The rows of a chunk, each converted when the iteration reaches it (list columns must be NOT NULL, as in `chunkRows`). */
export function lazyChunkRows(chunk: DuckDBDataChunk): Iterable<unknown[]> {
  const readers: ((i: number) => unknown)[] = [];
  for (let c = 0; c < chunk.columnCount; c++) readers.push(readerOf(chunk, c));
  return {
    *[Symbol.iterator]() {
      // `chunk.rowCount`, not `n`: the generator must hold the chunk itself, not only its vectors.
      // A consumer that awaits between rows (a turn for the event loop) lets the garbage collector
      // run; a chunk no longer referenced is freed with its native memory, and the vectors then
      // read garbage (found by the fuzzer as WKB errors mid-extraction).
      for (let i = 0; i < chunk.rowCount; i++) {
        const row: unknown[] = new Array(readers.length);
        for (let c = 0; c < readers.length; c++) row[c] = readers[c](i);
        yield row;
      }
    },
  };
}

/**
 * As `lazyChunkRows`, each row as a record keyed by `columns` (the chunk's columns in order, as
 * `streamRecords` checked them): one object per row, built when the iteration reaches it.
 */
export function lazyChunkRecords<R>(chunk: DuckDBDataChunk, columns: readonly (keyof R & string)[]): Iterable<R> {
  const readers: ((i: number) => unknown)[] = [];
  for (let c = 0; c < columns.length; c++) readers.push(readerOf(chunk, c));
  return {
    *[Symbol.iterator]() {
      // `chunk.rowCount`: the generator holds the chunk alive while it reads its vectors (lazyChunkRows).
      for (let i = 0; i < chunk.rowCount; i++) {
        const row: Record<string, unknown> = {};
        for (let c = 0; c < readers.length; c++) row[columns[c]] = readers[c](i);
        yield row as R;
      }
    },
  };
}

function columnValues(chunk: DuckDBDataChunk, c: number, n: number): unknown[] {
  const plain = plainColumnOf(chunk, c);
  if (plain !== null) {
    const out: unknown[] = new Array(n);
    writePlain(plain, n, out, 0);
    return out;
  }
  const v = chunk.getColumnVector(c);
  const out: unknown[] = new Array(n);
  if (v instanceof DuckDBListVector) {
    const child = v.childVector;
    for (let i = 0; i < n; i++) {
      const len = v.getEntryLength(i);
      const off = v.getEntryOffset(i);
      const items: unknown[] = new Array(len);
      for (let k = 0; k < len; k++) items[k] = child.getItem(off + k);
      out[i] = items;
    }
    return out;
  }
  if (v instanceof DuckDBBlobVector) {
    for (let i = 0; i < n; i++) out[i] = blobAt(v, i);
    return out;
  }
  for (let i = 0; i < n; i++) out[i] = v.getItem(i);
  return out;
}

export function chunkRows(chunk: DuckDBDataChunk): unknown[][] {
  const n = chunk.rowCount;
  const cols = chunk.columnCount;
  const rows: unknown[][] = new Array(n);
  for (let i = 0; i < n; i++) rows[i] = new Array(cols);
  for (let c = 0; c < cols; c++) {
    const values = columnValues(chunk, c, n);
    for (let i = 0; i < n; i++) rows[i][c] = values[i];
  }
  return rows;
}

/** As engines/duckdb/statements.ts streamRows, with the column-wise conversion. */
export function streamChunkRows(store: Store, sql: string, signal?: AbortSignal): AsyncGenerator<unknown[][], void, undefined> {
  return streamRows(store, sql, { signal }, chunkRows);
}
