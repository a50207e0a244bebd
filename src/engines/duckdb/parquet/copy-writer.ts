/**
 * The DuckDB engine's own GeoParquet writer (issue 21): DuckDB writes the rows with its Parquet
 * writer, the bytes stream to the client as they are written. Features and contributions only;
 * collections gather their members' geometries in TypeScript and keep the API's writer.
 *
 * 1. The boundary rows (crossing the area's edge) are read and clipped in TypeScript, as the
 *    records are (../../common/parquet/boundary-rows.ts), and appended to a temporary table.
 * 2. One `COPY (SELECT …) TO <dir> (FORMAT parquet, COMPRESSION uncompressed, ROW_GROUPS_PER_FILE 1)`
 *    writes the interior rows as stored and the boundary rows from that table, one row group per
 *    piece file, into a directory of its own under the temporary directory.
 * 3. As pieces are finished (the piece two after it exists, or the COPY has ended, and its footer
 *    is whole) they are put into one file in the API's schema (../../common/parquet/parquet-assembly.ts)
 *    and sent. The file's magic goes first, as soon as the boundary query has started (before the
 *    clipping and the COPY: the 200 and the first bytes come early).
 * 4. After the COPY: the geometry types and the extent of the bboxes (one query over the pieces'
 *    `geom_type` and `bbox`) give the API's key-value metadata, written in the footer.
 *
 * The pieces, the directory and the table are removed on success, failure and abort (closing the
 * iterator, or `signal`, interrupts the COPY). The directory is named `maphist-duckdb-<pid>-…`, so
 * what a killed server left is removed by the next open (open-store.ts `removeStaleSpillDirectories`).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { slicer } from '../../../core/yielding.js';
import type { ExtractionRequest, ParquetFileSpec, WrittenGeometries } from '../../../query/v2-requests.js';
import type { Store } from '../../../store/open-store.js';
import { boundaryClipper, type BoundaryClipperOptions } from '../../common/boundary-clipper.js';
import { clipBoundaryRows } from '../../common/parquet/boundary-rows.js';
import { ParquetAssembler } from '../../common/parquet/parquet-assembly.js';
import type { RowContext } from '../../common/parquet/rows-common.js';
import type { ExtractionSql } from '../../common/parquet/v2-extraction.js';
import { checkAborted } from '../../common/statements.js';
import { planAreaSql } from '../../sql/area.js';
import { engineFailure, streamRows } from '../statements.js';
import { CLIP_TABLE_COLUMNS, contributionCopySql, featureCopySql, type CopyStatements } from '../sql/v2-parquet-copy.js';

let copies = 0;

/** How often the writer looks for finished pieces while the COPY runs. */
const POLL_MS = 5;

function copyStatements(ctx: RowContext, request: ExtractionRequest): CopyStatements | undefined {
  if (request.kind === 'features') return featureCopySql(ctx, request);
  if (request.kind === 'contributions') return contributionCopySql(ctx, request);
  return undefined;
}

/** The file's top-level column names, in order, from its schema (root first). */
function topLevelColumns(spec: ParquetFileSpec): string[] {
  const names: string[] = [];
  const s = spec.schema;
  let i = 1;
  const skip = (): void => {
    const e = s[i++];
    for (let k = 0; k < (e.num_children ?? 0); k++) skip();
  };
  for (let k = 0; k < (s[0].num_children ?? 0); k++) {
    names.push(s[i].name);
    skip();
  }
  return names;
}

