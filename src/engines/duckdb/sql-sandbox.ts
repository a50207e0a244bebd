/**
 * The sandbox of `maphist sql`: the settings that take DuckDB's reach outside the database away
 * from a user's query, applied to the instance before the query runs and then locked
 * (`lock_configuration`), so no statement of the query can set them back.
 *
 * - `enable_external_access = false`: no file is read or written (`read_text`, `read_csv`,
 *   `COPY … TO`, `EXPORT DATABASE`, `ATTACH`, `glob`), no URL is fetched, no extension is
 *   installed or loaded. The database itself is opened before, read-only.
 * - `autoinstall_known_extensions` / `autoload_known_extensions = false`: nothing is downloaded or
 *   loaded behind the query's back.
 *
 * With `allowFiles` (`--allow-files`, for local work) local files may be read and written (every
 * directory is allowed), while extensions still cannot be loaded (external access stays off) or
 * installed: the extension directory is a path that cannot be created, so `INSTALL` fails before
 * it downloads anything.
 */
import type { DuckDBConnection } from '@duckdb/node-api';

/** A path no directory can be created at (`/dev/null` is not a directory). */
const NO_EXTENSION_DIRECTORY = '/dev/null/maphist-sql-no-extensions';

export function sandboxStatements(allowFiles: boolean): string[] {
  return [
    'SET autoinstall_known_extensions = false',
    'SET autoload_known_extensions = false',
    'SET allow_community_extensions = false',
    ...(allowFiles ? [`SET extension_directory = '${NO_EXTENSION_DIRECTORY}'`, "SET allowed_directories = ['/']"] : []),
    'SET enable_external_access = false',
    'SET lock_configuration = true',
  ];
}

/** Applies the sandbox to the connection's instance (the settings are global) and locks it. */
export async function enterSqlSandbox(con: DuckDBConnection, options: { allowFiles: boolean }): Promise<void> {
  for (const statement of sandboxStatements(options.allowFiles)) await con.run(statement);
}

/**
 * Whether DuckDB refused a statement because of the sandbox or the read-only store (rather than
 * the statement being wrong): a permission error, a locked setting, a write to the read-only file.
 */
export function refusedBySandbox(message: string): boolean {
  return /^Permission Error|configuration has been locked|attached in read-only mode/i.test(message);
}
