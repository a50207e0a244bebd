/**
 * The numbers and booleans of a result chunk's column, read straight from the vector's memory
 * through DuckDB's C API (`duckdb_vector_get_data`, `duckdb_vector_get_validity`), a typed array
 * over the items and a byte test of the validity mask.
 *
 * Why not the vectors' `getItem`: @duckdb/node-api tests each item's validity bit with BigInt
 * arithmetic (`BigInt(1) << BigInt(bit % 64)`), which allocates several BigInts per value read.
 * users/count over the benchmark's box reads 6,498 rows of 25 such columns per request: 5.3 ms
 * through `getItem`, 2.4 ms so (bench/RESULTS.md, session 26).
 *
 * The C API through store/duckdb-bindings.ts (the bindings node-api itself loads).
 */
import { DuckDBTypeId, type DuckDBDataChunk } from '@duckdb/node-api';
import { bindings } from '../../store/duckdb-bindings.js';

type View = Uint8Array | Int8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;
type ViewOf = { BYTES_PER_ELEMENT: number; new (buffer: ArrayBufferLike, byteOffset: number, length: number): View };

/** The plain types: their items are the JS values node-api's converter gives (BOOLEAN: 0/1 bytes as booleans). */
const VIEWS = new Map<DuckDBTypeId, ViewOf>([
  [DuckDBTypeId.BOOLEAN, Uint8Array],
  [DuckDBTypeId.TINYINT, Int8Array],
  [DuckDBTypeId.SMALLINT, Int16Array],
  [DuckDBTypeId.INTEGER, Int32Array],
  [DuckDBTypeId.UTINYINT, Uint8Array],
  [DuckDBTypeId.USMALLINT, Uint16Array],
  [DuckDBTypeId.UINTEGER, Uint32Array],
  [DuckDBTypeId.FLOAT, Float32Array],
  [DuckDBTypeId.DOUBLE, Float64Array],
]);

/** Whether `plainColumn` reads columns of this type. */
export function isPlainType(typeId: DuckDBTypeId): boolean {
  return VIEWS.has(typeId);
}

/**
 * A plain column of a chunk: its items and its validity mask (null: every item valid; else DuckDB's
 * 64-bit words, read here by byte: item i's bit is bit i & 7 of byte i >> 3, which holds on the
 * little-endian platforms the bindings are built for). Views into the chunk's memory: read them
 * while the chunk is alive, before the next fetch.
 */
export interface PlainColumn {
  items: View;
  valid: Uint8Array | null;
  bool: boolean;
}

/** Column `column` of `chunk`, of the plain type `typeId` (isPlainType), as a PlainColumn. */
export function plainColumn(chunk: DuckDBDataChunk, column: number, typeId: DuckDBTypeId): PlainColumn {
  const View = VIEWS.get(typeId);
  if (View === undefined) throw new Error(`plainColumn: type ${DuckDBTypeId[typeId]} is not a plain type`);
  const n = chunk.rowCount;
  const vector = bindings.data_chunk_get_vector(chunk.chunk, column);
  const bytes = bindings.vector_get_data(vector, n * View.BYTES_PER_ELEMENT);
  const valid = bindings.vector_get_validity(vector, Math.ceil(n / 64) * 8);
  return { items: new View(bytes.buffer, bytes.byteOffset, n), valid: valid ? valid : null, bool: typeId === DuckDBTypeId.BOOLEAN };
}

/** Column `column` of `chunk` as a PlainColumn, or null when its type is not a plain one (the caller reads it otherwise). */
export function plainColumnOf(chunk: DuckDBDataChunk, column: number): PlainColumn | null {
  const typeId = chunk.getColumnVector(column).type.typeId;
  return isPlainType(typeId) ? plainColumn(chunk, column, typeId) : null;
}

/** Item i of a PlainColumn as a JS value: a number, a boolean or null. */
export function plainAt(c: PlainColumn, i: number): number | boolean | null {
  if (c.valid !== null && ((c.valid[i >> 3] >> (i & 7)) & 1) === 0) return null;
  return c.bool ? c.items[i] !== 0 : c.items[i];
}

/**
 * Writes the column's first `n` items to `out` from index `at` on, as JS values (plainAt): into an
 * array made to the result's length (`readColumns`: no copies as it grows), or appended (at = out.length).
 */
export function writePlain(c: PlainColumn, n: number, out: unknown[], at: number): void {
  const { items, valid, bool } = c;
  if (valid === null && !bool) {
    for (let i = 0; i < n; i++) out[at + i] = items[i];
    return;
  }
  for (let i = 0; i < n; i++) out[at + i] = plainAt(c, i);
}
