/**
 * SIGINT and SIGTERM during a command that writes a database (import, changesets import): remove
 * the run's temporary files (store/work-dir.ts) and exit with EXIT_SIGINT / EXIT_SIGTERM. The
 * database is replaced (import) or committed (changesets import) only at the very end, so a stopped
 * run leaves the previous one as it was.
 */
import { removeActiveWorkDirs } from '../store/work-dir.js';
import { EXIT_SIGINT, EXIT_SIGTERM } from './exit-codes.js';

export async function removingWorkOnSignal<T>(command: string, run: () => Promise<T>): Promise<T> {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    await removeActiveWorkDirs();
    process.stderr.write(`${process.stderr.isTTY ? '\n' : ''}maphist ${command}: stopped by ${signal}; its temporary files are removed\n`);
    process.exit(signal === 'SIGINT' ? EXIT_SIGINT : EXIT_SIGTERM);
  };
  const handler = (signal: NodeJS.Signals) => void stop(signal);
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  try {
    return await run();
  } finally {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  }
}
