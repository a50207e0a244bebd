/**
 * The one entry point for reading history files: detects the format from the content and opens
 * the matching reader.
 *
 *   const history = await openHistory('region.osh.pbf');
 *   for await (const batch of history.batches()) for (const v of batch) …;
 *   await history.close();
 */

import { DETECTION_BYTES, detectFormat, type DetectedFormat } from './detect-format.js';
import { openInputFile, readAt, type InputFile } from './input-file.js';
import type { OpenedHistory, OpenHistoryOptions } from './opened-history.js';
import { openPbfHistory } from './pbf/pbf-history.js';
import { openXmlHistory } from './xml/xml-history.js';

export type { HistoryFormat, OpenedHistory, OpenHistoryOptions } from './opened-history.js';

/** Opens `path` and recognises its format from its first bytes (the file is closed if that fails). */
export async function openDetected(path: string): Promise<{ input: InputFile; detected: DetectedFormat }> {
  const input = await openInputFile(path);
  try {
    return { input, detected: detectFormat(await readAt(input.handle, 0, Math.min(DETECTION_BYTES, input.size)), input.size, path) };
  } catch (e) {
    await input.handle.close();
    throw e;
  }
}

export async function openHistory(path: string, options: OpenHistoryOptions = {}): Promise<OpenedHistory> {
  const { input, detected } = await openDetected(path);
  if (detected.format === 'pbf') return openPbfHistory(input, path, { workers: options.workers });
  return openXmlHistory(input, path, detected.compression);
}
