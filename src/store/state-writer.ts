/**
 * Appends element states to the staging table, 2048 rows (one DuckDB vector) at a time through
 * whole data chunks: the value-by-value appender is an order of magnitude slower.
 */
import {
  BLOB, BOOLEAN, DOUBLE, DuckDBDataChunk, INTEGER, LIST, UTINYINT,
  blobValue, listValue, type DuckDBAppender, type DuckDBType, type DuckDBValue,
} from '@duckdb/node-api';
import type { StateSink } from '../history/build-history.js';
import type { ElementState } from '../history/element-state.js';
import { geometryColumns } from './state-row.js';
import type { TagDictionaryBuilder } from './tag-dictionary-builder.js';

/**
 * Column order of the staging table, as created by stagingTableSql(). 64-bit integer columns are
 * staged as DOUBLE (exact below 2^53, which every OSM id, timestamp and packed tag is) and cast to
 * BIGINT when the import finishes: creating a BigInt per value dominated the append cost.
 */
const STAGING_COLUMNS: [string, DuckDBType, string][] = [
  ['type', UTINYINT, 'UTINYINT'],
  ['id', DOUBLE, 'DOUBLE'],
  ['version', INTEGER, 'INTEGER'],
  ['minor_version', INTEGER, 'INTEGER'],
  ['valid_from', DOUBLE, 'DOUBLE'],
  ['valid_to', DOUBLE, 'DOUBLE'],
  ['deleted', BOOLEAN, 'BOOLEAN'],
  ['changeset', DOUBLE, 'DOUBLE'],
  ['user_id', INTEGER, 'INTEGER'],
  ['tag_kv', LIST(DOUBLE), 'DOUBLE[]'],
  ['tag_kv_before', LIST(DOUBLE), 'DOUBLE[]'],
  ['geometry_type', UTINYINT, 'UTINYINT'],
  ['geometry', BLOB, 'BLOB'],
  ['geometry_valid', BOOLEAN, 'BOOLEAN'],
  ['xmin', DOUBLE, 'DOUBLE'],
  ['ymin', DOUBLE, 'DOUBLE'],
  ['xmax', DOUBLE, 'DOUBLE'],
  ['ymax', DOUBLE, 'DOUBLE'],
  ['spatial_key', DOUBLE, 'DOUBLE'],
  ['area', DOUBLE, 'DOUBLE'],
  ['length', DOUBLE, 'DOUBLE'],
  ['perimeter', DOUBLE, 'DOUBLE'],
  ['vertices', INTEGER, 'INTEGER'],
  ['outers', INTEGER, 'INTEGER'],
  ['inners', INTEGER, 'INTEGER'],
  ['roundness', DOUBLE, 'DOUBLE'],
  ['squareness', DOUBLE, 'DOUBLE'],
  ['collapsed', BOOLEAN, 'BOOLEAN'],
  ['is_creation', BOOLEAN, 'BOOLEAN'],
  ['is_deletion', BOOLEAN, 'BOOLEAN'],
  ['tag_change', BOOLEAN, 'BOOLEAN'],
  ['geometry_change', BOOLEAN, 'BOOLEAN'],
];

export function stagingTableSql(name: string): string {
  return `CREATE TABLE ${name} (${STAGING_COLUMNS.map(([n, , sql]) => `${n} ${sql}`).join(', ')})`;
}

const CHUNK_ROWS = 2048;

export class StateWriter implements StateSink {
  private columns: DuckDBValue[][] = STAGING_COLUMNS.map(() => []);
  private rows = 0;
  private readonly types = STAGING_COLUMNS.map(([, t]) => t);
  rowsWritten = 0;

  constructor(private readonly appender: DuckDBAppender, private readonly dictionary: TagDictionaryBuilder) {}

  write(states: readonly ElementState[]): void {
    for (const s of states) this.add(s);
  }

  private add(s: ElementState): void {
    const c = this.columns;
    const g = geometryColumns(s.geometry, s.wkb, !s.deleted);
    const bbox = g.bbox;
    c[0].push(s.type);
    c[1].push(s.id);
    c[2].push(s.version);
    c[3].push(s.minorVersion);
    c[4].push(s.validFrom);
    c[5].push(s.validTo);
    c[6].push(s.deleted);
    c[7].push(s.changeset);
    c[8].push(s.userId);
    c[9].push(listValue(this.dictionary.encode(s.tags, true)));
    c[10].push(listValue(this.dictionary.encode(s.tagsBefore, false)));
    c[11].push(g.typeCode);
    c[12].push(g.wkb ? blobValue(g.wkb) : null);
    c[13].push(s.geometryValid);
    c[14].push(bbox ? bbox[0] : null);
    c[15].push(bbox ? bbox[1] : null);
    c[16].push(bbox ? bbox[2] : null);
    c[17].push(bbox ? bbox[3] : null);
    c[18].push(g.spatialKey);
    c[19].push(g.area);
    c[20].push(g.length);
    c[21].push(g.perimeter);
    c[22].push(g.vertices);
    c[23].push(g.outers);
    c[24].push(g.inners);
    c[25].push(g.roundness);
    c[26].push(g.squareness);
    c[27].push(s.collapsed);
    c[28].push(s.isCreation);
    c[29].push(s.isDeletion);
    c[30].push(s.tagChange);
    c[31].push(s.geometryChange);
    if (++this.rows === CHUNK_ROWS) this.flush();
  }

  flush(): void {
    if (this.rows === 0) return;
    const chunk = DuckDBDataChunk.create(this.types, this.rows);
    chunk.setColumns(this.columns);
    this.appender.appendDataChunk(chunk);
    this.rowsWritten += this.rows;
    this.columns = STAGING_COLUMNS.map(() => []);
    this.rows = 0;
  }
}
