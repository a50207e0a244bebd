/**
 * Serving while following (issue 18 part 4): `maphist serve --replication URL_OR_DIR` runs
 * `maphist update --db PATH --replication URL_OR_DIR` every `--replication-interval` seconds in a
 * child process, and when the update has replaced the database file, opens the new file as a
 * store generation and swaps it in (src/query/generations.ts): running requests finish on the
 * generation they started with, new ones get the new data.
 *
 * Why a child process: an update decodes change files and rebuilds element histories, which is
 * heavy work that must not hold the server's event loop; the update is atomic on its own (a new
 * file renamed over the old one: docs/store.md), so a child that crashes or is killed leaves the
 * served file as it was, and the server never writes a file it has open (the old generation keeps
 * its file descriptor on the old inode until its last request ends).
 *
 * The follower only composes: what an update does is `maphist update`'s business, what a
 * generation is the handle's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';

export interface FollowerOptions {
  /** The database file the server serves and the update replaces. */
  db: string;
  /** The replication source (URL or directory), passed to `maphist update --replication`. */
  replication: string;
  /** Seconds between the end of one update and the start of the next. */
  intervalSeconds: number;
  /** At most this many sequences per update (`--max-sequences`): a server catching up swaps in its progress step by step. */
  maxSequences?: number;
  /** Opens the replaced file and swaps it in; resolves with the new generation's number. */
  swapIn(): Promise<number>;
  /** One line for the operator (the server's standard error). */
  log(line: string): void;
}

export interface Follower {
  /** Stops the timer, ends a running update (SIGTERM: the update cleans up and leaves the store as it was) and waits for it. */
  stop(): Promise<void>;
}

/** What identifies one version of the file: an update renames a new file over it. */
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
  let child: ChildProcess | undefined;
  let running: Promise<boolean> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let served = identity(o.db);

  function update(): Promise<number | null> {
    return new Promise((resolve) => {
      const [exe, ...args] = command;
      const limit = o.maxSequences === undefined ? [] : ['--max-sequences', String(o.maxSequences)];
      child = spawn(exe!, [...args, 'update', '--db', o.db, '--replication', o.replication, ...limit], { stdio: ['ignore', 'pipe', 'pipe'] });
      const forward = (stream: NodeJS.ReadableStream) => {
        let rest = '';
        stream.setEncoding('utf8');
        stream.on('data', (d: string) => {
          const lines = (rest + d).split('\n');
          rest = lines.pop()!;
          for (const line of lines) if (line.trim()) o.log(`replication: ${line}`);
        });
      };
      forward(child.stdout!);
      forward(child.stderr!);
      child.on('error', (e) => {
        o.log(`replication: could not run maphist update: ${e.message}`);
        resolve(null);
      });
      child.on('exit', (code) => resolve(code));
    });
  }

  async function once(): Promise<boolean> {
    const code = await update();
    child = undefined;
    if (code !== 0) {
      if (!stopped) o.log(`replication: maphist update exited with ${code ?? 'a signal'}; the served data stays as it was, next try in ${o.intervalSeconds} s`);
      return false;
    }
    const now = identity(o.db);
    if (now === undefined || now === served || stopped) return false;
    const number = await o.swapIn();
    served = now;
    o.log(`replication: serving generation ${number}`);
    return true;
  }

  /** The first update starts at once (the store catches up), the next ones `intervalSeconds` after the end of the last. */
  function schedule(delaySeconds = o.intervalSeconds): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = once()
        .catch((e: Error) => {
          o.log(`replication: ${e.message}`);
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
    },
  };
}
