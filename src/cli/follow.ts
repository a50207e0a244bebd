/**
 * Serving while following (issue 18 part 4): `maphist serve --replication URL_OR_DIR` keeps a
 * second file of the store, the **spare**, in its work directory beside the database
 * (`.<name>.maphist-tmp/follow-<pid>/spare.duckdb`), and every `--replication-interval` seconds:
 *
 * 1. runs `maphist update --db SPARE --replication URL_OR_DIR` in a child process, and with
 *    `--changeset-replication` `maphist changesets update --db SPARE --replication …` after it: the
 *    spare is open in no other process, so each update is one transaction on it (no copy);
 * 2. when that moved the spare forward, publishes it: a hard link keeps the served file's inode
 *    in the work directory (`previous.duckdb`), the spare is renamed over the database (atomic: the
 *    database is always one complete store, before or after), and the server opens it as a new
 *    store generation and swaps it in (src/query/generations.ts): running requests finish on the
 *    generation they started with, new ones get the new data;
 * 3. when the last request of the old generation has ended (its file closed), the old file becomes
 *    the next spare. It is behind by the sequences just applied, and its own `meta` says so: the
 *    next update of it applies those and the new ones.
 *
 * So each file gets every diff applied once, in place, and no update copies the store (only the
 * first spare is a copy, made when the follower starts). The cost is a second file of the store's
 * size on disk.
 *
 * Why a child process: an update decodes change files and rebuilds element histories, which is
 * heavy work that must not hold the server's event loop; a child that crashes or is killed leaves
 * the spare before or after its transaction and the served file untouched.
 *
 * The follower only composes: what an update does is `maphist update`'s business, what a
 * generation is the handle's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants, linkSync, renameSync, rmSync, statSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createWorkDir, type WorkDir } from '../store/work-dir.js';
import { exitCodeFor } from './exit-codes.js';

/** `maphist changesets update` on a store without changesets (CHANGESETS_NOT_LOADED). */
const EXIT_NO_CHANGESETS = exitCodeFor('CHANGESETS_NOT_LOADED');

export interface FollowerOptions {
  /** The database file the server serves. */
  db: string;
  /** The replication source (URL or directory), passed to `maphist update --replication`. */
  replication?: string;
  /** The changeset replication source, passed to `maphist changesets update --replication` (a store that holds changesets). */
  changesetReplication?: string;
  /** Seconds between the end of one update and the start of the next. */
  intervalSeconds: number;
  /** At most this many new sequences per update (`--max-sequences`): a server catching up swaps in its progress step by step. */
  maxSequences?: number;
  /** Opens the database file (just replaced) and swaps it in: the new generation's number, and when the old one has closed. */
  swapIn(): Promise<{ number: number; previousClosed: Promise<void> }>;
  /** One line for the operator (the server's standard error). */
  log(line: string): void;
}

export interface Follower {
  /** Stops the timer, ends a running update (SIGTERM: it rolls back and cleans up), waits for it and removes the spare. */
  stop(): Promise<void>;
}

/** What identifies one version of the file: a publication renames another file over it. */
function identity(path: string): string | undefined {
  try {
    const s = statSync(path);
    return `${s.ino}/${s.size}/${s.mtimeMs}`;
  } catch {
    return undefined;
  }
}

