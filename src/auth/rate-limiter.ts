/**
 * Per-key request limits, pure (no I/O, the clock is an argument): a sliding 60 s window of
 * accepted requests (the reference's minute limit, answered 429) and a daily window that starts
 * at the first accepted request and ends 24 h later (the reference's daily quota; answered 429
 * with Retry-After here, 403 at the reference: docs/api-keys.md). Refused requests count against
 * neither, and a request the API refuses before any work (a 4xx) is given back (`refund`).
 */

export const MINUTE_MS = 60_000;
export const DAY_MS = 24 * 60 * 60_000;

export interface Limits {
  perMinute: number;
  dailyQuota: number;
}

/** A daily window: when its first request was accepted (epoch ms) and how many were accepted. */
export interface DailyWindow {
  start: number;
  used: number;
}

export interface LimitStatus {
  /** Daily quota, what is left of it after this request, seconds until the daily window resets. */
  dailyLimit: number;
  dailyRemaining: number;
  dailyResetSeconds: number;
  minuteLimit: number;
  minuteRemaining: number;
}

export type Decision =
  | ({ outcome: 'allowed' } & LimitStatus)
  | ({ outcome: 'quota-exceeded' } & LimitStatus)
  | ({ outcome: 'rate-limited'; retryAfterSeconds: number } & LimitStatus);

export class RateLimiter {
  /** Accepted request times within the last minute, oldest first (at most perMinute of them). */
  readonly #minute = new Map<string, number[]>();
  readonly #daily = new Map<string, DailyWindow>();
  readonly #changed = new Set<string>();

  /** Decides on one request of `keyId` at `now` (epoch ms) and, if allowed, counts it. */
  take(keyId: string, limits: Limits, now: number): Decision {
    let daily = this.#daily.get(keyId);
    if (daily && now >= daily.start + DAY_MS) daily = undefined;
    const used = daily?.used ?? 0;
    const resetSeconds = daily ? Math.max(1, Math.ceil((daily.start + DAY_MS - now) / 1000)) : DAY_MS / 1000;
    const times = (this.#minute.get(keyId) ?? []).filter((t) => t > now - MINUTE_MS);
    const status = (dailyUsed: number, minuteUsed: number, dailyResetSeconds: number): LimitStatus => ({
      dailyLimit: limits.dailyQuota,
      dailyRemaining: Math.max(0, limits.dailyQuota - dailyUsed),
      dailyResetSeconds,
      minuteLimit: limits.perMinute,
      minuteRemaining: Math.max(0, limits.perMinute - minuteUsed),
    });
    if (used >= limits.dailyQuota) {
      this.#keepMinute(keyId, times);
      return { outcome: 'quota-exceeded', ...status(used, times.length, resetSeconds) };
    }
    if (times.length >= limits.perMinute) {
      this.#keepMinute(keyId, times);
      // The oldest request that still counts leaves the window at times[length - perMinute] + 60 s.
      const freeAt = times[times.length - limits.perMinute]! + MINUTE_MS;
      const retryAfterSeconds = Math.max(1, Math.ceil((freeAt - now) / 1000));
      return { outcome: 'rate-limited', retryAfterSeconds, ...status(used, times.length, resetSeconds) };
    }
    times.push(now);
    this.#keepMinute(keyId, times);
    const window = daily ? { start: daily.start, used: used + 1 } : { start: now, used: 1 };
    this.#daily.set(keyId, window);
    this.#changed.add(keyId);
    return { outcome: 'allowed', ...status(window.used, times.length, Math.max(1, Math.ceil((window.start + DAY_MS - now) / 1000))) };
  }

  /**
   * Gives back a request `take` accepted at `at` (the API refused it before any work): it leaves
   * the minute window and, if its daily window is still the current one, the daily count.
   */
  refund(keyId: string, at: number): void {
    const times = this.#minute.get(keyId);
    const i = times?.lastIndexOf(at) ?? -1;
    if (times && i >= 0) {
      times.splice(i, 1);
      this.#keepMinute(keyId, times);
    }
    const daily = this.#daily.get(keyId);
    if (daily && at >= daily.start && at < daily.start + DAY_MS && daily.used > 0) {
      daily.used--;
      this.#changed.add(keyId);
    }
  }

  /** The current daily window of a key (undefined if none, or if it has ended by `now`). */
  daily(keyId: string, now: number): DailyWindow | undefined {
    const w = this.#daily.get(keyId);
    return w && now < w.start + DAY_MS ? { ...w } : undefined;
  }

  /** Restores a persisted daily window (at start-up); ended windows are ignored. */
  restoreDaily(keyId: string, window: DailyWindow, now: number): void {
    if (now < window.start + DAY_MS) this.#daily.set(keyId, { ...window });
  }

  /** The daily windows changed since the last call, to persist. */
  takeChanged(): Array<[string, DailyWindow]> {
    const out: Array<[string, DailyWindow]> = [];
    for (const id of this.#changed) out.push([id, { ...this.#daily.get(id)! }]);
    this.#changed.clear();
    return out;
  }

  /** Marks windows as changed again (their persisting failed and will be retried). */
  markChanged(keyIds: Iterable<string>): void {
    for (const id of keyIds) if (this.#daily.has(id)) this.#changed.add(id);
  }

  #keepMinute(keyId: string, times: number[]): void {
    if (times.length === 0) this.#minute.delete(keyId);
    else this.#minute.set(keyId, times);
  }
}
