/**
 * The bytes of an XML history file, decompressed if needed (gzip via node:zlib, bzip2 via
 * unbzip2-stream), as a pull-style sequence of chunks. Streams keep memory bounded: only a
 * read-ahead buffer or two of the file is held at a time.
 *
 * Decompression failures become INPUT_TRUNCATED (the compressed stream ends early) or
 * INPUT_CORRUPT (the compressed data is damaged).
 */

import { Readable, type Duplex } from 'node:stream';
import { createGunzip } from 'node:zlib';
import unbzip2Stream from 'unbzip2-stream';
import { MaphistError } from '../../core/errors.js';
import type { InputFile } from '../input-file.js';

const READ_CHUNK = 256 * 1024;

export type XmlCompression = 'none' | 'gzip' | 'bzip2';

/**
 * unbzip2-stream is a classic (pre-streams2) "through" stream. Readable.wrap() is not usable on
 * it: it destroys the wrapper on the classic stream's 'close', which comes right after 'end',
 * before the consumer has read the last chunks ("Premature close"). This adapter ends the
 * Readable on 'end' only, and passes backpressure on with pause/resume.
 */
function fromClassicStream(classic: Duplex): Readable {
  const readable = new Readable({ read: () => void classic.resume() });
  classic.on('data', (chunk: Buffer) => {
    if (!readable.push(chunk)) classic.pause();
  });
  classic.on('end', () => readable.push(null));
  classic.on('error', (e: Error) => readable.destroy(e));
  return readable;
}

export class XmlSource {
  private readonly fileStream;
  private readonly chunks: AsyncIterator<Uint8Array>;
  private fileEnded = false;

  constructor(
    private readonly input: InputFile,
    private readonly path: string,
    private readonly compression: XmlCompression,
  ) {
    this.fileStream = input.handle.createReadStream({ start: 0, highWaterMark: READ_CHUNK, autoClose: false });
    this.fileStream.on('end', () => {
      this.fileEnded = true;
    });
    let decompressed: Readable;
    if (compression === 'gzip') {
      decompressed = this.fileStream.pipe(createGunzip());
    } else if (compression === 'bzip2') {
      decompressed = fromClassicStream(this.fileStream.pipe(unbzip2Stream()));
    } else {
      decompressed = this.fileStream;
    }
    // pipe() does not forward read errors; do it so they surface from the iteration.
    if (decompressed !== this.fileStream) this.fileStream.on('error', (e) => decompressed.destroy(e));
    this.chunks = decompressed[Symbol.asyncIterator]();
  }

  /** Compressed bytes read from the file so far. */
  bytesRead(): number {
    return this.fileStream.bytesRead;
  }

  /** The next chunk of (decompressed) XML bytes, or null at the end. */
  async next(): Promise<Uint8Array | null> {
    try {
      const { value, done } = await this.chunks.next();
      return done ? null : (value as Uint8Array);
    } catch (e) {
      throw this.describeFailure(e as Error & { code?: string });
    }
  }

  async close(): Promise<void> {
    this.fileStream.destroy();
    await this.input.handle.close().catch(() => {});
  }

  private describeFailure(e: Error & { code?: string }): MaphistError {
    if (e instanceof MaphistError) return e;
    const kind = this.compression === 'gzip' ? 'gzip' : 'bzip2';
    if (this.compression === 'none') {
      return new MaphistError('INPUT_NOT_FOUND', `${this.path} could not be read (${e.message}).`, { path: this.path });
    }
    // zlib says Z_BUF_ERROR "unexpected end of file". unbzip2-stream says "input stream ended
    // prematurely" when the data ends between blocks, and fails with a TypeError from its bit
    // reader when the data ends inside a block (it only decodes a partial block once the file
    // has ended): both mean the compressed stream is cut off.
    const endedEarly =
      e.code === 'Z_BUF_ERROR' ||
      /unexpected end|ended prematurely/i.test(e.message) ||
      (this.compression === 'bzip2' && this.fileEnded && e instanceof TypeError);
    if (endedEarly) {
      return new MaphistError(
        'INPUT_TRUNCATED',
        `${this.path} ends in the middle of its ${kind} stream; the file was probably cut off while downloading or copying. ` +
          'Get a complete copy and import again.',
        { path: this.path },
      );
    }
    return new MaphistError('INPUT_CORRUPT', `${this.path} has damaged ${kind} data (${e.message}). Get a fresh copy of the file.`, { path: this.path });
  }
}
