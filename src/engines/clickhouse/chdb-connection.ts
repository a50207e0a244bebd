/**
 * ClickHouse embedded in the process (chDB, the npm package `chdb`: ClickHouse 26.7, offline; a
 * devDependency, docs/dependencies.md) as a `ClickHouseConnection`: the engine conformance suite and
 * the engine's tests run on it in `npm test`, the two-shard 18.16 cluster in `.ci/run`. One chDB
 * instance per process (it is one embedded server), its data in a temporary directory removed
 * when the process exits (and, when it was killed, by the next process that opens chDB); callers
 * keep apart by database. Queries run off the event loop
 * (`queryAsync`); an abort rejects at once, though chDB finishes the query in the background.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MaphistError } from '../../core/errors.js';
import type { ChQueryOptions, ClickHouseConnection } from './connection.js';

type ChDb = typeof import('chdb');
type Session = InstanceType<ChDb['Session']>;

let shared: { session: Session; dir: string } | undefined;
let inserts = 0;

const PREFIX = 'maphist-chdb-';
const OWNER = 'owner.pid';

/** Whether process `pid` is alive (signal 0 tests without sending; EPERM: alive, another user's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the data directories of processes that ended without their exit handler (killed by a
 * signal): each directory names its owner in `owner.pid`; one without the file is left alone (an
 * owner still starting, or an older maphist's).
 */
function sweepStale(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = join(tmpdir(), name);
    let pid: number;
    try {
      pid = Number(readFileSync(join(dir, OWNER), 'utf8'));
    } catch {
      continue;
    }
    if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid)) rmSync(dir, { recursive: true, force: true });
  }
}

async function sharedSession(): Promise<{ session: Session; dir: string }> {
  if (!shared) {
    const chdb: ChDb = await import('chdb');
    sweepStale();
    const dir = mkdtempSync(join(tmpdir(), PREFIX));
    writeFileSync(join(dir, OWNER), String(process.pid));
    shared = { session: new chdb.Session(dir), dir };
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return shared;
}

function failure(e: unknown): MaphistError {
  return new MaphistError('ENGINE_FAILURE', `chDB refused a query: ${e instanceof Error ? e.message.slice(0, 2000) : String(e)}`);
}

/** The process's chDB as a connection. */
export async function chdbConnection(): Promise<ClickHouseConnection> {
  const { session, dir } = await sharedSession();
  const run = async (sql: string, format: string, options: ChQueryOptions = {}) => {
    if (options.signal?.aborted) throw options.signal.reason;
    const settings = Object.entries(options.settings ?? {});
    const text = settings.length === 0 ? sql : `${sql}\nSETTINGS ${settings.map(([k, v]) => `${k} = ${typeof v === 'number' ? v : `'${v}'`}`).join(', ')}`;
    try {
      return await session.queryAsync(text, { format, ...(options.signal ? { signal: options.signal } : {}) });
    } catch (e) {
      if (options.signal?.aborted) throw options.signal.reason;
      throw failure(e);
    }
  };
  return {
    url: `chdb:${dir}`,
    async text(sql, options) {
      return (await run(sql, 'TabSeparated', options)).text();
    },
    async rows(sql, options) {
      return (await run(sql, 'JSONCompact', options)).json<{ data: unknown[][] }>().data;
    },
    async bytes(sql, format, options) {
      return (await run(sql, format, options)).bytes();
    },
    async insertRowBinary(table, body, options) {
      // chDB takes RowBinary from a file (its insert API takes text formats only).
      const file = join(dir, `insert-${process.pid}-${inserts++}.bin`);
      writeFileSync(file, body);
      try {
        await run(`INSERT INTO ${table} FROM INFILE '${file}' FORMAT RowBinary`, 'TabSeparated', options);
      } finally {
        unlinkSync(file);
      }
    },
    async ping() {
      return true;
    },
  };
}
