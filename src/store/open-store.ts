/** Opens an existing maphist database for queries (read-only: the server never writes the history). */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { MaphistError } from '../core/errors.js';
import { readMetadata, type StoreMetadata } from './metadata.js';
import { SCHEMA_VERSION } from './schema.js';
import { processRunning, removeStaleWorkDirs } from './work-dir.js';

export interface Store {
  readonly path: string;
  readonly metadata: StoreMetadata;
  connect(): Promise<DuckDBConnection>;
  /**
   * A connection for streamed results (extraction): on a second DuckDB instance over the same
   * file with a small memory limit (`streamingMemoryLimit`), so the sort that puts an extraction in
   * its stable order spills to the temporary directory instead of holding the result in memory.
   */
  connectStreaming(): Promise<DuckDBConnection>;
  close(): void;
}

export interface OpenStoreOptions {
  readOnly?: boolean;
  /**
   * DuckDB's memory limit for queries (default 2GB): big sorts and joins (a country-sized
   * extraction ordered by type and id) spill to a temporary directory instead of growing the
   * server without bound (DuckDB's own default is 80 % of the machine's memory).
   */
  memoryLimit?: string;
  /** The memory limit of the streaming instance (default 64MB, one thread; see `Store.connectStreaming`). */
  streamingMemoryLimit?: string;
  /**
   * Where DuckDB spills (default `$TMPDIR/maphist-duckdb-<pid>-<n>`, removed at close): a writing
   * command gives its run's directory beside the database (work-dir.ts), which it removes itself.
   */
  tempDirectory?: string;
}

let openedStores = 0;

/**
 * Removes the spill directories (`maphist-duckdb-<pid>-…`) of processes that are no longer
 * running: a killed or crashed server or import never got to remove its own, and a window query
 * can leave gigabytes there. Run once per process, at the first open. Returns the names removed.
 */
export function removeStaleSpillDirectories(dir = tmpdir()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    const pid = Number(/^maphist-duckdb-(\d+)-/.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || processRunning(pid)) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

export async function openStore(path: string, options: OpenStoreOptions = {}): Promise<Store> {
  if (!existsSync(path)) {
    throw new MaphistError('DB_NOT_FOUND', `There is no maphist database at ${path}. Create one with \`maphist import <history file> --db ${path}\`.`);
  }
  // Spill directories of this store's two instances, removed when it closes (one pair per open
  // store: tests open several stores in one process).
  if (openedStores === 0) removeStaleSpillDirectories();
  // What killed imports and changeset loads of this database left beside it.
  removeStaleWorkDirs(path);
  const opened = ++openedStores;
  const tempBase = options.tempDirectory ?? join(tmpdir(), `maphist-duckdb-${process.pid}-${opened}`);
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(path, {
      access_mode: options.readOnly === false ? 'READ_WRITE' : 'READ_ONLY',
      memory_limit: options.memoryLimit ?? '2GB',
      temp_directory: tempBase,
    });
  } catch (e) {
    const message = (e as Error).message;
    // DuckDB locks the file: one writing process, or any number of reading ones.
    if (/Could not set lock on file/.test(message)) {
      const pid = /\(PID (\d+)\)/.exec(message)?.[1];
      throw new MaphistError(
        'DB_BUSY',
        `${path} is open in another process${pid === undefined ? '' : ` (PID ${pid})`}: ` +
          (options.readOnly === false
            ? 'DuckDB lets no process write a database that another one has open (a running maphist serve or maphist sql, or another command writing it). '
            : 'another process is writing it. ') +
          'Wait for that command to end or stop it, then run again.',
        { path, ...(pid !== undefined && { pid: Number(pid) }) },
        { cause: e },
      );
    }
    throw new MaphistError('DB_INVALID', `${path} is not a DuckDB database maphist can open: ${message}`);
  }
  const con = await instance.connect();
  let metadata: StoreMetadata;
  try {
    metadata = await readMetadata(con);
  } catch {
    con.closeSync();
    instance.closeSync();
    throw new MaphistError('DB_INVALID', `${path} is a DuckDB database but not a maphist one (it has no meta table). Import a history file into a new path.`);
  } finally {
    con.closeSync();
  }
  if (metadata.schemaVersion !== SCHEMA_VERSION) {
    instance.closeSync();
    throw new MaphistError(
      'DB_INVALID',
      `${path} has maphist schema version ${metadata.schemaVersion}; this maphist reads version ${SCHEMA_VERSION}. Import the history file again.`,
      { schemaVersion: metadata.schemaVersion, sourceFile: metadata.sourceFile },
    );
  }
  let streaming: Promise<DuckDBInstance> | undefined;
  let streamingOpen: DuckDBInstance | undefined;
  const streamingInstance = () =>
    (streaming ??= DuckDBInstance.create(path, {
      access_mode: 'READ_ONLY',
      memory_limit: options.streamingMemoryLimit ?? '64MB',
      threads: '1',
      temp_directory: `${tempBase}-streaming`,
    }).then((s) => (streamingOpen = s)));
  const closeStreaming = (s: DuckDBInstance) => {
    s.closeSync();
    rmSync(`${tempBase}-streaming`, { recursive: true, force: true });
  };
  return {
    path,
    metadata,
    connect: () => instance.connect(),
    connectStreaming: async () => (await streamingInstance()).connect(),
    close: () => {
      instance.closeSync();
      rmSync(tempBase, { recursive: true, force: true });
      // Synchronously when the streaming instance is open: `maphist serve` exits right after
      // closing on SIGTERM, and a deferred removal left its spill directory behind.
      if (streamingOpen) closeStreaming(streamingOpen);
      else void streaming?.then(closeStreaming);
    },
  };
}
