/**
 * A version 2 extraction written to a file (tests and the bench): the DuckDB engine's records
 * (engines/duckdb/parquet/v2-extraction.ts) through the API's GeoParquet writer
 * (api/v2/format/geoparquet), as the v2 routes compose them, without HTTP.
 */
import type { Writable } from 'node:stream';
import { parquetMetadata } from 'hyparquet';
import { GeoParquetStreamWriter, maphistMetadata, parquetFileSpec } from '../api/v2/format/geoparquet/parquet-stream-writer.js';
import { initZstd } from '../api/v2/format/geoparquet/zstd.js';
import { createV2Extraction } from '../engines/duckdb/parquet/v2-extraction.js';
import type { ExtractionRequest } from '../query/v2-requests.js';
import type { Store } from '../store/open-store.js';
import type { StoreTagDictionary } from '../store/store-tag-dictionary.js';

export interface ParquetExtractionStats {
  rows: number;
  rowGroups: number;
}

export interface MaphistParquetExtraction {
  /**
   * Writes the GeoParquet file of the request to `out` and ends it, resolving to what was written;
   * rejects with the signal's reason when aborted (`out` is then destroyed).
   */
  writeWithStats(request: ExtractionRequest, out: Writable, signal?: AbortSignal): Promise<ParquetExtractionStats>;
}

/**
 * `engineWriter` (default true): the engine's own writer where it has one for the request (features,
 * contributions: DuckDB's COPY, engines/duckdb/parquet/copy-writer.ts), as the v2 routes choose;
 * false: always the API's writer over the records.
 */
export async function createParquetExtraction(
  store: Store,
  dictionary?: StoreTagDictionary,
  options: { engineWriter?: boolean } = {},
): Promise<MaphistParquetExtraction> {
  await initZstd();
  const engine = await createV2Extraction(store, dictionary, { engineWriter: options.engineWriter });
  return {
    async writeWithStats(request, out, signal) {
      const s = signal ?? new AbortController().signal;
      const engineWriter = engine.parquet?.(request);
      if (engineWriter)
        return writeEngineFile(engineWriter(parquetFileSpec(request.kind, maphistMetadata(request.kind, store.metadata.lastTimestamp)), s), out, s);
      const writer = new GeoParquetStreamWriter(request.kind, out, s, maphistMetadata(request.kind, store.metadata.lastTimestamp));
      try {
        for await (const batch of engine.records(request, s)) {
          for (const record of batch) {
            const p = writer.add(record);
            if (p) await p;
          }
        }
        if (s.aborted) throw s.reason;
        await writer.finish();
      } catch (e) {
        // No error argument: an 'error' event nobody listens to would crash the process; the caller gets the rejection.
        out.destroy();
        throw e;
      }
      await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
      return { rows: writer.rowsWritten, rowGroups: writer.rowGroupsWritten };
    },
  };
}

/** An engine-written file to `out`; the stats from its footer (the last chunk). */
async function writeEngineFile(chunks: AsyncGenerator<Uint8Array, void, undefined>, out: Writable, signal: AbortSignal): Promise<ParquetExtractionStats> {
  let last: Uint8Array | undefined;
  try {
    for await (const chunk of chunks) {
      last = chunk;
      if (out.destroyed) throw out.errored ?? new Error('the output closed');
      if (!out.write(chunk)) {
        await new Promise<void>((resolve, reject) => {
          // Each wait removes its other listener (a 'close' listener per wait piled up on the stream).
          const onClose = () => {
            out.off('drain', onDrain);
            reject(out.errored ?? new Error('the output closed'));
          };
          const onDrain = () => {
            out.off('close', onClose);
            resolve();
          };
          out.once('drain', onDrain);
          out.once('close', onClose);
        });
      }
    }
    if (signal.aborted) throw signal.reason;
  } catch (e) {
    out.destroy();
    throw e;
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  const footer = last!.buffer.slice(last!.byteOffset, last!.byteOffset + last!.byteLength) as ArrayBuffer;
  const meta = parquetMetadata(footer);
  return { rows: Number(meta.num_rows), rowGroups: meta.row_groups.length };
}
