/**
 * The keys file: a small DuckDB database beside the history database (`maphist.duckdb` →
 * `maphist.keys.duckdb`), so keys survive `maphist import`, which replaces the history file.
 * DuckDB lets one process write a file at a time, so nobody keeps it open: the CLI and the server
 * open it for one short session each, and retry while another process holds it. Within one
 * process, sessions on a file are serialized too (two instances of one file in one process would
 * release each other's file lock when one of them closes).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { MaphistError } from '../core/errors.js';
import type { DailyWindow } from './rate-limiter.js';

export interface KeyRecord {
  id: string;
  name: string;
  /** SHA-256 of the key, hex. */
  sha256: string;
  createdMs: number;
  revokedMs: number | null;
  /** Per-key limits; null: the server's defaults. */
  perMinute: number | null;
  dailyQuota: number | null;
}

export interface KeysSnapshot {
  keys: KeyRecord[];
  usage: Map<string, DailyWindow>;
}

/** The keys file that belongs to a history database. */
export function keysDbPathFor(historyDbPath: string): string {
  const name = basename(historyDbPath).replace(/\.duckdb$/, '');
  return join(dirname(historyDbPath), `${name}.keys.duckdb`);
}

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS api_keys (
     id VARCHAR PRIMARY KEY,
     name VARCHAR NOT NULL,
     key_sha256 VARCHAR NOT NULL UNIQUE,
     created_ms BIGINT NOT NULL,
     revoked_ms BIGINT,
     per_minute INTEGER,
     daily_quota BIGINT)`,
  `CREATE TABLE IF NOT EXISTS api_key_usage (
     key_id VARCHAR PRIMARY KEY,
     window_start_ms BIGINT NOT NULL,
     used BIGINT NOT NULL)`,
];

const sessions = new Map<string, Promise<unknown>>();

/** How long a session waits for another process to release the file. */
const DEFAULT_WAIT_MS = 5000;

/**
 * Runs `fn` in a short session on the keys file (created with its tables if missing, when
 * writable), then closes it. Retries while another process holds a conflicting lock, up to
 * `waitMs`, then fails with KEYS_DB_BUSY.
 */
export async function withKeysDb<T>(path: string, mode: 'read' | 'write', fn: (con: DuckDBConnection) => Promise<T>, waitMs = DEFAULT_WAIT_MS): Promise<T> {
  const previous = sessions.get(path) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => session(path, mode, fn, waitMs));
  sessions.set(path, run);
  try {
    return await run;
  } finally {
    if (sessions.get(path) === run) sessions.delete(path);
  }
}

async function session<T>(path: string, mode: 'read' | 'write', fn: (con: DuckDBConnection) => Promise<T>, waitMs: number): Promise<T> {
  const deadline = performance.now() + waitMs;
  let pause = 10;
  for (;;) {
    let instance: DuckDBInstance;
    try {
      if (mode === 'write' || !existsSync(path)) mkdirSync(dirname(path), { recursive: true });
      instance = await DuckDBInstance.create(path, { access_mode: mode === 'read' && existsSync(path) ? 'READ_ONLY' : 'READ_WRITE' });
    } catch (e) {
      const message = (e as Error).message;
      if (/lock/i.test(message) && performance.now() < deadline) {
        await sleep(pause);
        pause = Math.min(pause * 2, 200);
        continue;
      }
      if (/lock/i.test(message))
        throw new MaphistError('KEYS_DB_BUSY', `The keys file ${path} stayed locked by another process for ${waitMs / 1000} s: ${message}`);
      throw new MaphistError('KEYS_DB_INVALID', `${path} is not a keys file maphist can open: ${message}`);
    }
    const con = await instance.connect();
    try {
      for (const sql of SCHEMA) if (mode === 'write') await con.run(sql);
      return await fn(con);
    } finally {
      con.closeSync();
      instance.closeSync();
    }
  }
}

/** Creates the keys file with its tables, if it does not exist yet. */
export async function ensureKeysDb(path: string): Promise<void> {
  await withKeysDb(path, 'write', async () => undefined);
}

export async function insertKey(path: string, key: KeyRecord): Promise<void> {
  await withKeysDb(path, 'write', async (con) => {
    await con.run('INSERT INTO api_keys VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      key.id,
      key.name,
      key.sha256,
      BigInt(key.createdMs),
      key.revokedMs === null ? null : BigInt(key.revokedMs),
      key.perMinute,
      key.dailyQuota === null ? null : BigInt(key.dailyQuota),
    ]);
  });
}

/** All keys and persisted daily windows (an empty snapshot when the file does not exist). */
export async function readKeys(path: string, waitMs?: number): Promise<KeysSnapshot> {
  if (!existsSync(path)) return { keys: [], usage: new Map() };
  return withKeysDb(
    path,
    'read',
    async (con) => {
      const keys = (
        await con.runAndReadAll('SELECT id, name, key_sha256, created_ms, revoked_ms, per_minute, daily_quota FROM api_keys ORDER BY created_ms, id')
      )
        .getRowsJS()
        .map(([id, name, sha256, created, revoked, perMinute, dailyQuota]) => ({
          id: id as string,
          name: name as string,
          sha256: sha256 as string,
          createdMs: Number(created),
          revokedMs: revoked === null ? null : Number(revoked),
          perMinute: perMinute === null ? null : Number(perMinute),
          dailyQuota: dailyQuota === null ? null : Number(dailyQuota),
        }));
      const usage = new Map<string, DailyWindow>();
      for (const [id, start, used] of (await con.runAndReadAll('SELECT key_id, window_start_ms, used FROM api_key_usage')).getRowsJS()) {
        usage.set(id as string, { start: Number(start), used: Number(used) });
      }
      return { keys, usage };
    },
    waitMs,
  );
}

/** Marks a key revoked; false if there is no key with that id. */
export async function revokeKey(path: string, id: string, nowMs: number): Promise<boolean> {
  return withKeysDb(path, 'write', async (con) => {
    const r = await con.runAndReadAll('UPDATE api_keys SET revoked_ms = coalesce(revoked_ms, $2) WHERE id = $1 RETURNING id', [id, BigInt(nowMs)]);
    return r.currentRowCount > 0;
  });
}

/** Sets a key's limits (undefined: unchanged); false if there is no key with that id. */
export async function setKeyLimits(path: string, id: string, limits: { perMinute?: number; dailyQuota?: number }): Promise<boolean> {
  return withKeysDb(path, 'write', async (con) => {
    const r = await con.runAndReadAll(
      'UPDATE api_keys SET per_minute = coalesce($2, per_minute), daily_quota = coalesce($3, daily_quota) WHERE id = $1 RETURNING id',
      [id, limits.perMinute ?? null, limits.dailyQuota === undefined ? null : BigInt(limits.dailyQuota)],
    );
    return r.currentRowCount > 0;
  });
}

/** Writes daily windows (the server's usage counts). */
export async function writeUsage(path: string, windows: Array<[string, DailyWindow]>, waitMs?: number): Promise<void> {
  if (windows.length === 0) return;
  await withKeysDb(
    path,
    'write',
    async (con) => {
      for (const [id, w] of windows) {
        await con.run('INSERT OR REPLACE INTO api_key_usage VALUES ($1, $2, $3)', [id, BigInt(w.start), BigInt(w.used)]);
      }
    },
    waitMs,
  );
}
