/**
 * `maphist changesets update`: brings a store's `changesets` table up to date from changeset
 * replication (the planet's `replication/changesets/`: `state.yaml`, `AAA/BBB/CCC.osm.gz`;
 * docs/replication.md, "Changeset replication").
 *
 *   const r = await updateChangesets({ db, location: 'https://planet.openstreetmap.org/replication/changesets/' });
 *   r.upToDate;   // nothing to apply
 *   r.sequence;   // the store's position afterwards
 *
 * 1. Where the store stands (a read-only open): its position (`meta`
 *    `changesetReplicationSequenceNumber`), or, without one, the start rule: the first sequence
 *    whose state is after the time the loaded changesets reach (`changesetsTimestamp`, the newest
 *    `created_at`/`closed_at` of the dump; else of the table).
 * 2. The plan after it, a gap refused (`REPLICATION_GAP`), the diffs fetched into a work directory
 *    beside the database (io/replication/prepare.ts), parsed with the dump's reader: the last record
 *    of each changeset wins, except that an open record does not replace a stored closed changeset
 *    (changesets are not reopened: such a record is older, from a diff applied again).
 * 3. One DuckDB transaction on the file (a kill leaves it before or after; DuckDB's WAL): the
 *    records replace the stored ones by id, those the keep rule drops are removed, and the new
 *    position is written. Another process holding the file open makes the open fail (`DB_BUSY`).
 *
 * Keep rule (a store loaded without --all): a changeset stays when the states reference it, or it
 * may still be referenced by edits the store does not have yet: it is open, or it closed after
 * the store's data end T (`lastTimestamp`; its edits are all at or before its close, and the store
 * has every edit up to T). A store loaded with --all keeps every changeset. Stored changesets
 * that the rule no longer keeps (T moved past their close) are removed: those that closed since
 * the previous run's T (`changesetReplicationDataEnd`), so a run reads only that window.
 */
import { DuckDBDataChunk, type DuckDBConnection } from '@duckdb/node-api';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { MaphistError } from '../core/errors.js';
import { readChangesets, type ChangesetRecord } from '../io/changesets/open-changesets.js';
import { prepareReplicationUpdate } from '../io/replication/prepare.js';
import { openReplicationSource, type ReplicationSourceOptions } from '../io/replication/source.js';
import type { StartResult } from '../io/replication/start.js';
import { appendChunk, CHANGESET_POSITION_KEYS, CHUNK_ROWS, CHUNK_TYPES } from './changesets.js';
import { sqlString } from './sql-string.js';
import { diskFullError } from './disk-full.js';
import { iso } from './metadata.js';
import { openStore } from './open-store.js';
import { createWorkDir } from './work-dir.js';
import { asWriteFailure } from './write-failure.js';

export interface UpdateChangesetsOptions {
  /** The database file (updated in place, in one transaction). */
  db: string;
  /** The changeset replication source: an http(s):// or file:// URL or a directory. */
  location: string;
  /** The first sequence to apply, whatever the store's position (`--start-sequence`). */
  startSequence?: number;
  /** At most this many sequences in this run (`--max-sequences`). */
  maxSequences?: number;
  /** Stops fetching (the caller's cancellation; the store is then unchanged). */
  signal?: AbortSignal;
  /** Time-outs and retries of the source (tests shorten them). */
  source?: Omit<ReplicationSourceOptions, 'kind' | 'signal'>;
  /**
   * Called at each step (progress; the tests kill the process there): the diffs fetched and parsed,
   * every row written in the open transaction, the transaction committed (not yet checkpointed).
   */
  onPhase?: (phase: 'fetched' | 'written' | 'committed') => void;
}

