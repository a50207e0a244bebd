/**
 * `maphist sql --db PATH [--json] [--allow-files] "<query>"`: run SQL against a database, CSV or
 * JSON out. The database is read-only and the query runs in a sandbox (engines/duckdb/sql-sandbox.ts,
 * SECURITY.md): no file reads or writes, no ATTACH, no extension install or load, no setting back;
 * `--allow-files` allows local files.
 */
import { parseArgs } from 'node:util';
import { MaphistError } from '../../core/errors.js';
import { enterSqlSandbox, refusedBySandbox } from '../../engines/duckdb/sql-sandbox.js';
import { openStore } from '../../store/open-store.js';
import { DEFAULT_DB } from '../defaults.js';

const USAGE = 'usage: maphist sql [--db PATH] [--json] [--allow-files] "<query>"';

export async function sqlCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      db: { type: 'string', default: DEFAULT_DB },
      json: { type: 'boolean', default: false },
      'allow-files': { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1) throw new MaphistError('CLI_USAGE', USAGE);
  const allowFiles = values['allow-files']!;
  const store = await openStore(values.db!);
  const con = await store.connect();
  try {
    await enterSqlSandbox(con, { allowFiles });
    let reader;
    try {
      reader = await con.runAndReadAll(positionals[0]);
    } catch (e) {
      const message = (e as Error).message;
      if (refusedBySandbox(message)) {
        const hint = allowFiles
          ? 'maphist sql reads the database read-only and loads no extensions'
          : 'maphist sql reads the database read-only, with no file access and no extensions; --allow-files allows local files';
        throw new MaphistError('SQL_NOT_ALLOWED', `the query was refused (${hint}): ${message.split('\n')[0]}`);
      }
      throw new MaphistError('CLI_USAGE', `the query failed: ${message}`);
    }
    const rows = reader.getRowObjectsJS().map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, plain(v)])));
    if (values.json) {
      process.stdout.write(JSON.stringify(rows) + '\n');
      return;
    }
    const names = reader.columnNames();
    const lines = [names.map(csvField).join(',')];
    for (const row of rows) lines.push(names.map((n) => csvField(row[n])).join(','));
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    con.closeSync();
    store.close();
  }
}

/**
 * A DuckDB value as plain JSON data: integers as numbers while exact (strings beyond 2^53), maps
 * as objects, timestamps as ISO strings, blobs (WKB) as hex.
 */
function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
  if (Array.isArray(v)) {
    const isMap = v.length > 0 && v.every((e) => e !== null && typeof e === 'object' && 'key' in e && 'value' in e && Object.keys(e).length === 2);
    return isMap ? Object.fromEntries(v.map((e: { key: unknown; value: unknown }) => [String(plain(e.key)), plain(e.value)])) : v.map(plain);
  }
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
