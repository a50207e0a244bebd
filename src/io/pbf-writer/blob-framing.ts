import { PbfWriter } from 'pbf';
import { promisify } from 'node:util';
import { deflate } from 'node:zlib';
import { BLOB, BLOB_HEADER, type BlobType } from './osm-pbf-fields.js';

const deflateAsync = promisify(deflate);

/** zlib's output buffer; a whole compressed block fits, so each block is one round trip to the thread pool. */
const ZLIB_CHUNK_BYTES = 1 << 20;

/**
 * Compresses one block and frames it as the PBF file format wants it: a 4-byte big-endian
 * BlobHeader length, the BlobHeader, then the Blob with `raw_size` and `zlib_data`.
 * Compression runs on libuv's thread pool, so several blocks compress while the next is encoded.
 */
export async function frameBlob(type: BlobType, block: Uint8Array, zlibLevel: number): Promise<Buffer> {
  const compressed = await deflateAsync(block, { level: zlibLevel, chunkSize: ZLIB_CHUNK_BYTES });

  const blob = new PbfWriter(new Uint8Array(compressed.length + 16));
  blob.writeVarintField(BLOB.rawSize, block.length);
  blob.writeBytesField(BLOB.zlibData, compressed);
  const blobBytes = blob.finish();

  const header = new PbfWriter(new Uint8Array(32));
  header.writeStringField(BLOB_HEADER.type, type);
  header.writeVarintField(BLOB_HEADER.datasize, blobBytes.length);
  const headerBytes = header.finish();

  const framed = Buffer.allocUnsafe(4 + headerBytes.length + blobBytes.length);
  framed.writeUInt32BE(headerBytes.length, 0);
  framed.set(headerBytes, 4);
  framed.set(blobBytes, 4 + headerBytes.length);
  return framed;
}