export interface UpdateChangesetsResult {
  /** The store's sequence before the run (undefined: it had none). */
  before: number | undefined;
  /** The start search, when the store had no position and no --start-sequence was given. */
  start: StartResult | undefined;
  /** Nothing to apply: the store is at the source's latest. */
  upToDate: boolean;
  /** The store's position afterwards (its state's sequence and timestamp, epoch seconds). */
  sequence: number | undefined;
  timestamp: number | undefined;
  /** Sequences applied. */
  sequences: number;
  /** Changeset records read from the diffs, and distinct changesets among them. */
  recordsRead: number;
  changesetsRead: number;
  /** Records that replaced or added a row; records left out by the keep rule; open records older than a stored close. */
  written: number;
  notKept: number;
  stale: number;
  /** Stored changesets removed by the keep rule (closed since the previous run's data end, referenced by nothing). */
  pruned: number;
  /** Rows of `changesets` afterwards. */
  rows: number;
  /** The keep rule used: every changeset (a store loaded with --all), or the referenced, open and recent ones. */
  all: boolean;
  /** The store's data end used by the keep rule (epoch seconds). */
  dataEnd: number;
}

/** What `meta` says about the store's changesets (JSON values; absent keys undefined). */
interface ChangesetMeta {
  source: string | undefined;
  all: boolean | undefined;
  loadedUpTo: number | undefined;
  sequence: number | undefined;
  previousDataEnd: number | undefined;
  dataEnd: number;
}

const epoch = (isoText: string) => Date.parse(isoText) / 1000;

/** A TIMESTAMP literal (UTC, as the table's columns) of epoch seconds. */
const timestampSql = (epochSeconds: number) => `TIMESTAMP '${new Date(epochSeconds * 1000).toISOString().slice(0, 23).replace('T', ' ')}'`;

async function readChangesetMeta(con: DuckDBConnection): Promise<ChangesetMeta> {
  const rows = (await con.runAndReadAll('SELECT key, value FROM meta')).getRows() as [string, string][];
  const meta = new Map(rows.map(([k, v]) => [k, JSON.parse(v) as unknown]));
  const text = (key: string) => (typeof meta.get(key) === 'string' ? (meta.get(key) as string) : undefined);
  const time = (key: string) => (text(key) === undefined ? undefined : epoch(text(key)!));
  const sequence = meta.get('changesetReplicationSequenceNumber');
  return {
    source: text('changesetsSource'),
    all: typeof meta.get('changesetsAll') === 'boolean' ? (meta.get('changesetsAll') as boolean) : undefined,
    loadedUpTo: time('changesetsTimestamp'),
    sequence: typeof sequence === 'number' ? sequence : undefined,
    previousDataEnd: time('changesetReplicationDataEnd'),
    dataEnd: epoch(text('lastTimestamp') ?? ''),
  };
}

/** What must not change between the plan and the transaction (another run, a new dump). */
function fingerprint(m: ChangesetMeta): string {
  return JSON.stringify([m.source, m.loadedUpTo, m.sequence]);
}

/** Epoch seconds (DuckDB TIMESTAMP) of the newest created_at / closed_at in the table; undefined when empty. */
async function newestStored(con: DuckDBConnection): Promise<number | undefined> {
  const v = (await con.runAndReadAll('SELECT epoch(greatest(max(created_at), max(closed_at)))::DOUBLE FROM changesets')).getColumnsJS()[0]![0];
  return v === null || v === undefined ? undefined : Number(v);
}

/** The last record of each changeset over the files in order. */
async function lastRecords(files: readonly string[]): Promise<{ records: Map<number, ChangesetRecord>; read: number }> {
  const records = new Map<number, ChangesetRecord>();
  let read = 0;
  for (const file of files) {
    for await (const batch of readChangesets(file)) {
      for (const c of batch) {
        read++;
        records.set(c.id, c);
      }
    }
  }
  return { records, read };
}

