/**
 * Import a history file into a new maphist database, atomically: everything is written to a
 * temporary database beside the target, which replaces the target by a rename only once it is
 * complete and checkpointed. A failed or interrupted import leaves any previous database as it was.
 */
import { mkdtempSync, rmSync, renameSync, existsSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { FileHeader } from '../core/osm.js';
import { buildHistory, type BuildProgress, type HistoryStats } from '../history/build-history.js';
import { openHistory } from '../io/open-history.js';
import { FINALIZE_STATEMENTS } from './finalize-sql.js';
import { writeMetadata } from './metadata.js';
import { stagingTableSql, StateWriter } from './state-writer.js';
import { TagDictionaryBuilder } from './tag-dictionary-builder.js';

export interface ImportOptions {
  input: string;
  db: string;
  workers?: number;
  onProgress?: (p: ImportProgress) => void;
}

export interface ImportProgress {
  phase: BuildProgress['phase'] | 'finishing';
  versions?: number;
  bytesRead: number;
  bytesTotal: number;
  rows: number;
}

export interface ImportResult {
  versions: number;
  rows: number;
  seconds: number;
  /** Seconds spent building and appending states, and finishing the database (dictionary, sort, view). */
  phaseSeconds: { build: number; finish: number };
  stats: HistoryStats;
}

export async function importHistory(options: ImportOptions): Promise<ImportResult> {
  const started = performance.now();
  const target = resolve(options.db);
  const opened = await openHistory(options.input, { workers: options.workers });
  const tmp = join(dirname(target), `.${basename(target)}.importing-${process.pid}`);
  const workDir = mkdtempSync(join(dirname(target), '.maphist-work-'));
  removeDatabaseFiles(tmp);
  let instance: DuckDBInstance | undefined;
  let con: DuckDBConnection | undefined;
  try {
    // Bounded memory whatever the input size: DuckDB spills sorts and joins to its temp directory.
    instance = await DuckDBInstance.create(tmp, { memory_limit: '2GB', temp_directory: join(workDir, 'duckdb-tmp') });
    con = await instance.connect();
    await con.run(stagingTableSql('staging'));
    const dictionary = new TagDictionaryBuilder();
    const appender = await con.createAppender('staging');
    const writer = new StateWriter(appender, dictionary);
    const stats = await buildHistory(opened.batches(), writer, workDir, (p) => {
      options.onProgress?.({ ...p, ...opened.progress(), rows: writer.rowsWritten });
    });
    writer.flush();
    appender.flushSync();
    appender.closeSync();
    const built = performance.now();
    options.onProgress?.({ phase: 'finishing', ...opened.progress(), rows: writer.rowsWritten });

    await writeDictionary(con, dictionary);
    for (const sql of FINALIZE_STATEMENTS) await con.run(sql);
    await writeUsers(con, stats.users);
    await writeMetadata(con, { source: options.input, header: opened.header, stats, rows: writer.rowsWritten });
    await con.run('CHECKPOINT');
    con.closeSync();
    con = undefined;
    instance.closeSync();
    instance = undefined;
    const finished = performance.now();
    renameSync(tmp, target);
    if (existsSync(target + '.wal')) unlinkSync(target + '.wal');
    const versions = stats.versions[0] + stats.versions[1] + stats.versions[2];
    return {
      versions,
      rows: writer.rowsWritten,
      seconds: (performance.now() - started) / 1000,
      phaseSeconds: { build: (built - started) / 1000, finish: (finished - built) / 1000 },
      stats,
    };
  } finally {
    con?.closeSync();
    instance?.closeSync();
    await opened.close();
    removeDatabaseFiles(tmp);
    rmSync(workDir, { recursive: true, force: true });
  }
}

function removeDatabaseFiles(path: string): void {
  for (const p of [path, path + '.wal']) if (existsSync(p)) unlinkSync(p);
}

async function writeDictionary(con: DuckDBConnection, d: TagDictionaryBuilder): Promise<void> {
  await con.run('CREATE TABLE keys_prov (pid INTEGER, key VARCHAR, frequency BIGINT)');
  await con.run('CREATE TABLE values_prov (key_pid INTEGER, vid INTEGER, value VARCHAR, frequency BIGINT)');
  const keys = await con.createAppender('keys_prov');
  d.keys.forEach((key, pid) => {
    keys.appendInteger(pid);
    keys.appendVarchar(key);
    keys.appendBigInt(BigInt(d.keyFrequency[pid]));
    keys.endRow();
  });
  keys.closeSync();
  const values = await con.createAppender('values_prov');
  d.values.forEach((list, pid) =>
    list.forEach((value, vid) => {
      values.appendInteger(pid);
      values.appendInteger(vid);
      values.appendVarchar(value);
      values.appendBigInt(BigInt(d.valueFrequency[pid][vid]));
      values.endRow();
    }),
  );
  values.closeSync();
}

async function writeUsers(con: DuckDBConnection, users: Map<number, string>): Promise<void> {
  await con.run('CREATE TABLE users (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL)');
  const app = await con.createAppender('users');
  for (const [id, name] of users) {
    app.appendInteger(id);
    app.appendVarchar(name);
    app.endRow();
  }
  app.closeSync();
}

export type { FileHeader };
