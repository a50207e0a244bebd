/**
 * The middle layer of an OSM PBF file: a Blob message holds one block, stored raw or compressed.
 * maphist reads raw and zlib blobs (what osmium, osmosis and the planet dumps write by default);
 * the other compressions are reported as unsupported with a way to re-encode the file.
 *
 * fileformat.proto:  message Blob { optional bytes raw = 1; optional int32 raw_size = 2;
 *   optional bytes zlib_data = 3; optional bytes lzma_data = 4; optional bytes OBSOLETE_bzip2_data = 5;
 *   optional bytes lz4_data = 6; optional bytes zstd_data = 7; }
 */

import { inflateSync } from 'node:zlib';
import { PbfReader } from 'pbf';
import { MaphistError } from '../../core/errors.js';

const UNSUPPORTED_COMPRESSION: Record<number, string> = { 4: 'lzma', 5: 'bzip2', 6: 'lz4', 7: 'zstd' };

/** Where a blob came from, for error messages. */
export interface BlobOrigin {
  path: string;
  offset: number;
}

/** Returns the uncompressed block inside a Blob message. */
export function inflateBlob(blob: Uint8Array, origin: BlobOrigin): Uint8Array {
  const pbf = new PbfReader(blob);
  let rawSize = -1;
  let zlibData: Uint8Array | undefined;
  let raw: Uint8Array | undefined;
  try {
    while (pbf.pos < pbf.length) {
      const key = pbf.readVarint();
      const field = key >> 3;
      pbf.type = key & 7;
      if (field === 1) raw = pbf.readBytes();
      else if (field === 2) rawSize = pbf.readVarint(true);
      else if (field === 3) zlibData = pbf.readBytes();
      else if (UNSUPPORTED_COMPRESSION[field] !== undefined) throw unsupportedCompression(UNSUPPORTED_COMPRESSION[field]!, origin);
      else pbf.skip(key);
    }
  } catch (e) {
    if (e instanceof MaphistError) throw e;
    throw corruptBlob(origin, 'its Blob message cannot be decoded');
  }
  // readBytes() does not check bounds; a length running past the end means a damaged blob.
  if (pbf.pos !== blob.length) throw corruptBlob(origin, 'its Blob message is malformed');

  if (raw !== undefined) return raw;
  if (zlibData === undefined) throw corruptBlob(origin, 'it holds no data');
  let inflated: Uint8Array;
  try {
    // With an output chunk a little larger than the declared size, zlib inflates into a single
    // buffer; with the default 16 KiB chunks it collects pieces and then copies them together.
    inflated = inflateSync(zlibData, rawSize > 0 ? { chunkSize: rawSize + 64 } : {});
  } catch (e) {
    throw corruptBlob(origin, `its zlib data does not inflate (${(e as Error).message})`);
  }
  if (rawSize >= 0 && inflated.length !== rawSize) {
    throw corruptBlob(origin, `it inflates to ${inflated.length} bytes instead of the declared ${rawSize}`);
  }
  return inflated;
}

export function corruptBlob(origin: BlobOrigin, what: string): MaphistError {
  return new MaphistError(
    'INPUT_CORRUPT',
    `The block at byte ${origin.offset} of ${origin.path} is damaged: ${what}. ` + 'Get a fresh copy of the file, or check it with `osmium fileinfo -e`.',
    { path: origin.path, offset: origin.offset },
  );
}

function unsupportedCompression(name: string, origin: BlobOrigin): MaphistError {
  return new MaphistError(
    'INPUT_UNSUPPORTED',
    `The block at byte ${origin.offset} of ${origin.path} is ${name}-compressed; maphist reads zlib-compressed and ` +
      'uncompressed PBF blocks only. Re-encode the file with `osmium cat INPUT -o OUTPUT.osh.pbf` (zlib is the default) and import that.',
    { path: origin.path, offset: origin.offset, compression: name },
  );
}
