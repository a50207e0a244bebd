/**
 * SIGINT and SIGTERM during a command that writes a database (import, changesets import, update): remove
 * the run's temporary files (store/work-dir.ts), then end by the signal itself, which the shell
 * reports as EXIT_SIGINT / EXIT_SIGTERM (128 + the signal's number). Re-raising the signal with its
 * default action ends the process at once: `process.exit` ran the native teardown while a DuckDB
 * call could still complete on another thread, which aborted the process now and then ("terminate
 * called after throwing an instance of 'Napi::Error'") after the files were already removed. The
 * database is replaced (import) or committed (changesets import) only at the very end, so a stopped
 * run leaves the previous one as it was.
 */
import { removeActiveWorkDirs, stopActiveWork } from '../store/work-dir.js';
import { EXIT_SIGINT, EXIT_SIGTERM } from './exit-codes.js';

/**
 * Milliseconds between stopping a writer (and a first removal) and the final removal and exit: an
 * interrupted DuckDB statement ends within a few milliseconds.
 */
const SETTLE_MS = 200;

/** Whether a signal is ending this process: the command's own failure (its interrupted statement) is not reported then. */
export function stoppingBySignal(): boolean {
  return stopping;
}

let stopping = false;

export async function removingWorkOnSignal<T>(command: string, run: () => Promise<T>): Promise<T> {
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const settle = stopActiveWork();
    process.stderr.write(`${process.stderr.isTTY ? '\n' : ''}maphist ${command}: stopped by ${signal}; its temporary files are removed\n`);
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
    const end = () => {
      removeActiveWorkDirs();
      process.kill(process.pid, signal);
      // Should the signal not end the process (a handler added elsewhere), the documented code.
      setTimeout(() => process.exit(signal === 'SIGINT' ? EXIT_SIGINT : EXIT_SIGTERM), 1000).unref();
    };
    // A stopped writer (an export's COPY) gets a moment to let go, the process held by the timer;
    // an import's writer thread is not stopped, and the signal ends it at once as before.
    if (settle) setTimeout(end, SETTLE_MS);
    else end();
  };
  const handler = (signal: NodeJS.Signals) => stop(signal);
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  try {
    return await run();
  } finally {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  }
}
