/**
 * The one catalog of coded errors. Every failure a user can cause or meet has a code here, a
 * message template that says what to fix, and nothing else: each API version maps codes to HTTP
 * statuses in exactly one place (api/v1/error-status.ts, api/v2/error-status.ts), the CLI maps
 * them to exit codes in cli/exit-codes.ts.
 */

export interface ErrorDefinition {
  /** One-line description for the docs. */
  readonly summary: string;
}

export const ERROR_CATALOG = {
  // ---- input files (import) ----
  INPUT_NOT_FOUND: { summary: 'The input file does not exist or cannot be read.' },
  INPUT_NOT_OSM: { summary: 'The input file is not the OSM file the command reads (a PBF or XML history; for changesets, an XML changeset dump).' },
  INPUT_TRUNCATED: { summary: 'The input file ends in the middle of a block or element.' },
  INPUT_CORRUPT: { summary: 'The input file has a damaged block or element.' },
  INPUT_UNSORTED: { summary: 'The input file is not sorted by type, id and version.' },
  INPUT_UNSUPPORTED: { summary: 'The input file needs a feature maphist does not read.' },

  // ---- store ----
  DB_NOT_FOUND: { summary: 'There is no maphist database at the given path.' },
  DB_INVALID: { summary: 'The file is not a maphist database, or one of another schema version.' },
  IMPORT_OUT_OF_MEMORY: { summary: 'An import needed more memory than its budget gave DuckDB (give a larger --memory-limit).' },
  STORE_WRITE_FAILED: { summary: 'A database or its work files cannot be written (no permission, disk full, read-only or missing directory).' },
  DB_BUSY: {
    summary:
      'Another process is writing the database or holds it open, or the database was replaced while an update ran; run the command again when that is done.',
  },
  CHANGESETS_NOT_LOADED: { summary: 'The database holds no changesets to update: load a changeset dump first (maphist changesets import).' },
  ENGINE_FAILURE: { summary: 'The database engine failed while answering (the server logs the cause: a damaged, removed or closed store).' },

  // ---- replication sources (maphist update --replication) ----
  REPLICATION_GAP: {
    summary: "A sequence between the store's and the replication source's latest is missing (its state or change file): nothing was applied.",
  },
  REPLICATION_NO_START: {
    summary:
      "No sequence of the replication source continues the store: the source begins after the store's data ends, or ends before the store's sequence (--start-sequence chooses one).",
  },
  REPLICATION_SOURCE_FAILED: { summary: 'The replication source cannot be read (not found, unreachable, timed out or refusing, after retries).' },
  REPLICATION_INVALID: {
    summary: 'A file of the replication source is malformed (a state file without a sequence or timestamp, a change file that is not gzip).',
  },

  // ---- filter language ----
  FILTER_SYNTAX: { summary: 'The filter is not valid in the filter language.' },
  FILTER_TOO_LONG: { summary: 'The filter is longer than the server accepts.' },
  FILTER_TOO_DEEP: { summary: 'The filter nests parentheses or operators deeper than the server accepts.' },
  FILTER_TOO_COMPLEX: { summary: 'The filter expands into too many terms to evaluate safely.' },
  FILTER_NOT_ALLOWED: { summary: 'The filter uses a condition this endpoint does not support.' },

  // ---- request parameters (both API versions; each maps them to statuses in its error-status.ts) ----
  PARAM_NONE: { summary: 'The request has no parameters, but needs a boundary.' },
  PARAM_UNKNOWN: { summary: 'A parameter is not accepted by this resource.' },
  PARAM_DUPLICATE: { summary: 'A parameter is given more than once.' },
  PARAM_INVALID: { summary: 'A parameter value is not valid (the message says which and why).' },
  CONTENT_TYPE_UNSUPPORTED: { summary: 'The request body has a content type the resource does not read.' },
  BOUNDARY_INVALID: { summary: 'A boundary (bboxes, bcircles, bpolys, aoi) is malformed or not a valid geometry.' },
  BOUNDARY_OUTSIDE_DATA: { summary: 'The boundary does not intersect the area the data covers.' },
  BOUNDARY_RELATION_NOT_FOUND: {
    summary:
      'A boundary given as a relation (bpolys=relation/<id>) is not in the store, or did not exist (not yet created, or deleted) at the time its polygon is taken from.',
  },
  BOUNDARY_RELATION_NOT_AREAL: {
    summary:
      'A boundary given as a relation (bpolys=relation/<id>) has no valid polygon at the time its polygon is taken from (not a multipolygon or boundary, or its rings could not be assembled).',
  },
  TIME_INVALID: { summary: 'The time parameter is not valid.' },
  TIME_OUTSIDE_DATA: { summary: 'A requested time lies outside the time range of the data.' },
  QUERY_TIMEOUT: { summary: 'The query took longer than its time limit and was cancelled.' },
  CLIENT_DISCONNECTED: { summary: 'The client closed the connection before the answer was complete; the query was cancelled.' },
  SERVER_SHUTTING_DOWN: { summary: 'The server is shutting down; queries in flight are cancelled.' },
  SERVER_BUSY: {
    summary: 'Every slot for heavy requests is taken and their queue is full, or the server is over its memory budget; retry after the seconds in Retry-After.',
  },
  PAYLOAD_TOO_LARGE: { summary: 'The request or its result is larger than the server accepts.' },
  METHOD_NOT_ALLOWED: { summary: 'The resource does not accept this HTTP method.' },
  RESOURCE_NOT_FOUND: { summary: 'There is no resource at this path.' },
  REQUEST_MALFORMED: { summary: 'The request cannot be read (a malformed URL, header or body).' },
  URI_TOO_LONG: { summary: 'The request URL, or a part of its path, is longer than the server accepts.' },
  HEADERS_TOO_LARGE: { summary: 'The request line and headers together are longer than the server accepts.' },

  // ---- API keys (the version 2 request guard, src/auth) ----
  API_KEY_MISSING: { summary: 'The request carries no API key; version 2 statistics and extraction need one.' },
  API_KEY_INVALID: { summary: 'The API key is unknown or revoked.' },
  API_KEY_QUOTA_EXCEEDED: { summary: 'The API key has used up its daily quota.' },
  API_KEY_RATE_LIMITED: { summary: 'The API key sent more requests this minute than its limit allows.' },

  // ---- API keys (the command line, maphist keys) ----
  KEY_NOT_FOUND: { summary: 'There is no API key with the given id.' },
  KEYS_DB_BUSY: { summary: 'The keys file stayed locked by another process.' },
  KEYS_DB_INVALID: { summary: 'The keys file is not a DuckDB database maphist can open.' },

  // ---- command line ----
  CLI_USAGE: { summary: 'The command line is not valid.' },
  SQL_NOT_ALLOWED: {
    summary:
      'maphist sql refused the query: it reads or writes a file, attaches a database, installs or loads an extension, changes a locked setting or writes to the read-only store (--allow-files allows local files).',
  },

  // ---- anything else ----
  INTERNAL_ERROR: { summary: 'An unexpected failure (a bug): the server logs it, the command line prints its stack.' },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** An error with a stable code from the catalog and a message meant for the user. */
export class MaphistError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  /** `options.cause`: the failure this one reports (an engine's or the file system's error), kept for the log. */
  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MaphistError';
    this.code = code;
    this.details = details;
  }
}

export function isMaphistError(e: unknown): e is MaphistError {
  return e instanceof MaphistError;
}
