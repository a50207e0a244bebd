/**
 * Loading changesets into a store: `maphist import --changesets FILE` (into the new database,
 * before it replaces the old one) and `maphist changesets import FILE --db PATH` (an existing
 * database, in one transaction). Either way a failure leaves the store as it was.
 *
 * By default only the changesets the store's states reference are kept: the planet dump holds
 * every changeset ever made (tens of GB), a regional store references a small share of them. The
 * referenced ids are held as one sorted Float64Array (8 bytes per changeset of the store) and each
 * changeset of the dump is looked up by binary search, so the dump is streamed, never held.
 */
import {
  BIGINT,
  BOOLEAN,
  DOUBLE,
  DuckDBDataChunk,
  INTEGER,
  MAP,
  TIMESTAMP,
  VARCHAR,
  mapValue,
  timestampValue,
  type DuckDBAppender,
  type DuckDBConnection,
} from '@duckdb/node-api';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { MaphistError } from '../core/errors.js';
import { readChangesets, type ChangesetRecord } from '../io/changesets/open-changesets.js';
import { iso } from './metadata.js';
import { sqlString } from './sql-string.js';
import { openStore } from './open-store.js';
import { asWriteFailure } from './write-failure.js';
import { createWorkDir } from './work-dir.js';
import { diskFullError } from './disk-full.js';

export interface LoadChangesetsOptions {
  /** Keep every changeset of the file, not only those the states reference. */
  all?: boolean;
  onProgress?: (p: ChangesetsProgress) => void;
  /**
   * Where DuckDB spills (importChangesets): a run's directory of work-dir.ts. Without it, the load
   * makes its own under the database's temporary directory and removes it when done.
   */
  workDir?: string;
  /** DuckDB's memory limit for the load (default: openStore's); an import gives its budget's share (import-memory.ts). */
  memoryLimit?: string;
}

/** Progress of a load: changesets read and kept, and the (compressed) bytes of the dump read. */
export interface ChangesetsProgress {
  changesetsRead: number;
  changesetsKept: number;
  bytesRead: number;
  bytesTotal: number;
}

export interface LoadChangesetsResult {
  read: number;
  kept: number;
  /** Changesets the states reference that the file does not have. */
  missing: number;
}

/** Rows per appended data chunk (DuckDB's vector size). */
export const CHUNK_ROWS = 2048;

/** The `changesets` columns in table order (schema.ts CHANGESETS_COLUMNS). */
export const CHUNK_TYPES = [BIGINT, TIMESTAMP, TIMESTAMP, BOOLEAN, INTEGER, VARCHAR, INTEGER, INTEGER, DOUBLE, DOUBLE, DOUBLE, DOUBLE, MAP(VARCHAR, VARCHAR)];

const timestamp = (epochSeconds: number | null) => (epochSeconds === null ? null : timestampValue(BigInt(Math.round(epochSeconds)) * 1_000_000n));

/** A changeset's tags as a MAP value; a key repeated in the file keeps its last value, as the API does. */
function tagMap(flat: string[]) {
  const seen = new Map<string, string>();
  for (let i = 0; i < flat.length; i += 2) seen.set(flat[i]!, flat[i + 1]!);
  return mapValue([...seen].map(([key, value]) => ({ key, value })));
}

/**
 * Appends changesets through one reused data chunk: the appender writes into the connection's open
 * transaction, so a rollback removes them (measured: 200,000 changesets in 0.2 s, where INSERT …
 * VALUES statements took 16 s, which would have been hours for a whole planet dump with --all).
 */
export function appendChunk(appender: DuckDBAppender, chunk: DuckDBDataChunk, rows: ChangesetRecord[]): void {
  chunk.reset();
  chunk.rowCount = rows.length;
  const column = <T>(f: (c: ChangesetRecord) => T) => rows.map(f);
  chunk.setColumns([
    column((c) => BigInt(c.id)),
    column((c) => timestamp(c.createdAt)),
    column((c) => timestamp(c.closedAt)),
    column((c) => c.open),
    column((c) => c.userId),
    column((c) => c.userName),
    column((c) => c.numChanges),
    column((c) => c.commentsCount),
    column((c) => c.bbox?.[0] ?? null),
    column((c) => c.bbox?.[1] ?? null),
    column((c) => c.bbox?.[2] ?? null),
    column((c) => c.bbox?.[3] ?? null),
    column((c) => tagMap(c.tags)),
  ]);
  appender.appendDataChunk(chunk);
  chunk.reset();
}

/** The `meta` keys of the changeset replication position (changeset-replication.ts), dropped by a new load. */
export const CHANGESET_POSITION_KEYS = ['changesetReplicationSequenceNumber', 'changesetReplicationTimestamp', 'changesetReplicationDataEnd'] as const;

function contains(sorted: Float64Array, id: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid]!;
    if (v === id) return true;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** Replaces the `changesets` table's rows with those of `file` (the caller owns the transaction). */
