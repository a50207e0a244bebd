/**
 * The `meta` table: one row per key. It says what the database holds (source file, temporal and
 * spatial extent, counts) and where replication would continue (sequence number).
 */
import { basename } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { FileHeader } from '../core/osm.js';
import type { HistoryStats } from '../history/build-history.js';
import { SCHEMA_VERSION } from './schema.js';

export interface StoreMetadata {
  schemaVersion: number;
  sourceFile: string;
  importTime: string;
  /** ISO timestamps of the first and last version in the data. */
  firstTimestamp: string;
  lastTimestamp: string;
  /**
   * GeoJSON Polygon of the region the data covers: the bbox of all visible geometries. (History
   * extracts keep every version of an element that was ever in the region, so data reaches well
   * beyond the region the file declares; a query there is legitimate, so the extent is the data's.)
   */
  spatialExtent: { type: 'Polygon'; coordinates: [number, number][][] };
  /** [minLon, minLat, maxLon, maxLat] of all visible geometries. */
  dataBbox: [number, number, number, number];
  /** The bbox the input file declares in its header, if any. */
  declaredBbox: [number, number, number, number] | null;
  replicationSequenceNumber: number;
  /**
   * The timestamp of the replication state last applied (`maphist update --replication`), ISO;
   * absent until then. `lastTimestamp` is then at least this: the data is complete up to it.
   */
  replicationTimestamp?: string;
  generator: string;
  /** Updates applied since the import (`maphist update`; absent before the first): their elements are in `touched_elements`. */
  updates?: number;
  versions: { node: number; way: number; relation: number };
  rows: number;
}

/** What the importer knows that goes into `meta` (plain data: it crosses to the writer thread). */
export interface MetadataInput {
  source: string;
  header: FileHeader;
  stats: Pick<HistoryStats, 'versions' | 'firstTimestamp' | 'lastTimestamp'>;
  rows: number;
}

export async function writeMetadata(con: DuckDBConnection, input: MetadataInput): Promise<void> {
  const extent = await con.runAndReadAll('SELECT min(xmin), min(ymin), max(xmax), max(ymax) FROM states WHERE NOT deleted AND xmin IS NOT NULL');
  const row = extent.getRows()[0] as (number | null)[];
  const dataBbox: [number, number, number, number] = row[0] === null ? [0, 0, 0, 0] : (row as [number, number, number, number]);
  const b = dataBbox;
  const s = input.stats;
  const meta: StoreMetadata = {
    schemaVersion: SCHEMA_VERSION,
    sourceFile: basename(input.source),
    importTime: new Date().toISOString(),
    firstTimestamp: iso(s.firstTimestamp),
    lastTimestamp: iso(s.lastTimestamp),
    spatialExtent: extentOf(b),
    dataBbox,
    declaredBbox: input.header.bbox ?? null,
    replicationSequenceNumber: input.header.replicationSequenceNumber ?? 0,
    generator: input.header.generator ?? '',
    versions: { node: s.versions[0], way: s.versions[1], relation: s.versions[2] },
    rows: input.rows,
  };
  await con.run('CREATE TABLE meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)');
  const app = await con.createAppender('meta');
  for (const [key, value] of Object.entries(meta)) {
    app.appendVarchar(key);
    app.appendVarchar(JSON.stringify(value));
    app.endRow();
  }
  app.closeSync();
}

export async function readMetadata(con: DuckDBConnection): Promise<StoreMetadata> {
  const reader = await con.runAndReadAll('SELECT key, value FROM meta');
  const out: Record<string, unknown> = {};
  for (const [key, value] of reader.getRows() as [string, string][]) out[key] = JSON.parse(value);
  return out as unknown as StoreMetadata;
}

/** The GeoJSON Polygon of a [minLon, minLat, maxLon, maxLat] box (`spatialExtent`). */
export function extentOf(b: readonly [number, number, number, number]): StoreMetadata['spatialExtent'] {
  return {
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
  };
}

/** Epoch seconds as the ISO text `meta` keeps ('' for none). */
export function iso(epochSeconds: number): string {
  return Number.isFinite(epochSeconds) ? new Date(epochSeconds * 1000).toISOString().replace('.000Z', 'Z') : '';
}
