/**
 * Paces garbage collection to the DuckDB result chunks a stream has read.
 *
 * A chunk fetched through `@duckdb/node-api` stays in DuckDB's memory until the garbage collector
 * finalises its JS wrapper, and V8 does not know how big it is: the wrapper is a few bytes on the
 * V8 heap, the vectors behind it are DuckDB's. A long stream promotes those wrappers to the old
 * generation (each one lives across the writes it feeds), and V8 sees no reason for a major
 * collection. The x48 whole-world node extraction held about 50 MB of consumed chunks that way, and
 * more DuckDB memory beside them. A full collection after every `BYTES_PER_COLLECTION` of chunk data
 * read (values, and the blob payloads in the chunk's heap) bounds it. One takes about 30 ms on a
 * streaming server: about 1 % of a node extraction (16 MB is some 170,000 nodes), about 3 % of a
 * way extraction (some 20,000 ways with their geometries). Measured in bench/RESULTS.md
 * (extract-rss-notes).
 */
import v8 from 'node:v8';
import vm from 'node:vm';

/** Chunk data read between two full collections. */
export const BYTES_PER_COLLECTION = 16 * 2 ** 20;

/** Bytes a chunk is counted as: its values at 8 bytes each (ids, times, coordinates, list and blob handles). */
export const chunkBytes = (rows: number, columns: number): number => rows * columns * 8;

/** The process's full-collection function: `gc` when node runs with --expose-gc, otherwise exposed for this purpose. */
function fullCollection(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  v8.setFlagsFromString('--expose-gc');
  const gc: unknown = vm.runInNewContext('gc');
  return typeof gc === 'function' ? (gc as () => void) : () => undefined;
}

/** Counts chunk bytes read and runs `collect` each time another `every` bytes have been read. */
export class ChunkCollectionPacer {
  private unread: number;

  constructor(
    private readonly collect: () => void,
    private readonly every = BYTES_PER_COLLECTION,
  ) {
    this.unread = every;
  }

  /** Notes a chunk of `rows` × `columns` values read. */
  chunkRead(rows: number, columns: number): void {
    this.read(chunkBytes(rows, columns));
  }

  /**
   * Notes a blob or string payload read from a chunk: payloads of more than 12 bytes live in the
   * chunk's own heap (a way's geometry: hundreds of bytes), which its values do not count.
   */
  payloadRead(bytes: number): void {
    if (bytes > 12) this.read(bytes);
  }

  private read(bytes: number): void {
    this.unread -= bytes;
    if (this.unread > 0) return;
    this.unread = this.every;
    this.collect();
  }
}

let processPacer: ChunkCollectionPacer | undefined;

/** The pacer every DuckDB stream of this process reports to (statements.ts `streamRows`). */
export function chunkCollectionPacer(): ChunkCollectionPacer {
  return (processPacer ??= new ChunkCollectionPacer(fullCollection()));
}
