/**
 * Version 2 extraction to GeoParquet (issue #6): the ParquetExtraction service the v2 routes call.
 * A request's rows stream from DuckDB chunk by chunk, are clipped in TypeScript (the kernel the
 * aggregations use) and go to a GeoParquetStreamWriter, which writes a row group to `out` every
 * 10,000 rows and waits for `out` to drain. Aborting `signal` interrupts the DuckDB statement; the
 * promise then rejects with the signal's reason and `out` is destroyed (a truncated download).
 */
import type { Writable } from 'node:stream';
import type { ExtractionRequest } from '../../../query/v2-requests.js';
import type { ParquetExtraction } from '../../../query/v2-requests.js';
import { planArea } from '../../../query/area-plan.js';
import type { Store } from '../../../store/open-store.js';
import { dictionaryOf, type StoreTagDictionary } from '../../../store/store-tag-dictionary.js';
import { produceCollections } from './collection-rows.js';
import { produceContributions } from './contribution-rows.js';
import { produceFeatures } from './feature-rows.js';
import { GeoParquetStreamWriter } from './parquet-stream-writer.js';
import { checkAborted } from '../statements.js';
import type { RowContext } from './rows-common.js';
import { initZstd } from './zstd.js';

export interface ParquetExtractionStats {
  rows: number;
  rowGroups: number;
}

export interface MaphistParquetExtraction extends ParquetExtraction {
  /** As write(), resolving to what was written (for tests and the bench). */
  writeWithStats(request: ExtractionRequest, out: Writable, signal?: AbortSignal): Promise<ParquetExtractionStats>;
}

export async function createParquetExtraction(store: Store, dictionary?: StoreTagDictionary): Promise<MaphistParquetExtraction> {
  await initZstd();
  const d = await dictionaryOf(store, dictionary);

  async function writeWithStats(request: ExtractionRequest, out: Writable, signal?: AbortSignal): Promise<ParquetExtractionStats> {
    const ctx: RowContext = { store, dictionary: d, plan: planArea(request.aoi, 'st'), signal };
    const writer = new GeoParquetStreamWriter(request.kind, out, [
      { key: 'maphist', value: JSON.stringify({ kind: request.kind, dataTimestamp: store.metadata.lastTimestamp }) },
    ]);
    const emit = writer.add.bind(writer);
    try {
      checkAborted(signal);
      switch (request.kind) {
        case 'features':
          await produceFeatures(ctx, request, emit);
          break;
        case 'contributions':
          await produceContributions(ctx, request, emit);
          break;
        case 'collections':
        case 'collections_members':
          await produceCollections(ctx, request, emit);
          break;
      }
      checkAborted(signal);
      await writer.finish();
    } catch (e) {
      // No error argument: an 'error' event nobody listens to would crash the process; the caller gets the rejection.
      out.destroy();
      throw e;
    }
    await new Promise<void>((resolve, reject) => {
      out.end((e?: Error | null) => (e ? reject(e) : resolve()));
    });
    return { rows: writer.rowsWritten, rowGroups: writer.rowGroupsWritten };
  }

  return {
    writeWithStats,
    async write(request, out, signal) {
      await writeWithStats(request, out, signal);
    },
  };
}
