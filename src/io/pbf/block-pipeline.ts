/**
 * Reading ahead, in order, with a bound. While the consumer works on block k, the main thread
 * keeps reading blobs k+1, k+2, … from the file and hands them to the decoder pool, but never
 * holds more than `maxAhead` blobs that the consumer has not taken yet (read, queued in a worker,
 * being decoded, or decoded and waiting). That bounds memory to a few blocks whatever the file
 * size, and makes a slow consumer slow down the reading instead of piling up decoded blocks.
 *
 * Results come back in file order because the queue is a FIFO of per-blob promises: next()
 * always awaits the oldest one, however the workers finish. A read error (a truncated file)
 * takes its place in the queue, so the consumer first gets every complete block before it.
 */

import type { BlobFramer } from './blob-framing.js';
import type { DecodePool } from './decode-pool.js';
import type { DecodeOutcome } from './decode-task.js';

export interface PipelineItem {
  outcome: DecodeOutcome;
  /** File offset just after this blob (bytes consumed once the consumer has this block). */
  end: number;
}

interface QueuedBlob {
  promise: Promise<DecodeOutcome>;
  end: number;
}

export class BlockPipeline {
  private readonly queue: QueuedBlob[] = [];
  private reading: Promise<void> | null = null;
  private exhausted = false;
  private seq = 0;

  private readonly maxAhead: number;

  constructor(
    private readonly framer: BlobFramer,
    private readonly pool: DecodePool,
    maxAhead: number,
  ) {
    this.maxAhead = Math.max(1, maxAhead); // 0 would never read anything
  }

  /** The next decoded block in file order, or null after the last one. */
  async next(): Promise<PipelineItem | null> {
    this.startReading();
    while (this.queue.length === 0) {
      if (this.exhausted) return null;
      await this.reading;
      this.startReading();
    }
    const head = this.queue.shift()!;
    this.startReading(); // a slot is free again: keep the workers fed while the consumer waits
    return { outcome: await head.promise, end: head.end };
  }

  /** Stops reading ahead and waits for a read in progress (so the file can be closed safely). */
  async stop(): Promise<void> {
    this.exhausted = true;
    await this.reading;
  }

  private startReading(): void {
    if (this.reading || this.exhausted) return;
    this.reading = this.readAhead().finally(() => {
      this.reading = null;
    });
  }

  private async readAhead(): Promise<void> {
    while (!this.exhausted && this.queue.length < this.maxAhead) {
      let blob;
      try {
        blob = await this.framer.next();
      } catch (e) {
        this.enqueue(Promise.reject(e as Error), -1);
        this.exhausted = true;
        return;
      }
      if (blob === null) {
        this.exhausted = true;
        return;
      }
      // The spec says to skip blob types one does not know; a second OSMHeader is skipped too.
      if (blob.type !== 'OSMData') continue;
      this.enqueue(this.pool.decode({ seq: this.seq++, blob: blob.data, offset: blob.offset }), blob.end);
    }
  }

  private enqueue(promise: Promise<DecodeOutcome>, end: number): void {
    // The rejection is handled when the consumer reaches this entry; until then (or if it never
    // does) Node must not report it as unhandled.
    promise.catch(() => {});
    this.queue.push({ promise, end });
  }
}
