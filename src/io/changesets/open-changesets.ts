/**
 * Reading a changeset dump: plain XML, gzip or bzip2 (recognised by their first bytes, as history
 * files are), streamed in batches so that a dump of tens of GB needs no more memory than a batch.
 *
 *   for await (const batch of readChangesets('changesets-latest.osm.bz2')) for (const c of batch) …;
 */
import { MaphistError } from '../../core/errors.js';
import { looksLikeXml } from '../detect-format.js';
import { openDetected } from '../open-history.js';
import { XmlSource } from '../xml/xml-source.js';
import { ChangesetParser, type ChangesetRecord } from './changeset-parser.js';

export type { ChangesetRecord } from './changeset-parser.js';

export const CHANGESET_BATCH = 4096;

/** The changesets of `path`, in file order, in batches; `onProgress` gets the compressed bytes read. */
export async function* readChangesets(path: string, onProgress?: (bytesRead: number, bytesTotal: number) => void): AsyncGenerator<ChangesetRecord[]> {
  const { input, detected } = await openDetected(path);
  if (detected.format === 'pbf') {
    await input.handle.close();
    throw new MaphistError('INPUT_NOT_OSM', `${path} is an OSM PBF data file, not a changeset dump (changesets-*.osm.bz2, XML).`, { path });
  }
  const source = new XmlSource(input, path, detected.compression);
  const parser = new ChangesetParser(path, CHANGESET_BATCH);
  try {
    let first = true;
    for (;;) {
      const chunk = await source.next();
      if (chunk === null) break;
      if (first && detected.compression !== 'none' && !looksLikeXml(chunk)) {
        throw new MaphistError('INPUT_NOT_OSM', `${path} (decompressed) is not XML, so not an OSM changeset dump.`, { path });
      }
      first = false;
      parser.write(chunk);
      for (let b = parser.takeFullBatch(); b !== undefined; b = parser.takeFullBatch()) yield b;
      onProgress?.(source.bytesRead(), input.size);
    }
    parser.end();
    for (let b = parser.takeFullBatch(); b !== undefined; b = parser.takeFullBatch()) yield b;
    const rest = parser.takeRest();
    if (rest.length > 0) yield rest;
  } finally {
    await source.close();
  }
}
