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

/** The decompressed bytes of a dump, after refusing a PBF and a compressed file that is not XML. */
async function* dumpChunks(path: string, onProgress?: (bytesRead: number, bytesTotal: number) => void): AsyncGenerator<Uint8Array> {
  const { input, detected } = await openDetected(path);
  if (detected.format === 'pbf') {
    await input.handle.close();
    throw new MaphistError('INPUT_NOT_OSM', `${path} is an OSM PBF data file, not a changeset dump (changesets-*.osm.bz2, XML).`, { path });
  }
  const source = new XmlSource(input, path, detected.compression);
  try {
    let first = true;
    for (let chunk = await source.next(); chunk !== null; chunk = await source.next()) {
      if (first && detected.compression !== 'none' && !looksLikeXml(chunk)) {
        throw new MaphistError('INPUT_NOT_OSM', `${path} (decompressed) is not XML, so not an OSM changeset dump.`, { path });
      }
      first = false;
      yield chunk;
      onProgress?.(source.bytesRead(), input.size);
    }
  } finally {
    await source.close();
  }
}

/** The changesets of `path`, in file order, in batches; `onProgress` gets the compressed bytes read. */
export async function* readChangesets(path: string, onProgress?: (bytesRead: number, bytesTotal: number) => void): AsyncGenerator<ChangesetRecord[]> {
  const parser = new ChangesetParser(path, CHANGESET_BATCH);
  for await (const chunk of dumpChunks(path, onProgress)) {
    parser.write(chunk);
    for (let b = parser.takeFullBatch(); b !== undefined; b = parser.takeFullBatch()) yield b;
  }
  parser.end();
  for (let b = parser.takeFullBatch(); b !== undefined; b = parser.takeFullBatch()) yield b;
  const rest = parser.takeRest();
  if (rest.length > 0) yield rest;
}

/** How much of a dump `checkChangesetDump` reads at most before it is satisfied. */
const CHECK_BYTES = 4 * 1024 * 1024;

/**
 * Fails as `readChangesets` would on a file that is missing or not a changeset dump (a PBF, another
 * XML document, map data), reading only its beginning: up to its first <changeset> (or 4 MB). A
 * file without a changeset there is read to its end, so a damaged or cut-off small file fails too.
 * `maphist import --changesets` runs it before the history import, which may take hours, rather
 * than finding out after it; a dump damaged further on still fails the import atomically.
 */
export async function checkChangesetDump(path: string): Promise<void> {
  const parser = new ChangesetParser(path, CHANGESET_BATCH);
  let bytes = 0;
  for await (const chunk of dumpChunks(path)) {
    parser.write(chunk);
    parser.takeRest();
    bytes += chunk.byteLength;
    if (parser.sawChangeset || bytes >= CHECK_BYTES) return;
  }
  parser.end();
}
