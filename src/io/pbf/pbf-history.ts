/**
 * The PBF reader: frames the file into blobs (main thread), decodes OSMData blobs in worker
 * threads, and turns the decoded columns into records on the main thread, in file order.
 *
 *   main thread:  read blob ─► post to worker ─┐            ┌─► materialize records ─► consumer
 *   worker(s):                                 └─► inflate + decode to columns ─┘
 *
 * On a 2-core machine that is one worker doing the zlib and protobuf work while the main thread
 * builds records and runs the consumer.
 */

import { availableParallelism } from 'node:os';
import { MaphistError } from '../../core/errors.js';
import { OSM_TYPE_CODE, type FileHeader, type OsmVersion } from '../../core/osm.js';
import type { InputFile } from '../input-file.js';
import type { OpenedHistory } from '../opened-history.js';
import { VersionOrderChecker } from '../version-order.js';
import { BlobFramer } from './blob-framing.js';
import { inflateBlob } from './blob-inflate.js';
import { BlockPipeline } from './block-pipeline.js';
import { DecodePool } from './decode-pool.js';
import type { BlockTransport } from './decode-task.js';
import { decodeHeaderBlock } from './header-block.js';
import { materializeRows, nextBatchEnd, PreviousMembers } from './materialize.js';

export interface PbfReaderOptions {
  /** Decoder threads; default max(1, CPUs − 1); 0 decodes on the main thread. */
  workers?: number;
  /** How blocks come back from the workers; see decode-task.ts. Default 'columns'. */
  transport?: BlockTransport;
}

export function defaultWorkerCount(): number {
  return Math.max(1, availableParallelism() - 1);
}

/** Opens a PBF history whose first bytes were recognised as an OSMHeader blob. Takes over `input`. */
export async function openPbfHistory(input: InputFile, path: string, options: PbfReaderOptions = {}): Promise<OpenedHistory> {
  const framer = new BlobFramer(input.handle, path);
  let header: FileHeader;
  let headerEnd: number;
  try {
    const first = await framer.next();
    if (first === null || first.type !== 'OSMHeader') {
      throw new MaphistError('INPUT_NOT_OSM', `${path} does not start with an OSMHeader block, so it is not an OSM PBF file.`, { path });
    }
    const origin = { path, offset: first.offset };
    header = decodeHeaderBlock(inflateBlob(first.data, origin), origin);
    headerEnd = first.end;
  } catch (e) {
    await input.handle.close();
    throw e;
  }
  return new PbfHistory(input, path, header, headerEnd, framer, options);
}

class PbfHistory implements OpenedHistory {
  readonly format = 'pbf' as const;
  private bytesRead: number;
  private started = false;
  private closed = false;
  private pool: DecodePool | undefined;
  private pipeline: BlockPipeline | undefined;

  constructor(
    private readonly input: InputFile,
    private readonly path: string,
    readonly header: FileHeader,
    headerEnd: number,
    private readonly framer: BlobFramer,
    private readonly options: PbfReaderOptions,
  ) {
    this.bytesRead = headerEnd;
  }

  progress(): { bytesRead: number; bytesTotal: number } {
    return { bytesRead: this.bytesRead, bytesTotal: this.input.size };
  }

  async *batches(): AsyncGenerator<OsmVersion[]> {
    if (this.started) throw new Error('OpenedHistory.batches() can be iterated only once');
    if (this.closed) throw new Error('OpenedHistory.batches() called after close()');
    this.started = true;

    const requested = this.options.workers;
    const workers = requested !== undefined && Number.isFinite(requested) ? Math.max(0, Math.floor(requested)) : defaultWorkerCount();
    const pool = (this.pool = new DecodePool(workers, this.path, this.options.transport ?? 'columns'));
    // At most two blobs per worker ahead of the consumer: one being decoded, one queued, so a
    // worker never idles waiting for the main thread to read. Without workers, decoding ahead
    // gains nothing (it is the same thread), so only the next block is prepared.
    const pipeline = (this.pipeline = new BlockPipeline(this.framer, pool, workers === 0 ? 1 : 2 * workers));
    const order = new VersionOrderChecker();
    const previousMembers = new PreviousMembers();
    try {
      for (;;) {
        const item = await pipeline.next();
        if (item === null) break;
        const { outcome } = item;
        if (outcome.kind === 'error') throw new MaphistError(outcome.code, outcome.message, outcome.details);
        this.bytesRead = item.end;
        if (outcome.kind === 'columns') {
          const block = outcome.block;
          for (let from = 0; from < block.count; ) {
            const to = nextBatchEnd(block, from);
            yield materializeRows(block, from, to, order, previousMembers);
            from = to;
          }
        } else {
          const records = outcome.records;
          for (const r of records) order.check(OSM_TYPE_CODE[r.type], r.id, r.version);
          if (records.length > 0) yield records;
        }
      }
      this.bytesRead = this.input.size;
    } finally {
      await this.close();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pipeline?.stop();
    await this.pool?.terminate();
    await this.input.handle.close();
  }
}