/** DuckDB rounds a row group up to whole vectors of 2,048 rows. */
function rowGroupSize(rows: number): number {
  return Math.max(2048, Math.ceil(rows / 2048) * 2048);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A piece file whose footer is whole (its last four bytes PAR1, a footer length that fits). */
function wholePiece(path: string): Uint8Array | undefined {
  const bytes = readFileSync(path);
  const n = bytes.length;
  if (n < 12 || bytes.toString('latin1', n - 4) !== 'PAR1') return undefined;
  const footer = bytes.readUInt32LE(n - 8);
  return footer + 12 <= n ? bytes : undefined;
}

/** The writer of a request when the engine writes it (features, contributions), else undefined. */
export function duckDbParquetWriter(
  store: Store,
  db: ExtractionSql,
  request: ExtractionRequest,
  options: { clipper?: BoundaryClipperOptions } = {},
): ((file: ParquetFileSpec, signal: AbortSignal) => AsyncGenerator<Uint8Array, void, undefined>) | undefined {
  if (request.kind !== 'features' && request.kind !== 'contributions') return undefined;
  return (file, signal) => copyParquet(store, db, request, file, signal, options);
}

async function* copyParquet(
  store: Store,
  db: ExtractionSql,
  request: ExtractionRequest,
  file: ParquetFileSpec,
  signal: AbortSignal,
  options: { clipper?: BoundaryClipperOptions },
): AsyncGenerator<Uint8Array, void, undefined> {
  checkAborted(signal);
  const plan = planAreaSql(request.aoi, db.alias, db.flavor);
  const ctx: RowContext = { db, plan, signal, pause: slicer(), clipper: boundaryClipper(plan, request.aoi, options.clipper) };
  const st = copyStatements(ctx, request)!;
  const clip = request.kind === 'features' && request.clip;
  const n = ++copies;
  const dir = mkdtempSync(join(tmpdir(), `maphist-duckdb-${process.pid}-parquet-${n}-`));
  const pieces = join(dir, 'pieces');
  const table = `temp.main.maphist_clip_${n}`;
  let con: DuckDBConnection | undefined;
  const onAbort = () => con?.interrupt();
  signal.addEventListener('abort', onAbort, { once: true });
  let copy: Promise<void> | undefined;
  let copyDone = false;
  try {
    try {
      con = await store.connect();
      await con.run(`CREATE TEMP TABLE maphist_clip_${n} (${CLIP_TABLE_COLUMNS})`);
    } catch (e) {
      checkAborted(signal);
      throw engineFailure(e);
    }
    const assembler = new ParquetAssembler(file.schema, { codec: file.codec.name, compress: (b) => file.codec.compress(b) });
    // The file's first bytes (its magic) go as soon as the query has started (the boundary rows'
    // first chunk or their end), as the records' first batch does on the other path: the 200 is
    // then on the wire while the boundary rows are clipped and the COPY runs (tens of seconds for
    // a large area of many boundary rows), not after them. A failure later aborts the connection.
    let headSent = false;
    // 1. The boundary rows, clipped, into the table.
    const appender = await con.createAppender(`maphist_clip_${n}`, 'main', 'temp');
    try {
      for await (const rows of streamRows(store, st.boundary, { signal })) {
        if (!headSent) {
          headSent = true;
          yield assembler.start();
        }
        for (const r of await clipBoundaryRows(ctx, rows, clip)) {
          appender.appendBigInt(BigInt(r.rid));
          if (r.geom === null) {
            for (let k = 0; k < 6; k++) appender.appendNull();
          } else {
            appender.appendBlob(r.geom);
            appender.appendVarchar(r.geomType!);
            appender.appendDouble(r.bbox!.xmin);
            appender.appendDouble(r.bbox!.ymin);
            appender.appendDouble(r.bbox!.xmax);
            appender.appendDouble(r.bbox!.ymax);
          }
          appender.appendBoolean(r.clipped);
          appender.endRow();
        }
      }
      appender.flushSync();
    } finally {
      appender.closeSync();
    }
    checkAborted(signal);
    if (!headSent) {
      headSent = true;
      yield assembler.start();
    }
    // 2. The COPY, running while the pieces are sent.
    const sql = `COPY (${st.select(table, topLevelColumns(file))}) TO '${pieces.replace(/'/g, "''")}'
  (FORMAT parquet, COMPRESSION uncompressed, ROW_GROUP_SIZE ${rowGroupSize(file.rowGroupRows)}, ROW_GROUPS_PER_FILE 1)`;
    copy = con.run(sql).then(
      () => {
        copyDone = true;
      },
      (e) => {
        copyDone = true;
        throw e;
      },
    );
    copy.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
    // 3. The pieces, in order, as they are finished.
    const piece = (i: number) => join(pieces, `data_${i}.parquet`);
    for (let i = 0; ; ) {
      checkAborted(signal);
      const done = copyDone;
      if (done) await copy.catch((e) => Promise.reject(signal.aborted ? signal.reason : engineFailure(e)));
      const bytes = existsSync(piece(i)) && (done || existsSync(piece(i + 2))) ? wholePiece(piece(i)) : undefined;
      if (bytes === undefined) {
        if (done) break;
        await sleep(POLL_MS);
        continue;
      }
      // The piece stays until the footer's query has read it (removed with the directory).
      i++;
      // One chunk per row group (a piece may hold more than one when DuckDB's threads rotate late).
      for (const chunks of assembler.piece(bytes)) {
        checkAborted(signal);
        yield Buffer.concat(chunks);
      }
    }
    // 4. The footer, with what was written.
    const written = await writtenGeometries(con, join(pieces, '*.parquet'), existsSync(piece(0)));
    const footer = assembler.finish({ keyValueMetadata: file.keyValueMetadata(written), createdBy: `maphist (DuckDB ${await duckdbVersion(con)})` });
    yield footer;
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (copy && !copyDone) {
      con?.interrupt();
      await copy.catch(() => undefined);
    }
    if (con) {
      await con.run(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
      con.closeSync();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The geometry types and bbox extent of the rows written (one scan of two small columns of the pieces). */
async function writtenGeometries(con: DuckDBConnection, glob: string, any: boolean): Promise<WrittenGeometries> {
  if (!any) return { geometryTypes: [], bbox: null };
  const r = await con.runAndReadAll(`SELECT list(DISTINCT geom_type) FILTER (WHERE geom_type IS NOT NULL) AS types,
    min(bbox.xmin) AS xmin, min(bbox.ymin) AS ymin, max(bbox.xmax) AS xmax, max(bbox.ymax) AS ymax
    FROM read_parquet('${glob.replace(/'/g, "''")}')`);
  const row = r.getRowObjectsJS()[0] as { types: string[] | null; xmin: number | null; ymin: number; xmax: number; ymax: number };
  return {
    geometryTypes: row.types ?? [],
    bbox: row.xmin === null ? null : { xmin: row.xmin, ymin: row.ymin, xmax: row.xmax, ymax: row.ymax },
  };
}

async function duckdbVersion(con: DuckDBConnection): Promise<string> {
  const r = await con.runAndReadAll('SELECT version() AS v');
  return String((r.getRowObjectsJS()[0] as { v: string }).v);
}
