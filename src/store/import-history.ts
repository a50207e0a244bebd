/**
 * Import a history file into a new maphist database, atomically: everything is written to a
 * temporary database in a directory beside the target, which replaces the target by a rename only once it is
 * complete and checkpointed. A failed or interrupted import leaves any previous database as it was.
 * Every temporary file (the new database, the node and way stores, the staging database or the
 * in-memory staging tables' evicted blocks, DuckDB's spill files) lives in this run's directory under
 * the database's temporary directory (work-dir.ts).
 */
import { renameSync, existsSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { buildHistory, type BuildProgress, type HistoryStats } from '../history/build-history.js';
import { openHistory } from '../io/open-history.js';
import { StoreWriter } from './store-writer.js';
import { TagDictionaryBuilder } from './tag-dictionary-builder.js';
import { collectGarbage } from './collect-garbage.js';
import { importChangesets, type ChangesetsProgress, type LoadChangesetsResult } from './changesets.js';
import { checkChangesetDump } from '../io/changesets/open-changesets.js';
import { asWriteFailure } from './write-failure.js';
import { createWorkDir } from './work-dir.js';
import { diskFullError } from './disk-full.js';
import { DEFAULT_IMPORT_MEMORY_BYTES, importMemoryPlan, importOutOfMemory, type ImportMemoryPlan } from './import-memory.js';

export interface ImportOptions {
  input: string;
  db: string;
  workers?: number;
  /** The memory budget in bytes (default 4 GB): import-memory.ts shares it among DuckDB and the builder's caches. */
  memoryBytes?: number;
  /** The shares themselves instead of `memoryBytes`'s (tests: small sort passes on a small input). */
  memoryPlan?: ImportMemoryPlan;
  /** Where to stage the rows, instead of by `stagedBytesEstimate` (tests: each way with sort passes). */
  staging?: 'memory' | 'file';
  /** A changeset dump to load into the new database before it replaces the old one (changesets.ts). */
  changesets?: string;
  /** Keep every changeset of that dump, not only those the states reference. */
  allChangesets?: boolean;
  onProgress?: (p: ImportProgress) => void;
  /** Progress of loading the changesets (after the history's `finishing`). */
  onChangesetsProgress?: (p: ChangesetsProgress) => void;
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
  phaseSeconds: { build: number; finish: number; changesets?: number };
  stats: HistoryStats;
  /** What loading the changesets did, when a dump was given. */
  changesets?: LoadChangesetsResult;
}

/**
 * The space an import needs beside the database, from the input's size: its work directory at its
 * peak (the staging database, the node and way stores, DuckDB's spill files and the new database
 * together). Measured on the 4-country file: 9.2 MB of PBF, peak 1.06 GB (116 bytes per input
 * byte; the finished database 458 MB) with a staging database, 704 MB with the staging tables in memory;
 * synth-x48 (452 MB): 48 GB, 107 per byte. Rounded up to 125 per byte of compressed input (PBF, .gz,
 * .bz2), a tenth of that for plain XML, which is about ten times its compressed size; plus 64 MB.
 */
export function importSpaceEstimate(input: string, inputBytes: number): number {
  const perByte = isPlainXml(input) ? 12.5 : 125;
  return Math.ceil(inputBytes * perByte) + 64e6;
}

/**
 * The bytes the import will stage (the states' WKB plus STAGED_ROW_BYTES per row, as the finish's sort
 * passes count them), from the input's size: 534 MB from the four-country file's 9.2 MB of PBF, 58 per
 * byte, rounded up to 60 per byte of compressed input, a tenth of that for plain XML. It decides only
 * where the rows are staged (store-writer-worker.ts); a wrong guess costs time, not correctness or memory.
 */
export function stagedBytesEstimate(input: string, inputBytes: number): number {
  return inputBytes * (isPlainXml(input) ? 6 : 60);
}

/** Uncompressed XML, about ten times the size of the same history compressed (PBF, .gz, .bz2). */
function isPlainXml(input: string): boolean {
  return /\.(osh|osm|xml)$/i.test(input);
}

export async function importHistory(options: ImportOptions): Promise<ImportResult> {
  const target = resolve(options.db);
  try {
    return await importInto(options, target);
  } catch (e) {
    // A full disk: one coded line (after the work directory is removed, so the free space it
    // reports is the user's).
    const previous = existsSync(target);
    const unchanged = previous ? 'the previous database is unchanged' : 'no database was written';
    throw (
      diskFullError(e, {
        command: 'maphist import',
        dir: dirname(target),
        needBytes: importSpaceEstimate(options.input, inputSize(options.input)),
        unchanged,
      }) ??
      importOutOfMemory(e, options.memoryBytes ?? DEFAULT_IMPORT_MEMORY_BYTES, unchanged) ??
      asWriteFailure(e, target)
    );
  }
}

function inputSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

async function importInto(options: ImportOptions, target: string): Promise<ImportResult> {
  const started = performance.now();
  // A missing or wrong changeset file fails now, not after the history import.
  if (options.changesets !== undefined) await checkChangesetDump(options.changesets);
  const opened = await openHistory(options.input, { workers: options.workers });
  let work;
  try {
    work = createWorkDir(target, 'import');
  } catch (e) {
    await opened.close();
    throw e;
  }
  const workDir = work.path;
  const tmp = join(workDir, basename(target));
  const dictionary = new TagDictionaryBuilder();
  // Bounded memory whatever the input size: DuckDB spills sorts and joins to its temp directory.
  // Staging only appends (full blocks are written out), so it needs little; the finish sorts every row.
  const memory = options.memoryPlan ?? importMemoryPlan(options.memoryBytes);
  // In memory when the staged rows should fit one sort pass of the finish, else in a file.
  const staging = options.staging ?? (stagedBytesEstimate(options.input, inputSize(options.input)) <= memory.sortPassBytes ? 'memory' : 'file');
  const writer = new StoreWriter(
    {
      dbPath: tmp,
      stagingPath: staging === 'memory' ? undefined : join(workDir, 'staging.duckdb'),
      tempDirectory: join(workDir, 'duckdb-tmp'),
      memoryLimit: memory.stagingLimit,
      finishMemoryBytes: memory.finishBytes,
      sortPassBytes: memory.sortPassBytes,
    },
    dictionary,
  );
  // On SIGINT/SIGTERM the writer thread is not stopped before the files go: terminating a worker
  // inside a DuckDB call aborted the process ('Napi::Error'). The signal handler removes the files
  // (open ones stay readable to the thread until it ends) and re-raises the signal, which ends
  // every thread at once (src/cli/signals.ts).
  let complete = false;
  // MAPHIST_DEBUG_MEM=1 logs the phase and the main thread's memory every 5 s to stderr (the writer
  // thread logs its own heap and DuckDB's buffer memory): for finding what holds an import's peak.
  let phase = 'start';
  const memoryLog = process.env.MAPHIST_DEBUG_MEM ? setInterval(() => logMemory(`main ${phase}`), 5000) : undefined;
  try {
    const stats = await buildHistory(
      opened.batches(),
      writer,
      workDir,
      (p) => {
        phase = p.phase;
        options.onProgress?.({ ...p, ...opened.progress(), rows: writer.rowsWritten });
      },
      memory.caches,
    );
    phase = 'finishing';
    const built = performance.now();
    collectGarbage();
    options.onProgress?.({ phase: 'finishing', ...opened.progress(), rows: writer.rowsWritten });
    await writer.finish(stats.users, {
      source: options.input,
      header: opened.header,
      stats: { versions: stats.versions, firstTimestamp: stats.firstTimestamp, lastTimestamp: stats.lastTimestamp },
    });
    const historyDone = performance.now();
    const changesets =
      options.changesets === undefined
        ? undefined
        : await importChangesets(tmp, options.changesets, {
            all: options.allChangesets,
            onProgress: options.onChangesetsProgress,
            workDir,
            memoryLimit: memory.changesetsLimit,
          });
    complete = true;
    const finished = performance.now();
    renameSync(tmp, target);
    if (existsSync(target + '.wal')) unlinkSync(target + '.wal');
    const versions = stats.versions[0] + stats.versions[1] + stats.versions[2];
    return {
      versions,
      rows: writer.rowsWritten,
      seconds: (performance.now() - started) / 1000,
      phaseSeconds: {
        build: (built - started) / 1000,
        finish: (historyDone - built) / 1000,
        ...(changesets && { changesets: (finished - historyDone) / 1000 }),
      },
      stats,
      changesets,
    };
  } finally {
    if (memoryLog) clearInterval(memoryLog);
    if (!complete) await writer.abort();
    await opened.close();
    work.remove();
  }
}

/** One line of MAPHIST_DEBUG_MEM output: seconds since start, RSS and this thread's V8 heap, in MB. */
export function logMemory(label: string): void {
  const m = process.memoryUsage();
  const mb = (n: number) => (n / 1048576).toFixed(0);
  console.error(
    `mem ${(performance.now() / 1000).toFixed(0)}s ${label}: rss ${mb(m.rss)} heapUsed ${mb(m.heapUsed)} heapTotal ${mb(m.heapTotal)} ` +
      `external ${mb(m.external)} arrayBuffers ${mb(m.arrayBuffers)}`,
  );
}