export function startFollower(o: FollowerOptions): Follower {
  // This process's Node and command line script: the same maphist as the server.
  const command = [process.execPath, process.argv[1]!];
  let work: WorkDir | undefined;
  let child: ChildProcess | undefined;
  let running: Promise<boolean> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let served = identity(o.db);
  /** The spare is there and in no generation's use (else: resolves once it is, or false: make a new one). */
  let spareReady: Promise<boolean> = Promise.resolve(false);
  /** How many sequences (of the diffs, of the changeset diffs) the spare is behind the served file (negative: ahead). */
  let spareLag = { diffs: 0, changesets: 0 };
  /** Set when the store holds no changesets (exit 17): changeset replication is not followed. */
  let changesetsOff = false;

  const spare = () => join(work!.path, 'spare.duckdb');
  const previous = () => join(work!.path, 'previous.duckdb');

  /**
   * Runs a maphist command on the spare: its exit code and the number of sequences it applied, read
   * from its summary line (`… to sequence N (…) from K change file(s)|diff(s) …`: update.ts, changesets.ts).
   */
  function run(commandArgs: string[]): Promise<{ code: number | null; applied: number }> {
    return new Promise((resolve) => {
      const [exe, ...args] = command;
      child = spawn(exe!, [...args, ...commandArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
      let applied = 0;
      const forward = (stream: NodeJS.ReadableStream) => {
        let rest = '';
        stream.setEncoding('utf8');
        stream.on('data', (d: string) => {
          const lines = (rest + d).split('\n');
          rest = lines.pop()!;
          for (const line of lines) {
            if (!line.trim()) continue;
            const m = / to sequence \d+ \([^)]*\) from (\d+) (?:change file|diff)/.exec(line);
            if (m) applied = Number(m[1]);
            o.log(`replication: ${line.replace(spare(), o.db)}`);
          }
        });
      };
      forward(child.stdout!);
      forward(child.stderr!);
      child.on('error', (e) => {
        o.log(`replication: could not run maphist ${commandArgs[0]}: ${e.message}`);
        resolve({ code: null, applied: 0 });
      });
      // 'close', not 'exit': the summary line may still be in the pipe when the process exits.
      child.on('close', (code) => resolve({ code, applied }));
    });
  }

  /** A spare at the served file's state: a copy of it (the first time, and when another process replaced the database). */
  async function newSpare(): Promise<void> {
    rmSync(spare(), { force: true });
    rmSync(`${spare()}.wal`, { force: true });
    served = identity(o.db);
    await copyFile(o.db, spare(), constants.COPYFILE_FICLONE);
    spareLag = { diffs: 0, changesets: 0 };
  }

  /**
   * Brings the spare forward (the diffs, then the changeset diffs) and moves its lag by what each
   * update applied (an update either commits or leaves the spare as it was). False after a failure.
   */
  async function updateSpare(): Promise<boolean> {
    if (o.replication !== undefined) {
      const limit = o.maxSequences === undefined ? [] : ['--max-sequences', String(o.maxSequences + Math.max(0, spareLag.diffs))];
      const r = await run(['update', '--db', spare(), '--replication', o.replication, ...limit]);
      child = undefined;
      spareLag.diffs -= r.applied;
      if (r.code !== 0) return failed('maphist update', r.code);
    }
    if (o.changesetReplication !== undefined && !changesetsOff && !stopped) {
      const r = await run(['changesets', 'update', '--db', spare(), '--replication', o.changesetReplication]);
      child = undefined;
      spareLag.changesets -= r.applied;
      if (r.code === EXIT_NO_CHANGESETS) {
        changesetsOff = true;
        o.log('replication: the store holds no changesets (load a dump with maphist changesets import); changeset replication is not followed');
      } else if (r.code !== 0) return failed('maphist changesets update', r.code);
    }
    return true;
  }

  function failed(what: string, code: number | null): false {
    if (!stopped) o.log(`replication: ${what} exited with ${code ?? 'a signal'}; the served data stays as it was, next try in ${o.intervalSeconds} s`);
    return false;
  }

  async function once(): Promise<boolean> {
    work ??= createWorkDir(o.db, 'follow');
    if (!(await spareReady)) await newSpare();
    if (stopped) return false;
    const ok = await updateSpare();
    // Published when the spare is ahead of the served file in one kind and behind in none (a
    // failure may leave it behind in the other: then the next round first catches up).
    const ahead = (spareLag.diffs < 0 || spareLag.changesets < 0) && spareLag.diffs <= 0 && spareLag.changesets <= 0;
    if (!ok || !ahead || stopped) {
      spareReady = Promise.resolve(true);
      return false;
    }
    if (identity(o.db) !== served) {
      // Another process replaced the database (an import, an update): it wins; the spare is dropped.
      o.log(`replication: ${o.db} was replaced by another process; its spare is made anew from it`);
      spareReady = Promise.resolve(false);
      return false;
    }
    // Publish: keep the served inode as the next spare, rename the updated spare over the database.
    rmSync(previous(), { force: true });
    linkSync(o.db, previous());
    renameSync(spare(), o.db);
    served = identity(o.db);
    let swapped: Awaited<ReturnType<FollowerOptions['swapIn']>>;
    try {
      swapped = await o.swapIn();
    } catch (e) {
      o.log(`replication: the updated database could not be opened (${(e as Error).message}); the old data is served until the next update`);
      rmSync(previous(), { force: true });
      spareReady = Promise.resolve(false);
      return false;
    }
    // The old file, the next spare, is behind by what the spare was ahead.
    spareLag = { diffs: -spareLag.diffs, changesets: -spareLag.changesets };
    // The old file is free once its generation has closed: then it is the spare.
    spareReady = swapped.previousClosed.then(
      () => {
        renameSync(previous(), spare());
        return true;
      },
      () => false,
    );
    o.log(`replication: serving generation ${swapped.number}`);
    return true;
  }

  /** The first update starts at once (the store catches up), the next ones `intervalSeconds` after the end of the last. */
  function schedule(delaySeconds = o.intervalSeconds): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = once()
        .catch((e: Error) => {
          o.log(`replication: ${e.message}`);
          spareReady = Promise.resolve(false);
          return false;
        })
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, delaySeconds * 1000);
    timer.unref();
  }
  schedule(0);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      child?.kill('SIGTERM');
      await running?.catch(() => undefined);
      work?.remove();
    },
  };
}
