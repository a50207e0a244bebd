/**
 * SIGINT and SIGTERM during a command that writes a database (import, changesets import): remove
 * the run's temporary files (store/work-dir.ts) and exit with EXIT_SIGINT / EXIT_SIGTERM. The
 * database is replaced (import) or committed (changesets import) only at the very end, so a stopped
 * run leaves the previous one as it was.
 */
import { removeActiveWorkDirs } from '../store/work-dir.js';
import { EXIT_SIGINT, EXIT_SIGTERM } from './exit-codes.js';

export async function removingWorkOnSignal<T>(command: string, run: () => Promise<T>): Promise<T> {
  const stop = (signal: NodeJS.Signals) => {
    removeActiveWorkDirs();
    process.stderr.write(`${process.stderr.isTTY ? '\n' : ''}maphist ${command}: stopped by ${signal}; its temporary files are removed\n`);
    process.exit(signal === 'SIGINT' ? EXIT_SIGINT : EXIT_SIGTERM);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    return await run();
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
