/**
 * File-system failures while a database is written (an import, a changeset load) as the catalog's
 * STORE_WRITE_FAILED, with a message that says what to fix. They come as Node's errno errors
 * (`mkdtemp`, `rename`) or as DuckDB's "IO Error" texts (the writer thread, the finish), so both
 * the code and the text are read.
 */
import { dirname } from 'node:path';
import { isMaphistError, MaphistError } from '../core/errors.js';

interface Cause {
  /** Node's errno code, or the one DuckDB's text names. */
  errno: string;
  fix: string;
}

const FIXES: Record<string, string> = {
  EACCES: 'no permission to write there: choose a --db path in a directory you may write to, or change its permissions',
  EPERM: 'no permission to write there: choose a --db path in a directory you may write to, or change its permissions',
  ENOSPC:
    'the disk is full: free space on that file system (an import needs room for the new database and its work files beside it) or choose a --db path on another one',
  EDQUOT: 'the disk quota is used up: free space or choose a --db path on another file system',
  EROFS: 'the file system is read-only: choose a --db path on a writable one',
  ENOENT: 'the directory does not exist: create it or choose another --db path',
  ENOTDIR: 'a part of the path is a file, not a directory: choose another --db path',
};

/** What DuckDB writes for each errno (strerror texts inside its "IO Error: …" messages). */
const TEXTS: [RegExp, string][] = [
  [/No space left on device/i, 'ENOSPC'],
  [/Disk quota exceeded/i, 'EDQUOT'],
  [/Permission denied/i, 'EACCES'],
  [/Operation not permitted/i, 'EPERM'],
  [/Read-only file system/i, 'EROFS'],
  [/Not a directory/i, 'ENOTDIR'],
];

function causeOf(e: unknown): Cause | undefined {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string' && FIXES[code]) return { errno: code, fix: FIXES[code]! };
  const message = e instanceof Error ? e.message : String(e);
  // DuckDB's own I/O failures only: a missing input file is INPUT_NOT_FOUND before this is reached.
  if (!/IO Error|store writer/i.test(message)) return undefined;
  for (const [re, errno] of TEXTS) if (re.test(message)) return { errno, fix: FIXES[errno]! };
  return undefined;
}

/**
 * `e` as STORE_WRITE_FAILED when it is a file-system failure of writing `target` or the files
 * beside it; anything else (coded errors included) is returned unchanged.
 */
export function asWriteFailure(e: unknown, target: string): unknown {
  if (isMaphistError(e)) return e;
  const cause = causeOf(e);
  if (!cause) return e;
  const detail = e instanceof Error ? e.message : String(e);
  return new MaphistError(
    'STORE_WRITE_FAILED',
    `Cannot write the database ${target} (in ${dirname(target)}): ${cause.fix}. (${detail})`,
    { errno: cause.errno },
    { cause: e },
  );
}
