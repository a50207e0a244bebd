/** `maphist sql --db PATH [--json] "<query>"`: run SQL against a database (read-only), CSV or JSON out. */
import { parseArgs } from 'node:util';
import { MaphistError } from '../../core/errors.js';
import { openStore } from '../../store/open-store.js';
import { DEFAULT_DB } from '../defaults.js';

export async function sqlCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { db: { type: 'string', default: DEFAULT_DB }, json: { type: 'boolean', default: false } },
  });
  if (positionals.length !== 1) throw new MaphistError('CLI_USAGE', 'usage: maphist sql [--db PATH] [--json] "<query>"');
  const store = await openStore(values.db!);
  const con = await store.connect();
  try {
    let reader;
    try {
      reader = await con.runAndReadAll(positionals[0]);
    } catch (e) {
      throw new MaphistError('CLI_USAGE', `the query failed: ${(e as Error).message}`);
    }
    const rows = reader.getRowObjectsJson();
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

function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
