/**
 * The temporary files of the commands that write a database (`maphist import`, `maphist changesets
 * import`, `maphist update`) live in one directory per database, beside it:
 * `.<name>.maphist-tmp/`, with one subdirectory per run named after its purpose and process id
 * (`import-<pid>`, `changesets-<pid>`, `update-<pid>`). Beside the database, so the finished import is renamed
 * over the target on the same file system; in one place, so nothing is left scattered.
 *
 * A run removes its subdirectory when it succeeds or fails (the caller's `finally`) and when it is
 * stopped by SIGINT or SIGTERM (`removeActiveWorkDirs`, from the command line's signal handlers).
 * A run killed outright (SIGKILL, power loss) cannot; the next import, changesets import, update or server
 * start on that database removes the subdirectories of processes that are no longer running
 * (`removeStaleWorkDirs`).
 */
import { existsSync, mkdirSync, readdirSync, rmdirSync, rmSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

export type WorkPurpose = 'import' | 'changesets' | 'update' | 'replication' | 'csreplication' | 'follow';

export interface WorkDir {
  /** The run's own directory (created). */
  readonly path: string;
  /** Removes it, and the database's temporary directory when no other run uses it. */
  remove(): void;
}

/** Whether a process with this pid is running (signal 0 only checks; EPERM: running, not ours). */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The temporary directory of a database: `.<name>.maphist-tmp` beside it. */
export function workDirRoot(db: string): string {
  const target = resolve(db);
  return join(dirname(target), `.${basename(target)}.maphist-tmp`);
}

/** The work directories of this process that are not removed yet (for the signal handlers). */
const active = new Set<string>();

/**
 * Creates this run's directory under the database's temporary directory, first removing what
 * runs that are no longer running left there.
 */
export function createWorkDir(db: string, purpose: WorkPurpose): WorkDir {
  removeStaleWorkDirs(db);
  const root = workDirRoot(db);
  const path = join(root, `${purpose}-${process.pid}`);
  rmSync(path, { recursive: true, force: true });
  // Not recursive: a database's directory that does not exist is the caller's error (ENOENT), not
  // created here. Another run may create the shared directory, or remove it when it empties.
  for (let attempt = 0; ; attempt++) {
    try {
      mkdirSync(root);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    try {
      mkdirSync(path);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 3) throw e;
    }
  }
  active.add(path);
  return {
    path,
    remove: () => {
      removeDir(path);
      active.delete(path);
      removeIfEmpty(root);
    },
  };
}

/**
 * Removes the runs' directories of processes that are no longer running from a database's
 * temporary directory (and the directory when it is left empty), and the temporary databases
 * `.<name>.importing-<pid>` that imports before this layout left beside the database. Returns what
 * it removed; a directory it cannot read or write (a read-only store) is left alone.
 */
export function removeStaleWorkDirs(db: string): string[] {
  const removed: string[] = [];
  const root = workDirRoot(db);
  for (const name of list(root)) {
    const pid = Number(/^[a-z]+-(\d+)$/.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || processRunning(pid)) continue;
    if (removeDir(join(root, name))) removed.push(join(root, name));
  }
  removeIfEmpty(root);
  const target = resolve(db);
  const legacy = new RegExp(`^\\.${escapeRegExp(basename(target))}\\.importing-(\\d+)(\\.wal)?$`);
  for (const name of list(dirname(target))) {
    const pid = Number(legacy.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || processRunning(pid)) continue;
    try {
      unlinkSync(join(dirname(target), name));
      removed.push(join(dirname(target), name));
    } catch {
      // not ours to fight over
    }
  }
  return removed;
}

/**
 * Stops what writes into this process's temporary directories (the stop functions given to
 * `trackTemporaryDir`) and removes the directories, keeping them registered: for the SIGINT and
 * SIGTERM handlers, which call `removeActiveWorkDirs` a moment later when a writer was stopped (the
 * result says whether one was). A DuckDB COPY that was between two files when its directory went
 * created its partition directories again now and then; once interrupted it writes no more.
 */
export function stopActiveWork(): boolean {
  for (const stop of stoppers.values()) {
    try {
      stop();
    } catch {
      // already ended
    }
  }
  for (const path of active) removeDir(path);
  for (const path of outside) removeDir(path);
  return stoppers.size > 0;
}

/** Removes this process's work and temporary directories and forgets them: for the SIGINT and SIGTERM handlers, which exit right after. */
export function removeActiveWorkDirs(): void {
  for (const path of active) {
    removeDir(path);
    removeIfEmpty(dirname(path));
  }
  active.clear();
  for (const path of outside) removeDir(path);
  outside.clear();
  stoppers.clear();
}

/** Temporary directories of this process outside a database's work directory (`maphist export`'s, beside its output). */
const outside = new Set<string>();
/** What writes into a temporary directory, by its path: stopped before the directory is removed on a signal. */
const stoppers = new Map<string, () => void>();

/**
 * Registers a temporary directory that is not under a database's work directory (`maphist export`
 * writes beside its output directory) for removal by `removeActiveWorkDirs` (SIGINT, SIGTERM);
 * its parent is never removed. `stop`: stops what writes into it (`stopActiveWork`). Returns the
 * function that removes it and unregisters it.
 */
export function trackTemporaryDir(path: string, stop?: () => void): () => void {
  outside.add(path);
  if (stop) stoppers.set(path, stop);
  return () => {
    removeDir(path);
    outside.delete(path);
    stoppers.delete(path);
  };
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function removeDir(path: string): boolean {
  try {
    rmSync(path, { recursive: true, force: true });
    return !existsSync(path);
  } catch {
    return false;
  }
}

function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // not empty (another run's directory) or gone
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
