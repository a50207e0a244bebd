/**
 * The GeoJSON writer of version 1 extraction (docs/reference/v1-reference-behaviour.md §4.4) for the shared extraction pipeline
 * (api/common/extraction-stream.ts, which streams, compresses, applies backpressure and handles
 * failures and aborts): the head, the features as the engine produces them (in the order type,
 * id, time) and the tail, gathered in 64 KB byte batches.
 */
import type { Writable } from 'node:stream';
import type { ExtractedFeature } from '../../../query/extraction.js';
import { writeWithDrain, type RecordWriter } from '../../common/extraction-stream.js';
import { ByteBatch } from './byte-batch.js';
import { featureText, FEATURE_SEPARATOR, TAIL, type FeatureOptions } from './geojson.js';

/** Bytes gathered before one write to the socket. */
const WRITE_BATCH = 64 * 1024;

export function geoJsonWriter(out: Writable, signal: AbortSignal, head: string, feature: FeatureOptions): RecordWriter<ExtractedFeature> {
  // Feature texts are copied into a byte buffer as they are made, so they die young (a string
  // buffer of 64 KB keeps hundreds of them alive until it is written).
  const batch = new ByteBatch(WRITE_BATCH);
  batch.add(head);
  let count = 0;
  return {
    add(f) {
      const text = featureText(f, feature);
      if (text === null) return undefined;
      if (count++ > 0) batch.add(FEATURE_SEPARATOR);
      batch.add(text);
      if (!batch.full) return undefined;
      const bytes = batch.take();
      return writeWithDrain(out, bytes, signal, () => batch.recycle(bytes));
    },
    async finish() {
      batch.add(TAIL);
      out.write(batch.take());
    },
  };
}
