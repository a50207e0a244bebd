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
import { removeActiveWorkDirs } from '../store/work-dir.js';
import { EXIT_SIGINT, EXIT_SIGTERM } from './exit-codes.js';

export async function removingWorkOnSignal<T>(command: string, run: () => Promise<T>): Promise<T> {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    removeActiveWorkDirs();
    process.stderr.write(`${process.stderr.isTTY ? '\n' : ''}maphist ${command}: stopped by ${signal}; its temporary files are removed\n`);
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
    process.kill(process.pid, signal);
    // Should the signal not end the process (a handler added elsewhere), the documented code.
    setTimeout(() => process.exit(signal === 'SIGINT' ? EXIT_SIGINT : EXIT_SIGTERM), 1000).unref();
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
