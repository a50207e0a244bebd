/**
 * The API-key guard of the version 2 statistics and extraction routes (a Fastify onRequest hook).
 * Keys live in the keys file (key-store.ts); the guard holds them in memory and re-reads them
 * when the file changes (checked at most once a second), so `maphist keys create|revoke|set-quota`
 * take effect on a running server within about a second. Minute windows live in memory only;
 * daily usage is counted in memory and written to the keys file every 2 s and at close (a crash
 * loses at most the last 2 s of counts).
 */
import { stat } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { v2Status } from '../api/v2/error-status.js';
import type { ApiKeyHook } from '../api/v2/services.js';
import { digestsEqual, hashApiKey, keyFromAuthorization } from './api-key.js';
import { ensureKeysDb, readKeys, writeUsage, type KeyRecord } from './key-store.js';
import { RateLimiter, type Decision } from './rate-limiter.js';

/** The reference's minute limit (docs/reference/v2-reference-and-contributions-format.md §1.6). */
export const DEFAULT_PER_MINUTE = 15;
/** The reference does not publish its daily number; ours. */
export const DEFAULT_DAILY_QUOTA = 1000;
/** How often changed daily usage is written to the keys file: what a crash (SIGKILL) can lose. */
export const FLUSH_INTERVAL_MS = 2000;

export const MESSAGES = {
  missing: 'Missing API key: send it in the Authorization header.',
  invalid: 'Invalid API key',
  quota: 'Quota Exceeded',
  rate: 'Rate Limit Exceeded',
} as const;

export interface ApiKeyHookOptions {
  keysDbPath: string;
  defaultPerMinute?: number;
  defaultDailyQuota?: number;
  /** The clock of the limits (epoch ms; default Date.now). */
  now?: () => number;
  /** How often daily usage is written to the keys file (default FLUSH_INTERVAL_MS). */
  flushIntervalMs?: number;
  /** How often at most the keys file is checked for changes (default 1000 ms, real time). */
  reloadCheckMs?: number;
  /** Told about failures of background reloads and writes (which are retried). */
  onError?: (error: unknown) => void;
}

export interface ApiKeyGuard {
  hook: ApiKeyHook;
  /** Writes pending usage now. */
  flush(): Promise<void>;
  /** Re-reads the keys file now. */
  reload(): Promise<void>;
  /** Stops the background writer and writes pending usage. */
  close(): Promise<void>;
}

