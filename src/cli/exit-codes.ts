/** The one place where coded errors become process exit codes. */
import type { ErrorCode } from '../core/errors.js';

export const EXIT_OK = 0;
/** Unexpected failure (a bug): the message and stack are printed. */
export const EXIT_INTERNAL = 1;
/** A writing command (import, changesets import) stopped by SIGINT / SIGTERM, its temporary files removed (128 + signal number). */
export const EXIT_SIGINT = 130;
export const EXIT_SIGTERM = 143;

const EXIT_CODES: Partial<Record<ErrorCode, number>> = {
  CLI_USAGE: 2,
  INPUT_NOT_FOUND: 3,
  INPUT_NOT_OSM: 4,
  INPUT_TRUNCATED: 5,
  INPUT_CORRUPT: 5,
  INPUT_UNSORTED: 6,
  INPUT_UNSUPPORTED: 6,
  DB_NOT_FOUND: 7,
  DB_INVALID: 7,
  STORE_WRITE_FAILED: 12,
  KEY_NOT_FOUND: 8,
  KEYS_DB_BUSY: 9,
  KEYS_DB_INVALID: 7,
  SQL_NOT_ALLOWED: 13,
};

export function exitCodeFor(code: ErrorCode): number {
  return EXIT_CODES[code] ?? 10;
}
