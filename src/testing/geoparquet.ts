/**
 * A version 2 extraction written to a file (tests and the bench): the DuckDB engine's records
 * (engines/duckdb/parquet/v2-extraction.ts) through the API's GeoParquet writer
 * (api/v2/format/geoparquet), as the v2 routes compose them, without HTTP.
 */
import type { Writable } from 'node:stream';
import { GeoParquetStreamWriter, maphistMetadata } from '../api/v2/format/geoparquet/parquet-stream-writer.js';
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

export async function createParquetExtraction(store: Store, dictionary?: StoreTagDictionary): Promise<MaphistParquetExtraction> {
  await initZstd();
  const engine = await createV2Extraction(store, dictionary);
  return {
    async writeWithStats(request, out, signal) {
      const s = signal ?? new AbortController().signal;
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
