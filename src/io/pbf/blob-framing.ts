/**
 * The outer layer of an OSM PBF file: a sequence of
 *
 *     [4-byte big-endian length][BlobHeader (length bytes)][Blob (BlobHeader.datasize bytes)]
 *
 * This module cuts the file into (header, blob bytes) pairs while reading it through a file
 * handle in chunks, so the whole file is never in memory. Each blob's bytes land in their own
 * ArrayBuffer, which can then be transferred to a worker thread without copying.
 *
 * fileformat.proto:  message BlobHeader { required string type = 1; optional bytes indexdata = 2;
 *                                         required int32 datasize = 3; }
 */

import { PbfReader } from 'pbf';
import type { FileHandle } from 'node:fs/promises';
import { MaphistError } from '../../core/errors.js';

/** Limits from the PBF specification (osmium enforces the same). */
export const MAX_BLOB_HEADER_SIZE = 64 * 1024;
export const MAX_BLOB_SIZE = 32 * 1024 * 1024;

export interface BlobHeader {
  type: string;
  datasize: number;
}

export interface FramedBlob {
  /** BlobHeader.type: "OSMHeader", "OSMData", or something to skip. */
  type: string;
  /** The serialized Blob message (still compressed). Owns its whole ArrayBuffer. */
  data: Uint8Array;
  /** File offset where this blob's frame (the 4-byte length) starts; for error messages. */
  offset: number;
  /** File offset just after the blob: bytes consumed once this blob is done. */
  end: number;
}

/** Parses a BlobHeader message; throws a plain Error on malformed input (the caller knows the context). */
export function parseBlobHeader(bytes: Uint8Array): BlobHeader {
  const header = { type: '', datasize: -1 };
  new PbfReader(bytes).readFields((tag, h, pbf) => {
    if (tag === 1) h.type = pbf.readString();
    else if (tag === 3) h.datasize = pbf.readVarint(true);
  }, header);
  if (header.datasize < 0) throw new Error('BlobHeader has no datasize');
  return header;
}

const READ_CHUNK = 1024 * 1024;

export class BlobFramer {
  /** Read buffer: bytes [bufPos, bufEnd) are file bytes starting at file offset `bufFileOffset + bufPos`. */
  private buf = new Uint8Array(READ_CHUNK);
  private bufPos = 0;
  private bufEnd = 0;
  private bufFileOffset = 0;
  /** File offset of the next byte to be handed out. */
  private offset = 0;

  constructor(
    private readonly handle: FileHandle,
    private readonly path: string,
  ) {}

  /** The next blob, or null at a clean end of file (exactly between two blobs). */
  async next(): Promise<FramedBlob | null> {
    const frameOffset = this.offset;
    if (await this.atEnd()) return null;

    const lengthBytes = await this.readExactly(new Uint8Array(4), frameOffset, 'the length of a block header');
    const headerLength = new DataView(lengthBytes.buffer).getUint32(0, false);
    if (headerLength === 0 || headerLength > MAX_BLOB_HEADER_SIZE) {
      throw this.corrupt(frameOffset, `a block header length of ${headerLength} bytes (allowed: 1 to ${MAX_BLOB_HEADER_SIZE})`);
    }
    const headerBytes = await this.readExactly(new Uint8Array(headerLength), frameOffset, 'a block header');
    let header: BlobHeader;
    try {
      header = parseBlobHeader(headerBytes);
    } catch {
      throw this.corrupt(frameOffset, 'a block header that cannot be decoded');
    }
    if (header.datasize > MAX_BLOB_SIZE) {
      throw this.corrupt(frameOffset, `a block of ${header.datasize} bytes (the limit is ${MAX_BLOB_SIZE})`);
    }
    const data = await this.readExactly(new Uint8Array(header.datasize), frameOffset, `a ${header.type} block`);
    return { type: header.type, data, offset: frameOffset, end: this.offset };
  }

  private async atEnd(): Promise<boolean> {
    if (this.bufPos < this.bufEnd) return false;
    const fileOffset = this.bufFileOffset + this.bufEnd;
    const { bytesRead } = await this.handle.read(this.buf, 0, READ_CHUNK, fileOffset);
    this.bufFileOffset = fileOffset;
    this.bufPos = 0;
    this.bufEnd = bytesRead;
    return bytesRead === 0;
  }

  /**
   * Fills `target` with the next bytes of the file. Small reads are served from the chunk
   * buffer; the bulk of a large blob is read straight into its own buffer (no second copy).
   */
  private async readExactly(target: Uint8Array, frameOffset: number, what: string): Promise<Uint8Array> {
    let filled = 0;
    const need = target.length;
    while (filled < need) {
      const buffered = this.bufEnd - this.bufPos;
      if (buffered > 0) {
        const n = Math.min(buffered, need - filled);
        target.set(this.buf.subarray(this.bufPos, this.bufPos + n), filled);
        this.bufPos += n;
        filled += n;
        continue;
      }
      const fileOffset = this.bufFileOffset + this.bufEnd;
      const remaining = need - filled;
      if (remaining >= READ_CHUNK) {
        const { bytesRead } = await this.handle.read(target, filled, remaining, fileOffset);
        if (bytesRead === 0) throw this.truncated(frameOffset, what, need - filled);
        filled += bytesRead;
        this.bufFileOffset += this.bufEnd + bytesRead;
        this.bufPos = this.bufEnd = 0;
      } else {
        const { bytesRead } = await this.handle.read(this.buf, 0, READ_CHUNK, fileOffset);
        if (bytesRead === 0) throw this.truncated(frameOffset, what, need - filled);
        this.bufFileOffset = fileOffset;
        this.bufPos = 0;
        this.bufEnd = bytesRead;
      }
    }
    this.offset += need;
    return target;
  }

  private truncated(frameOffset: number, what: string, missing: number): MaphistError {
    return new MaphistError(
      'INPUT_TRUNCATED',
      `${this.path} ends in the middle of ${what} (the block starting at byte ${frameOffset}; ${missing} more bytes expected). ` +
        'The file was probably cut off while downloading or copying; get a complete copy and import again.',
      { path: this.path, offset: frameOffset },
    );
  }

  private corrupt(frameOffset: number, what: string): MaphistError {
    return new MaphistError(
      'INPUT_CORRUPT',
      `${this.path} has ${what} at byte ${frameOffset}; the file is damaged. Get a fresh copy, or check it with \`osmium fileinfo -e\`.`,
      { path: this.path, offset: frameOffset },
    );
  }
}
