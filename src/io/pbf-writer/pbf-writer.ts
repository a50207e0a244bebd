import { OSM_TYPE_CODE, type FileHeader, type OsmVersion } from '../../core/osm.js';
import { MAX_ENTITIES_PER_BLOCK, SOFT_MAX_BLOCK_BYTES } from './block-limits.js';
import { BlobFile } from './blob-file.js';
import { DenseNodesEncoder } from './dense-nodes-encoder.js';
import { encodeHeaderBlock } from './header-block.js';
import { encodePrimitiveBlock } from './primitive-block.js';
import type { PrimitiveGroupEncoder } from './primitive-group-encoder.js';
import { RelationsEncoder } from './relations-encoder.js';
import { SortOrderGuard } from './sort-order-guard.js';
import { StringTable } from './string-table.js';
import { WaysEncoder } from './ways-encoder.js';

export interface PbfWriter {
  /**
   * Adds one version. Versions must come sorted by type (nodes, ways, relations), id, version.
   * Returns a promise when the writer wants the caller to wait (blocks are piling up unwritten):
   * `const wait = writer.write(v); if (wait) await wait;`.
   */
  write(version: OsmVersion): void | Promise<void>;
  /** Writes the last block and closes the file; the file is complete once this resolves. */
  close(): Promise<void>;
}

export interface PbfWriterOptions {
  /** zlib level of the blobs, 1 (fastest) to 9 (smallest); default 6, zlib's default. */
  zlibLevel?: number;
}

/**
 * Streams an OSM history PBF file: an OSMHeader block, then OSMData blocks of at most 8000
 * versions of one type each (DenseNodes with DenseInfo, Ways, Relations, visible flags included),
 * zlib-compressed, granularity 100 and date_granularity 1000.
 */
export function createPbfWriter(path: string, header: FileHeader, options: PbfWriterOptions = {}): PbfWriter {
  return new HistoryPbfWriter(path, header, options.zlibLevel ?? 6);
}

class HistoryPbfWriter implements PbfWriter {
  private readonly file: BlobFile;
  private readonly strings = new StringTable();
  /** Indexed by OSM_TYPE_CODE, so `encoders[OSM_TYPE_CODE[v.type]]` always takes `v`'s type. */
  private readonly encoders: readonly PrimitiveGroupEncoder<OsmVersion>[] = [new DenseNodesEncoder(), new WaysEncoder(), new RelationsEncoder()];
  private currentBlock: PrimitiveGroupEncoder<OsmVersion> | undefined;
  private readonly sortOrder = new SortOrderGuard();
  private closed = false;

  constructor(path: string, header: FileHeader, zlibLevel: number) {
    this.file = new BlobFile(path, zlibLevel);
    void this.file.add('OSMHeader', encodeHeaderBlock(header));
  }

  write(version: OsmVersion): void | Promise<void> {
    if (this.closed) throw new Error('pbf writer: write() after close()');
    this.sortOrder.check(version);
    const encoder = this.encoders[OSM_TYPE_CODE[version.type]]!;
    const wait = encoder !== this.currentBlock || this.blockIsFull() ? this.flushBlock() : undefined;
    this.currentBlock = encoder;
    encoder.add(version, this.strings);
    return wait;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.flushBlock();
    } finally {
      await this.file.close();
    }
  }

  private blockIsFull(): boolean {
    const block = this.currentBlock;
    return block !== undefined && (block.count >= MAX_ENTITIES_PER_BLOCK || block.approximateBytes + this.strings.byteSize >= SOFT_MAX_BLOCK_BYTES);
  }

  private flushBlock(): Promise<void> | undefined {
    const block = this.currentBlock;
    if (block === undefined || block.count === 0) return undefined;
    const encoded = encodePrimitiveBlock(this.strings, block.encodeGroup());
    block.clear();
    this.strings.clear();
    return this.file.add('OSMData', encoded);
  }
}