export async function updateChangesets(options: UpdateChangesetsOptions): Promise<UpdateChangesetsResult> {
  const { db } = options;
  // 1. Where the store stands (read-only: a server may have it open meanwhile).
  const reading = await openStore(db);
  let meta: ChangesetMeta;
  let startTime: number;
  try {
    const con = await reading.connect();
    try {
      meta = await readChangesetMeta(con);
      if (meta.source === undefined) {
        throw new MaphistError(
          'CHANGESETS_NOT_LOADED',
          `${db} holds no changesets to update: load a changeset dump first (maphist changesets import <changesets-*.osm.bz2> --db ${db}, ` +
            'or maphist import --changesets), then follow changeset replication from there.',
          { db },
        );
      }
      startTime = meta.loadedUpTo ?? (await newestStored(con)) ?? meta.dataEnd;
    } finally {
      con.closeSync();
    }
  } finally {
    reading.close();
  }

  // 2. The plan and its files, then their records.
  const source = await openReplicationSource(options.location, { ...options.source, kind: 'changesets', signal: options.signal });
  const work = createWorkDir(db, 'csreplication');
  const wal = `${db}.wal`;
  let hadWal = true;
  /** Whether this run opened the file for writing (only then can a log be its own). */
  let wrote = false;
  try {
    const { start, plan, files } = await prepareReplicationUpdate(source, { sequence: meta.sequence, dataEnd: startTime }, work.path, {
      startSequence: options.startSequence,
      maxSequences: options.maxSequences,
    });
    const last = plan.steps.at(-1);
    const result: UpdateChangesetsResult = {
      before: meta.sequence,
      start,
      upToDate: last === undefined,
      sequence: last?.sequence ?? meta.sequence,
      timestamp: last?.timestamp,
      sequences: plan.steps.length,
      recordsRead: 0,
      changesetsRead: 0,
      written: 0,
      notKept: 0,
      stale: 0,
      pruned: 0,
      rows: 0,
      all: meta.all ?? false,
      dataEnd: meta.dataEnd,
    };
    if (last === undefined) return result;
    const { records, read } = await lastRecords(files);
    result.recordsRead = read;
    result.changesetsRead = records.size;
    options.signal?.throwIfAborted();
    options.onPhase?.('fetched');

    // 3. One transaction.
    hadWal = existsSync(wal);
    const store = await openStore(db, { readOnly: false, tempDirectory: join(work.path, 'duckdb-tmp') });
    wrote = true;
    try {
      const con = await store.connect();
      try {
        await con.run('BEGIN TRANSACTION');
        try {
          const now = await readChangesetMeta(con);
          if (fingerprint(now) !== fingerprint(meta)) {
            throw new MaphistError(
              'DB_BUSY',
              `The changesets of ${db} changed while this update fetched its diffs (another maphist changesets update or import ran): nothing was applied. Run it again.`,
              { db },
            );
          }
          Object.assign(result, await applyRecords(con, [...records.values()], now, { sequence: last.sequence, timestamp: last.timestamp }));
          options.onPhase?.('written');
          await con.run('COMMIT');
        } catch (e) {
          await con.run('ROLLBACK').catch(() => undefined);
          throw e;
        }
        options.onPhase?.('committed');
        await con.run('CHECKPOINT');
      } finally {
        con.closeSync();
      }
    } finally {
      store.close();
    }
    return result;
  } catch (e) {
    work.remove();
    // The store is checkpointed after the commit, so a log it did not have before is this failed
    // run's alone (a commit or checkpoint cut short by a full disk): without it the store is as it was.
    if (wrote && !hadWal) rmSync(wal, { force: true });
    throw (
      diskFullError(e, { command: 'maphist changesets update', dir: dirname(resolve(db)), unchanged: 'the database is unchanged' }) ?? asWriteFailure(e, db)
    );
  } finally {
    work.remove();
  }
}

/**
 * In the caller's transaction: upserts the records by the keep rule, prunes what it no longer
 * keeps, records the position.
 */
