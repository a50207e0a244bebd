/**
 * Version 2 extraction (issue #6), the engine's half: the records of a request (query/v2-requests.ts
 * `RecordExtraction`), streamed from DuckDB chunk by chunk and clipped in TypeScript (the kernel the
 * aggregations use; a chunk's boundary rows in the geometry pool when they are many or large). The API writes them as GeoParquet (api/v2/format/geoparquet) through the
 * shared extraction pipeline. Closing the iterator or aborting `signal` interrupts the DuckDB
 * statement; the iterator then rejects with the signal's reason.
 */
import { slicer } from '../../../core/yielding.js';
import type { ExtractionRecord, ExtractionRequest, RecordExtraction } from '../../../query/v2-requests.js';
import { planAreaSql } from '../sql/area.js';
import { boundaryClipper, type BoundaryClipperOptions } from '../boundary-clipper.js';
import type { Store } from '../../../store/open-store.js';
import { dictionaryOf, type StoreTagDictionary } from '../../../store/store-tag-dictionary.js';
import { collectionRecords } from './collection-rows.js';
import { contributionRecords } from './contribution-rows.js';
import { featureRecords } from './feature-rows.js';
import { checkAborted } from '../statements.js';
import type { RowContext } from './rows-common.js';

/** `clipper`: where a chunk's boundary rows are clipped (boundary-clipper.ts; tests set the thresholds). */
export async function createV2Extraction(
  store: Store,
  dictionary?: StoreTagDictionary,
  options: { clipper?: BoundaryClipperOptions } = {},
): Promise<RecordExtraction> {
  const d = await dictionaryOf(store, dictionary);
  return {
    async *records(request: ExtractionRequest, signal?: AbortSignal): AsyncGenerator<ExtractionRecord[], void, undefined> {
      // The loops over a chunk's rows give the event loop a turn every 10 ms (src/core/yielding.ts).
      const plan = planAreaSql(request.aoi, 'st');
      const ctx: RowContext = { store, dictionary: d, plan, signal, pause: slicer(), clipper: boundaryClipper(plan, request.aoi, options.clipper) };
      checkAborted(signal);
      switch (request.kind) {
        case 'features':
          yield* featureRecords(ctx, request);
          break;
        case 'contributions':
          yield* contributionRecords(ctx, request);
          break;
        case 'collections':
        case 'collections_members':
          yield* collectionRecords(ctx, request);
          break;
      }
      checkAborted(signal);
    },
  };
}
