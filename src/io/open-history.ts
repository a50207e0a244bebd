/**
 * The one entry point for reading history files: detects the format from the content and opens
 * the matching reader.
 *
 *   const history = await openHistory('region.osh.pbf');
 *   for await (const batch of history.batches()) for (const v of batch) …;
 *   await history.close();
 */

import { DETECTION_BYTES, detectFormat } from './detect-format.js';
import { openInputFile, readAt } from './input-file.js';
import type { OpenedHistory, OpenHistoryOptions } from './opened-history.js';
import { openPbfHistory } from './pbf/pbf-history.js';
import { openXmlHistory } from './xml/xml-history.js';

export type { HistoryFormat, OpenedHistory, OpenHistoryOptions } from './opened-history.js';

export async function openHistory(path: string, options: OpenHistoryOptions = {}): Promise<OpenedHistory> {
  const input = await openInputFile(path);
  let detected;
  try {
    detected = detectFormat(await readAt(input.handle, 0, Math.min(DETECTION_BYTES, input.size)), input.size, path);
  } catch (e) {
    await input.handle.close();
    throw e;
  }
  if (detected.format === 'pbf') return openPbfHistory(input, path, { workers: options.workers });
  return openXmlHistory(input, path, detected.compression);
}