export async function createApiKeyHook(options: ApiKeyHookOptions): Promise<ApiKeyGuard> {
  const path = options.keysDbPath;
  const now = options.now ?? Date.now;
  const defaults = { perMinute: options.defaultPerMinute ?? DEFAULT_PER_MINUTE, dailyQuota: options.defaultDailyQuota ?? DEFAULT_DAILY_QUOTA };
  const reloadCheckMs = options.reloadCheckMs ?? 1000;
  const onError = options.onError ?? (() => undefined);
  const limiter = new RateLimiter();
  let byHash = new Map<string, KeyRecord>();
  let signature = '';
  let lastCheck = performance.now();
  let reloading: Promise<void> | undefined;

  const load = async (waitMs?: number): Promise<Map<string, { start: number; used: number }>> => {
    const seen = await fileSignature(path);
    const snapshot = await readKeys(path, waitMs);
    byHash = new Map(snapshot.keys.map((k) => [k.sha256, k]));
    signature = seen;
    return snapshot.usage;
  };

  await ensureKeysDb(path);
  for (const [id, window] of await load()) limiter.restoreDaily(id, window, now());

  const reload = async (): Promise<void> => {
    reloading ??= load(250)
      .then(() => undefined)
      .finally(() => (reloading = undefined));
    await reloading;
  };

  const maybeReload = async (): Promise<void> => {
    if (reloading) return reloading.catch(onError);
    if (performance.now() - lastCheck < reloadCheckMs) return;
    lastCheck = performance.now();
    try {
      if ((await fileSignature(path)) !== signature) await reload();
    } catch (e) {
      onError(e); // keep serving with the keys we have; the next check retries
    }
  };

  const write = async (waitMs?: number): Promise<void> => {
    const changed = limiter.takeChanged();
    try {
      await writeUsage(path, changed, waitMs);
    } catch (e) {
      limiter.markChanged(changed.map(([id]) => id));
      throw e;
    }
  };
  // One write at a time, in order: a flush at shutdown while the timer's was still writing wrote
  // the newer counts first, and the timer's older ones then over them (a key's usage seen as 1 of 4).
  let writing: Promise<void> = Promise.resolve();
  const flush = (waitMs?: number): Promise<void> => {
    const next = writing.then(
      () => write(waitMs),
      () => write(waitMs),
    );
    writing = next.catch(() => undefined);
    return next;
  };
  const timer = setInterval(() => flush(1000).catch(onError), options.flushIntervalMs ?? FLUSH_INTERVAL_MS);
  timer.unref();

  const hook: ApiKeyHook = async (request: FastifyRequest, reply: FastifyReply) => {
    // CORS preflights carry no credentials; they must reach @fastify/cors in the same scope.
    if (request.method === 'OPTIONS') return;
    await maybeReload();
    const key = keyFromAuthorization(request.headers.authorization);
    if (key === undefined) {
      reply.code(v2Status('API_KEY_MISSING')).send({ detail: MESSAGES.missing });
      return;
    }
    const sha256 = hashApiKey(key);
    const record = byHash.get(sha256);
    if (!record || !digestsEqual(record.sha256, sha256) || record.revokedMs !== null) {
      reply.code(v2Status('API_KEY_INVALID')).send({ detail: MESSAGES.invalid });
      return;
    }
    const at = now();
    const decision = limiter.take(record.id, { perMinute: record.perMinute ?? defaults.perMinute, dailyQuota: record.dailyQuota ?? defaults.dailyQuota }, at);
    setLimitHeaders(reply, decision);
    if (decision.outcome === 'allowed') {
      // A request the API refuses before any work uses no quota: invalid input (4xx), and the
      // server's own refusals, busy or shutting down (503: the only statuses of SERVER_BUSY and
      // SERVER_SHUTTING_DOWN, sent by admission before any work). A client that leaves (499) or
      // a time limit (504) come after work: they count.
      reply.raw.once('finish', () => {
        const status = reply.statusCode;
        const refused =
          (status >= 400 && status < 500 && status !== v2Status('CLIENT_DISCONNECTED')) ||
          status === v2Status('SERVER_BUSY') ||
          status === v2Status('SERVER_SHUTTING_DOWN');
        if (refused) limiter.refund(record.id, at);
      });
    } else if (decision.outcome === 'quota-exceeded') {
      reply.code(v2Status('API_KEY_QUOTA_EXCEEDED')).header('retry-after', String(decision.dailyResetSeconds)).send({ detail: MESSAGES.quota });
    } else if (decision.outcome === 'rate-limited') {
      reply.code(v2Status('API_KEY_RATE_LIMITED')).header('retry-after', String(decision.retryAfterSeconds)).send({ detail: MESSAGES.rate });
    }
  };

  return {
    hook,
    flush: () => flush(),
    reload,
    close: async () => {
      clearInterval(timer);
      await reloading?.catch(() => undefined);
      await flush();
    },
  };
}

/** The x-ratelimit-* headers (docs/api-keys.md): daily quota first, as the reference's gateway. */
function setLimitHeaders(reply: FastifyReply, d: Decision): void {
  reply.header('x-ratelimit-limit', String(d.dailyLimit));
  reply.header('x-ratelimit-remaining', String(d.dailyRemaining));
  reply.header('x-ratelimit-reset', String(d.dailyResetSeconds));
  reply.header('x-ratelimit-limit-minute', String(d.minuteLimit));
  reply.header('x-ratelimit-remaining-minute', String(d.minuteRemaining));
}

/** Changes whenever DuckDB writes the file or its write-ahead log. */
async function fileSignature(path: string): Promise<string> {
  const one = async (p: string) => {
    try {
      const s = await stat(p);
      return `${s.mtimeMs}:${s.size}`;
    } catch {
      return '-';
    }
  };
  return `${await one(path)}|${await one(`${path}.wal`)}`;
}
