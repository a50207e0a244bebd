import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DAY_MS, MINUTE_MS, RateLimiter } from './rate-limiter.js';

const T0 = Date.UTC(2026, 0, 1);

describe('RateLimiter', () => {
  it('allows 15 requests in a minute, refuses the 16th with the seconds until a slot frees', () => {
    const limiter = new RateLimiter();
    const limits = { perMinute: 15, dailyQuota: 1000 };
    for (let i = 0; i < 15; i++) assert.equal(limiter.take('k', limits, T0 + i * 1000).outcome, 'allowed');
    const refused = limiter.take('k', limits, T0 + 15_000);
    assert.equal(refused.outcome, 'rate-limited');
    assert.equal(refused.outcome === 'rate-limited' && refused.retryAfterSeconds, 45);
    assert.equal(refused.dailyRemaining, 985, 'a refused request uses no quota');
    assert.equal(limiter.take('k', limits, T0 + MINUTE_MS - 1).outcome, 'rate-limited');
    assert.equal(limiter.take('k', limits, T0 + MINUTE_MS).outcome, 'allowed', 'the first request has left the sliding window');
  });

  it('refuses once the daily quota is used, until 24 h after the first request of the window', () => {
    const limiter = new RateLimiter();
    const limits = { perMinute: 100, dailyQuota: 3 };
    const first = limiter.take('k', limits, T0);
    assert.deepEqual([first.outcome, first.dailyRemaining, first.dailyResetSeconds], ['allowed', 2, 86_400]);
    limiter.take('k', limits, T0 + 3_600_000);
    const third = limiter.take('k', limits, T0 + 7_200_000);
    assert.deepEqual([third.outcome, third.dailyRemaining, third.dailyResetSeconds], ['allowed', 0, 86_400 - 7200]);
    assert.equal(limiter.take('k', limits, T0 + 7_200_001).outcome, 'quota-exceeded');
    assert.equal(limiter.take('k', limits, T0 + DAY_MS - 1).outcome, 'quota-exceeded');
    const next = limiter.take('k', limits, T0 + DAY_MS);
    assert.deepEqual([next.outcome, next.dailyRemaining], ['allowed', 2]);
  });

  it('refund gives a request back to both windows; a refund from an ended daily window leaves the new one alone', () => {
    const limiter = new RateLimiter();
    const limits = { perMinute: 2, dailyQuota: 5 };
    assert.equal(limiter.take('k', limits, T0).outcome, 'allowed');
    assert.equal(limiter.take('k', limits, T0 + 1).outcome, 'allowed');
    assert.equal(limiter.take('k', limits, T0 + 2).outcome, 'rate-limited');
    limiter.refund('k', T0 + 1);
    const again = limiter.take('k', limits, T0 + 3);
    assert.deepEqual([again.outcome, again.dailyRemaining, again.minuteRemaining], ['allowed', 3, 0]);
    assert.deepEqual(limiter.daily('k', T0 + 3), { start: T0, used: 2 });
    // A request of yesterday's window refunded after the window changed: today's count stays.
    assert.equal(limiter.take('k', limits, T0 + DAY_MS).outcome, 'allowed');
    limiter.refund('k', T0 + 3);
    assert.deepEqual(limiter.daily('k', T0 + DAY_MS), { start: T0 + DAY_MS, used: 1 });
  });

  it('keeps keys apart, and restores and reports persisted daily windows', () => {
    const limiter = new RateLimiter();
    limiter.restoreDaily('a', { start: T0, used: 5 }, T0 + 1000);
    limiter.restoreDaily('old', { start: T0 - DAY_MS, used: 5 }, T0);
    assert.equal(limiter.take('a', { perMinute: 15, dailyQuota: 10 }, T0 + 2000).dailyRemaining, 4);
    assert.equal(limiter.take('b', { perMinute: 15, dailyQuota: 10 }, T0 + 2000).dailyRemaining, 9);
    assert.equal(limiter.daily('old', T0), undefined);
    assert.deepEqual(
      new Map(limiter.takeChanged()),
      new Map([
        ['a', { start: T0, used: 6 }],
        ['b', { start: T0 + 2000, used: 1 }],
      ]),
    );
    assert.deepEqual(limiter.takeChanged(), []);
  });

  it('property: never more than N accepted in any 60 s window, never more than the quota in a day, and refuses only when full', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 60 }),
        fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 1, maxLength: 300 }),
        (perMinute, dailyQuota, gaps) => {
          const limiter = new RateLimiter();
          const accepted: number[] = [];
          let now = T0;
          for (const gap of gaps) {
            now += gap;
            const inMinute = accepted.filter((t) => t > now - MINUTE_MS).length;
            const d = limiter.take('k', { perMinute, dailyQuota }, now);
            if (d.outcome === 'allowed') accepted.push(now);
            else if (d.outcome === 'rate-limited') {
              assert.equal(inMinute, perMinute, 'refused with room in the minute');
              assert.ok(d.retryAfterSeconds >= 1 && d.retryAfterSeconds <= 60);
            } else assert.equal(d.dailyRemaining, 0);
          }
          for (const t of accepted) {
            assert.ok(accepted.filter((u) => u > t - MINUTE_MS && u <= t).length <= perMinute);
            assert.ok(accepted.filter((u) => u > t - DAY_MS && u <= t).length <= 2 * dailyQuota);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
