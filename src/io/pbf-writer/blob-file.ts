import { closeSync, openSync, write } from 'node:fs';
import { promisify } from 'node:util';
import { frameBlob } from './blob-framing.js';
import type { BlobType } from './osm-pbf-fields.js';

const writeAsync = promisify(write);

/** Blocks compressed or waiting to be written at once; bounds memory while keeping the thread pool busy. */
const MAX_BLOBS_IN_FLIGHT = 8;

/**
 * The output file as a sequence of blobs. Blobs are compressed concurrently but written in the
 * order they were added. `add` returns a promise only when too many blobs are in flight: the
 * caller awaits it to let the file catch up (back-pressure).
 */
export class BlobFile {
  private readonly fd: number;
  private lastWrite: Promise<void> = Promise.resolve();
  private readonly inFlight: Promise<void>[] = [];
  private failure: { error: unknown } | undefined;
  private closed = false;
  bytesWritten = 0;

  constructor(
    path: string,
    private readonly zlibLevel: number,
  ) {
    this.fd = openSync(path, 'w');
  }

  add(type: BlobType, block: Uint8Array): Promise<void> | undefined {
    if (this.closed) throw new Error('pbf writer: blob added after close()');
    this.throwIfFailed();
    const framed = frameBlob(type, block, this.zlibLevel);
    const written = Promise.all([framed, this.lastWrite]).then(([bytes]) => this.writeAll(bytes));
    // Remember the first failure here, so that a failed blob nobody awaits yet is no unhandled rejection.
    written.catch((error: unknown) => {
      this.failure ??= { error };
    });
    this.lastWrite = written;
    this.inFlight.push(written);
    if (this.inFlight.length > MAX_BLOBS_IN_FLIGHT) return this.inFlight.shift();
    return undefined;
  }

  /** Waits for every blob to be on disk, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.lastWrite.catch(() => undefined);
      this.throwIfFailed();
    } finally {
      closeSync(this.fd);
    }
  }

  private async writeAll(bytes: Buffer): Promise<void> {
    let offset = 0;
    while (offset < bytes.length) {
      const { bytesWritten } = await writeAsync(this.fd, bytes, offset, bytes.length - offset, null);
      offset += bytesWritten;
    }
    this.bytesWritten += bytes.length;
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}
