/**
 * Loading changesets into a store: `maphist import --changesets FILE` (into the new database,
 * before it replaces the old one) and `maphist changesets import FILE --db PATH` (an existing
 * database, in one transaction). Either way a failure leaves the store as it was.
 *
 * By default only the changesets the store's states reference are kept: the planet dump holds
 * every changeset ever made (tens of GB), a regional store references a small share of them. The
 * referenced ids are held as one sorted Float64Array (8 bytes per changeset of the store) and each
 * changeset of the dump is looked up by binary search, so the dump is streamed, never held.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { MaphistError } from '../core/errors.js';
import { readChangesets, type ChangesetRecord } from '../io/changesets/open-changesets.js';
import { openStore } from './open-store.js';

export interface LoadChangesetsOptions {
  /** Keep every changeset of the file, not only those the states reference. */
  all?: boolean;
  onProgress?: (p: { changesetsRead: number; changesetsKept: number; bytesRead: number; bytesTotal: number }) => void;
}

export interface LoadChangesetsResult {
  read: number;
  kept: number;
  /** Changesets the states reference that the file does not have. */
  missing: number;
}

const INSERT_ROWS = 500;

function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}

function sqlTimestamp(epochSeconds: number | null): string {
  return epochSeconds === null ? 'NULL' : `make_timestamp(${epochSeconds}::BIGINT * 1000000)`;
}

function sqlNumber(n: number | null): string {
  return n === null ? 'NULL' : String(n);
}

function rowSql(c: ChangesetRecord): string {
  // A key repeated in a changeset would make MAP {} fail: the last value wins, as in the API.
  const seen = new Map<string, string>();
  for (let i = 0; i < c.tags.length; i += 2) seen.set(c.tags[i]!, c.tags[i + 1]!);
  const tags = seen.size === 0 ? 'CAST(MAP {} AS MAP(VARCHAR, VARCHAR))' : `MAP {${[...seen].map(([k, v]) => `${sqlString(k)}: ${sqlString(v)}`).join(', ')}}`;
  const b = c.bbox;
  return `(${c.id}, ${sqlTimestamp(c.createdAt)}, ${sqlTimestamp(c.closedAt)}, ${c.open}, ${sqlNumber(c.userId)}, ${c.userName === null ? 'NULL' : sqlString(c.userName)}, ` +
    `${sqlNumber(c.numChanges)}, ${sqlNumber(c.commentsCount)}, ${b ? b.join(', ') : 'NULL, NULL, NULL, NULL'}, ${tags})`;
}

function contains(sorted: Float64Array, id: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid]!;
    if (v === id) return true;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** Replaces the `changesets` table's rows with those of `file` (the caller owns the transaction). */
export async function loadChangesets(con: DuckDBConnection, file: string, options: LoadChangesetsOptions = {}): Promise<LoadChangesetsResult> {
  const referenced = (await con.runAndReadAll('SELECT DISTINCT changeset::DOUBLE FROM states ORDER BY 1')).getColumnsJS()[0] as number[];
  const wanted = Float64Array.from(referenced);
  await con.run('DELETE FROM changesets');
  let read = 0;
  let kept = 0;
  let pending: string[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    await con.run(`INSERT INTO changesets VALUES ${pending.join(',\n')}`);
    pending = [];
  };
  let bytes = { read: 0, total: 0 };
  for await (const batch of readChangesets(file, (r, t) => (bytes = { read: r, total: t }))) {
    for (const c of batch) {
      read++;
      if (!options.all && !contains(wanted, c.id)) continue;
      kept++;
      pending.push(rowSql(c));
      if (pending.length === INSERT_ROWS) await flush();
    }
    options.onProgress?.({ changesetsRead: read, changesetsKept: kept, bytesRead: bytes.read, bytesTotal: bytes.total });
  }
  await flush();
  const duplicates = (await con.runAndReadAll('SELECT count(*) - count(DISTINCT id) FROM changesets')).getColumnsJS()[0]![0] as bigint;
  if (Number(duplicates) > 0) throw new MaphistError('INPUT_CORRUPT', `${file} lists ${duplicates} changeset ids more than once; a changeset dump has each changeset once.`, { path: file });
  const [missing] = (await con.runAndReadAll(`SELECT count(*)::INTEGER FROM (SELECT DISTINCT changeset FROM states) s ANTI JOIN changesets c ON c.id = s.changeset`)).getColumnsJS()[0] as number[];
  await con.run(`INSERT OR REPLACE INTO meta VALUES ('changesetsSource', ${sqlString(JSON.stringify(file.split('/').pop()))}), ('changesets', '${kept}')`);
  return { read, kept, missing: missing! };
}

/**
 * `maphist changesets import FILE --db PATH`: loads the changesets into an existing store in one
 * transaction (a failure or a kill leaves the store as it was).
 */
export async function importChangesets(db: string, file: string, options: LoadChangesetsOptions = {}): Promise<LoadChangesetsResult> {
  const store = await openStore(db, { readOnly: false });
  try {
    const con = await store.connect();
    try {
      await con.run('BEGIN TRANSACTION');
      try {
        const result = await loadChangesets(con, file, options);
        await con.run('COMMIT');
        await con.run('CHECKPOINT');
        return result;
      } catch (e) {
        await con.run('ROLLBACK');
        throw e;
      }
    } finally {
      con.closeSync();
    }
  } finally {
    store.close();
  }
}