export async function loadChangesets(con: DuckDBConnection, file: string, options: LoadChangesetsOptions = {}): Promise<LoadChangesetsResult> {
  const referenced = (await con.runAndReadAll('SELECT DISTINCT changeset::DOUBLE FROM states ORDER BY 1')).getColumnsJS()[0] as number[];
  const wanted = Float64Array.from(referenced);
  await con.run('DELETE FROM changesets');
  const appender = await con.createAppender('changesets');
  const chunk = DuckDBDataChunk.create(CHUNK_TYPES, CHUNK_ROWS);
  let read = 0;
  let kept = 0;
  /** The newest created_at or closed_at of the whole dump (kept or not): the changesets are complete up to it. */
  let newest = Number.NEGATIVE_INFINITY;
  /** Kept changesets the states reference (all of them unless `all`): the rest of `wanted` is missing. */
  let keptReferenced = 0;
  let pending: ChangesetRecord[] = [];
  const flush = () => {
    if (pending.length > 0) appendChunk(appender, chunk, pending);
    pending = [];
  };
  let bytes = { read: 0, total: 0 };
  try {
    for await (const batch of readChangesets(file, (r, t) => (bytes = { read: r, total: t }))) {
      for (const c of batch) {
        read++;
        newest = Math.max(newest, c.createdAt, c.closedAt ?? c.createdAt);
        const referencedId = contains(wanted, c.id);
        if (!options.all && !referencedId) continue;
        kept++;
        if (referencedId) keptReferenced++;
        pending.push(c);
        if (pending.length === CHUNK_ROWS) flush();
      }
      options.onProgress?.({ changesetsRead: read, changesetsKept: kept, bytesRead: bytes.read, bytesTotal: bytes.total });
    }
    flush();
    appender.closeSync();
  } catch (e) {
    // The transaction is rolled back by the caller; what the appender still holds is discarded.
    try {
      appender.closeSync();
    } catch {
      // The first failure is the one to report.
    }
    throw e;
  }
  const duplicates = (await con.runAndReadAll('SELECT count(*) - count(DISTINCT id) FROM changesets')).getColumnsJS()[0]![0] as bigint;
  if (Number(duplicates) > 0)
    throw new MaphistError('INPUT_CORRUPT', `${file} lists ${duplicates} changeset ids more than once; a changeset dump has each changeset once.`, {
      path: file,
    });
  await con.run(`INSERT OR REPLACE INTO meta VALUES ('changesetsSource', ${sqlString(JSON.stringify(file.split('/').pop()))}), ('changesets', '${kept}')`);
  // What changeset replication needs (changeset-replication.ts): whether every changeset is kept,
  // and the time the dump reaches; a new dump starts replication afresh (its start rule).
  await con.run(`INSERT OR REPLACE INTO meta VALUES ('changesetsAll', '${options.all === true}')`);
  if (Number.isFinite(newest)) await con.run(`INSERT OR REPLACE INTO meta VALUES ('changesetsTimestamp', ${sqlString(JSON.stringify(iso(newest)))})`);
  else await con.run(`DELETE FROM meta WHERE key = 'changesetsTimestamp'`);
  await con.run(`DELETE FROM meta WHERE key IN (${CHANGESET_POSITION_KEYS.map((k) => `'${k}'`).join(', ')})`);
  // Ids are unique (checked above), so each referenced id was kept at most once.
  return { read, kept, missing: wanted.length - keptReferenced };
}

/**
 * `maphist changesets import FILE --db PATH`: loads the changesets into an existing store in one
 * transaction (a failure or a kill leaves the store as it was).
 */
export async function importChangesets(db: string, file: string, options: LoadChangesetsOptions = {}): Promise<LoadChangesetsResult> {
  if (options.workDir !== undefined || !existsSync(db))
    return loadIntoStore(db, file, options, options.workDir).catch((e: unknown) => Promise.reject(asWriteFailure(e, db)));
  const work = createWorkDir(db, 'changesets');
  const wal = `${db}.wal`;
  const hadWal = existsSync(wal);
  try {
    return await loadIntoStore(db, file, options, work.path);
  } catch (e) {
    work.remove();
    // The store is checkpointed after every write, so a log it did not have before is this failed
    // load's alone (a commit or checkpoint cut short by a full disk): without it the store is as it was.
    if (!hadWal) rmSync(wal, { force: true });
    throw (
      diskFullError(e, { command: 'maphist changesets import', dir: dirname(resolve(db)), unchanged: 'the database is unchanged' }) ?? asWriteFailure(e, db)
    );
  } finally {
    work.remove();
  }
}

async function loadIntoStore(db: string, file: string, options: LoadChangesetsOptions, workDir: string | undefined): Promise<LoadChangesetsResult> {
  const store = await openStore(db, {
    readOnly: false,
    ...(workDir !== undefined && { tempDirectory: join(workDir, 'duckdb-tmp') }),
    ...(options.memoryLimit !== undefined && { memoryLimit: options.memoryLimit }),
  });
  try {
    const con = await store.connect();
    try {
      await con.run('BEGIN TRANSACTION');
      try {
        const result = await loadChangesets(con, file, options);
        await con.run('COMMIT');
        await con.run('CHECKPOINT');
        return result;
      } catch (e) {
        // A full disk invalidates the database, and the rollback fails too: the first failure is the one to report.
        await con.run('ROLLBACK').catch(() => undefined);
        throw e;
      }
    } finally {
      con.closeSync();
    }
  } finally {
    store.close();
  }
}
