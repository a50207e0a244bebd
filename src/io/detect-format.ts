/**
 * Recognising an input by its first bytes (never by its name: downloads get renamed).
 *
 * - PBF: a 4-byte big-endian length, then a BlobHeader whose type is "OSMHeader".
 * - gzip (1f 8b) or bzip2 ("BZh"): taken to wrap OSM XML; the XML reader checks the
 *   decompressed start.
 * - plain XML: `<?xml` or `<osm`, after an optional UTF-8 byte order mark and whitespace.
 */

import { MaphistError } from '../core/errors.js';
import { MAX_BLOB_HEADER_SIZE, parseBlobHeader } from './pbf/blob-framing.js';

export type DetectedFormat = { format: 'pbf' } | { format: 'xml'; compression: 'none' | 'gzip' | 'bzip2' };

/** How many leading bytes detection needs at most (a frame length plus the largest BlobHeader). */
export const DETECTION_BYTES = 4 + MAX_BLOB_HEADER_SIZE;

/** The bytes a PBF file starts with after the frame length: BlobHeader field 1 = "OSMHeader". */
const OSM_HEADER_TYPE = Uint8Array.from([0x0a, 0x09, ...new TextEncoder().encode('OSMHeader')]);

/** `head` is the start of the file (up to DETECTION_BYTES); `size` the file size. */
export function detectFormat(head: Uint8Array, size: number, path: string): DetectedFormat {
  if (size === 0) {
    throw new MaphistError('INPUT_NOT_OSM', `${path} is empty; expected an OSM history file (.osh.pbf, .osh, .osh.gz, .osh.bz2).`, { path });
  }
  if (head[0] === 0x1f && head[1] === 0x8b) return { format: 'xml', compression: 'gzip' };
  if (head[0] === 0x42 && head[1] === 0x5a && head[2] === 0x68) return { format: 'xml', compression: 'bzip2' };
  if (looksLikePbf(head, size, path)) return { format: 'pbf' };
  if (looksLikeXml(head)) return { format: 'xml', compression: 'none' };
  throw notOsm(path, head);
}

function looksLikePbf(head: Uint8Array, size: number, path: string): boolean {
  if (head.length < 4 || head[0] !== 0) return false; // a BlobHeader is < 64 KiB: the first byte is 0
  const headerLength = (head[0]! << 24) | (head[1]! << 16) | (head[2]! << 8) | head[3]!;
  if (headerLength === 0 || headerLength > MAX_BLOB_HEADER_SIZE) return false;
  const available = head.subarray(4, 4 + headerLength);
  if (available.length < headerLength) {
    // The file ends inside the first BlobHeader. If what is there is the start of an OSMHeader
    // BlobHeader, it is a PBF file cut off very early.
    const n = Math.min(available.length, OSM_HEADER_TYPE.length);
    if (n > 0 && available.subarray(0, n).every((b, i) => b === OSM_HEADER_TYPE[i])) {
      throw new MaphistError(
        'INPUT_TRUNCATED',
        `${path} is an OSM PBF file cut off after ${size} bytes, inside its first block header. Get a complete copy and import again.`,
        { path, offset: 0 },
      );
    }
    return false;
  }
  try {
    return parseBlobHeader(available).type === 'OSMHeader';
  } catch {
    return false;
  }
}

/** Plain OSM XML starts with `<?xml` or `<osm` (after an optional BOM and whitespace). */
export function looksLikeXml(head: Uint8Array): boolean {
  let i = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) i = 3;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  const start = new TextDecoder().decode(head.subarray(i, i + 5));
  return start === '<?xml' || start.startsWith('<osm');
}

export function notOsm(path: string, head: Uint8Array): MaphistError {
  const hex = [...head.subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join(' ');
  return new MaphistError(
    'INPUT_NOT_OSM',
    `${path} is not an OSM history file: it is neither OSM PBF nor OSM XML (plain, .gz or .bz2); it starts with bytes ${hex}. ` +
      'Give a full-history file such as a .osh.pbf extract (or convert yours with `osmium cat INPUT -o OUTPUT.osh.pbf`).',
    { path },
  );
}