async function applyRecords(
  con: DuckDBConnection,
  records: readonly ChangesetRecord[],
  meta: ChangesetMeta,
  position: { sequence: number; timestamp: number },
): Promise<Pick<UpdateChangesetsResult, 'written' | 'notKept' | 'stale' | 'pruned' | 'rows' | 'all' | 'dataEnd'>> {
  const count = async (sql: string) => Number((await con.runAndReadAll(sql)).getColumnsJS()[0]![0]);
  // A store of before `changesetsAll` was recorded: it kept every changeset if it has one the states do not reference.
  const all = meta.all ?? (await count('SELECT count(*) FROM changesets WHERE id NOT IN (SELECT DISTINCT changeset FROM states)')) > 0;
  const T = meta.dataEnd;
  if (!Number.isFinite(T)) throw new MaphistError('DB_INVALID', 'The database has no lastTimestamp in its meta table.');
  const tSql = timestampSql(T);

  await con.run('CREATE TABLE changesets_incoming AS SELECT * FROM changesets LIMIT 0');
  const appender = await con.createAppender('changesets_incoming');
  const chunk = DuckDBDataChunk.create(CHUNK_TYPES, CHUNK_ROWS);
  try {
    for (let i = 0; i < records.length; i += CHUNK_ROWS) appendChunk(appender, chunk, records.slice(i, i + CHUNK_ROWS));
  } finally {
    appender.closeSync();
  }
  // An open record of a changeset stored closed is older than what the store has.
  const stale = await count('SELECT count(*) FROM changesets_incoming WHERE open AND id IN (SELECT id FROM changesets WHERE NOT open)');
  await con.run('DELETE FROM changesets_incoming WHERE open AND id IN (SELECT id FROM changesets WHERE NOT open)');

  // Stored rows the keep rule may drop now: closed at or before T, since the previous run's T.
  const window = `NOT open AND closed_at <= ${tSql}${meta.previousDataEnd === undefined ? '' : ` AND closed_at > ${timestampSql(meta.previousDataEnd)}`}`;
  // Which of the records and of those rows the states reference (one pass over states.changeset).
  await con.run(
    all
      ? 'CREATE TABLE changesets_referenced (id BIGINT)'
      : `CREATE TABLE changesets_referenced AS SELECT DISTINCT changeset AS id FROM states
         WHERE changeset IN (SELECT id FROM changesets_incoming UNION ALL SELECT id FROM changesets WHERE ${window})`,
  );
  const keep = all ? 'true' : `(open OR closed_at IS NULL OR closed_at > ${tSql} OR id IN (SELECT id FROM changesets_referenced))`;
  const written = await count(`SELECT count(*) FROM changesets_incoming WHERE ${keep}`);
  const notKept = (await count('SELECT count(*) FROM changesets_incoming')) - written;
  await con.run('DELETE FROM changesets WHERE id IN (SELECT id FROM changesets_incoming)');
  await con.run(`INSERT INTO changesets SELECT * FROM changesets_incoming WHERE ${keep}`);
  const prune = `${window} AND id NOT IN (SELECT id FROM changesets_referenced)`;
  const pruned = all ? 0 : await count(`SELECT count(*) FROM changesets WHERE ${prune}`);
  if (!all) await con.run(`DELETE FROM changesets WHERE ${prune}`);
  await con.run('DROP TABLE changesets_incoming');
  await con.run('DROP TABLE changesets_referenced');

  const rows = await count('SELECT count(*) FROM changesets');
  const values: [string, unknown][] = [
    [CHANGESET_POSITION_KEYS[0], position.sequence],
    [CHANGESET_POSITION_KEYS[1], iso(position.timestamp)],
    [CHANGESET_POSITION_KEYS[2], iso(T)],
    ['changesets', rows],
    ['changesetsAll', all],
  ];
  await con.run(`INSERT OR REPLACE INTO meta VALUES ${values.map(([k, v]) => `(${sqlString(k)}, ${sqlString(JSON.stringify(v))})`).join(', ')}`);
  return { written, notKept, stale, pruned, rows, all, dataEnd: T };
}
