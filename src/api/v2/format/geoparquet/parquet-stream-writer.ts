/**
 * A GeoParquet file written to a Node stream as it is produced: rows are buffered column by
 * column, and every ROW_GROUP_ROWS rows become one row group that is encoded (ZSTD) and written
 * to `out` at once. The next row group is only encoded after `out` has drained (backpressure), so
 * memory holds at most one row group whatever the size of the extract. The footer (with the `geo`
 * metadata, known only at the end) is written by finish(). It is the GeoParquet writer of the
 * shared extraction pipeline (api/common/extraction-stream.ts): records in, bytes out.
 */
import type { Writable } from 'node:stream';
import { ByteWriter, ParquetWriter, type ColumnSource } from 'hyparquet-writer';
import type { ExtractionRecord, ParquetFileSpec } from '../../../../query/v2-requests.js';
import { writeWithDrain, type RecordWriter } from '../../../common/extraction-stream.js';
import {
  columnsOf,
  GeoMetadataCollector,
  geoMetadataOf,
  parquetSchemaOf,
  STATISTICS_COLUMNS,
  type ColumnName,
  type ParquetKind,
  type ParquetRow,
} from './geoparquet-schema.js';
import { zstdCompressor } from './zstd.js';

const PLAIN_COLUMNS = new Set<ColumnName>(['osm_id', 'edit_timestamp', 'valid_to_timestamp', 'changeset_id', 'bbox', 'geom']);

/** Rows per row group (the reference's). */
export const ROW_GROUP_ROWS = 10_000;

/** Writes the bytes produced for a row group to a Writable, waiting for 'drain' when its buffer is full. */
class StreamByteWriter extends ByteWriter {
  constructor(
    private readonly out: Writable,
    private readonly signal: AbortSignal,
  ) {
    super(1 << 20);
  }

  /** Called by ParquetWriter after each row group, and by us after the footer. */
  flush(): Promise<void> | undefined {
    if (this.index === 0) return undefined;
    const chunk = new Uint8Array(this.buffer.slice(0, this.index));
    this.index = 0;
    return writeWithDrain(this.out, chunk, this.signal);
  }

  override finish(): void {}
}

export class GeoParquetStreamWriter implements RecordWriter<ExtractionRecord> {
  private readonly columns: ColumnName[];
  private buffers: unknown[][];
  private rows = 0;
  private readonly byteWriter: StreamByteWriter;
  private readonly writer: ParquetWriter;
  readonly geo = new GeoMetadataCollector();
  rowsWritten = 0;
  rowGroupsWritten = 0;

  /** `signal` ends a wait for the output's drain (the request's signal: its client may be gone). */
  constructor(
    kind: ParquetKind,
    out: Writable,
    signal: AbortSignal,
    private readonly extraMetadata: { key: string; value: string }[] = [],
  ) {
    this.columns = columnsOf(kind);
    this.buffers = this.columns.map(() => []);
    this.byteWriter = new StreamByteWriter(out, signal);
    this.writer = new ParquetWriter({
      writer: this.byteWriter,
      schema: parquetSchemaOf(kind),
      codec: 'ZSTD',
      compressors: { ZSTD: zstdCompressor() },
      kvMetadata: [],
      createdBy: 'maphist (hyparquet-writer)',
    });
  }

  /** Adds a row; when a row group is full, resolves once it has been written to the stream. */
  add(row: ParquetRow): Promise<void> | undefined {
    const cols = this.columns;
    for (let i = 0; i < cols.length; i++) {
      const v = row[cols[i]];
      this.buffers[i].push(v === undefined ? null : v);
    }
    this.geo.add(row.geom_type, row.bbox);
    if (++this.rows >= ROW_GROUP_ROWS) return this.flushRowGroup();
    return undefined;
  }

  private async flushRowGroup(): Promise<void> {
    if (this.rows === 0) return;
    const columnData: ColumnSource[] = this.columns.map((name, i) => ({
      name,
      data: this.buffers[i] as ColumnSource['data'],
      statistics: STATISTICS_COLUMNS.has(name),
      // Mostly distinct values: skip the writer's dictionary trial (ZSTD compresses the plain pages).
      ...(PLAIN_COLUMNS.has(name) ? { encoding: 'PLAIN' as const } : {}),
    }));
    const n = this.rows;
    this.buffers = this.columns.map(() => []);
    this.rows = 0;
    await this.writer.write({ columnData, rowGroupSize: n });
    this.rowsWritten += n;
    this.rowGroupsWritten++;
  }

  /** Writes the last row group and the footer (with the `geo` metadata) to the stream; does not end it. */
  async finish(): Promise<void> {
    await this.flushRowGroup();
    this.writer.kvMetadata = [{ key: 'geo', value: this.geo.toJson() }, ...this.extraMetadata];
    this.writer.finish();
    await this.byteWriter.flush();
  }
}

/** The file's own key-value metadata besides `geo`: what it holds and the data's timestamp. */
export function maphistMetadata(kind: ParquetKind, dataTimestamp: string): { key: string; value: string }[] {
  return [{ key: 'maphist', value: JSON.stringify({ kind, dataTimestamp }) }];
}

/**
 * The file an engine-side writer writes (query/v2-requests.ts `RecordExtraction.parquet`): this
 * writer's schema, its `geo` key from what the engine wrote, the same other metadata.
 */
export function parquetFileSpec(kind: ParquetKind, extraMetadata: { key: string; value: string }[]): ParquetFileSpec {
  return {
    schema: parquetSchemaOf(kind),
    keyValueMetadata: (written) => [{ key: 'geo', value: geoMetadataOf(written) }, ...extraMetadata],
    rowGroupRows: ROW_GROUP_ROWS,
    codec: { name: 'ZSTD', compress: zstdCompressor() },
  };
}
