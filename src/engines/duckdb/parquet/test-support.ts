/** Test helpers: run an extraction into a temporary file, and read it back with hyparquet. */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import type { ExtractionRequest } from '../../../query/v2-requests.js';
import type { AreaOfInterest } from '../../../query/model.js';
import type { BBox } from '../../../geometry/types.js';
import type { MaphistParquetExtraction, ParquetExtractionStats } from '../../../testing/geoparquet.js';

const dir = mkdtempSync(join(tmpdir(), 'maphist-parquet-test-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
let n = 0;

export async function extractToFile(x: MaphistParquetExtraction, request: ExtractionRequest): Promise<{ path: string; stats: ParquetExtractionStats }> {
  const path = join(dir, `${request.kind}-${n++}.parquet`);
  const stats = await x.writeWithStats(request, createWriteStream(path));
  return { path, stats };
}

export function bboxArea(b: BBox): AreaOfInterest {
  return {
    id: 'test',
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [b[0], b[1]],
          [b[2], b[1]],
          [b[2], b[3]],
          [b[0], b[3]],
          [b[0], b[1]],
        ],
      ],
    },
    bbox: b,
  };
}

/** The file as hyparquet (an independent reader) sees it: rows as objects, the key-value metadata, the schema names. */
export async function readWithHyparquet(path: string): Promise<{ rows: Record<string, unknown>[]; kv: Map<string, string>; columns: string[] }> {
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const rows = (await parquetReadObjects({ file, compressors, geoparquet: false, utf8: false })) as Record<string, unknown>[];
  const kv = new Map((metadata.key_value_metadata ?? []).map((e) => [e.key, e.value ?? '']));
  const columns = parquetSchema(metadata).children.map((c) => c.element.name);
  return { rows, kv, columns };
}

/** SQL reading a written file as BLOB geometries (not DuckDB's GEOMETRY conversion). */
export function readParquetSql(path: string): string {
  return `read_parquet('${path.replace(/'/g, "''")}')`;
}
