/**
 * The start sequence for a store whose data ends at T, against an oracle that reads every state:
 * one more than the newest state at or before T. Sources: regular minutely, irregular (bursts,
 * outages, equal timestamps, short gaps in the middle, a pruned beginning), hourly searched with the
 * minutely guess; T anywhere, on a state's timestamp and beside it, before the oldest and after the
 * latest. Every search stays within a few dozen state files. Over a directory, and over HTTP.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMaphistError } from '../../core/errors.js';
import { type ReplicationEntry, writeReplicationDir } from '../../testing/replication-dir.js';
import { serveDirectory } from '../../testing/static-server.js';
import { openReplicationSource } from './source.js';
import { findStartSequence, GAP_SCAN } from './start.js';

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASE = Date.parse('2013-08-01T00:00:00Z') / 1000;

interface Case {
  name: string;
  entries: ReplicationEntry[];
  secondsPerSequence?: number;
}

function regular(): Case {
  const entries: ReplicationEntry[] = [];
  for (let s = 0; s <= 2000; s++) entries.push({ sequence: s, timestamp: BASE + 60 * s + (s % 7), change: false });
  return { name: 'regular minutely, 0 to 2000', entries };
}

function irregular(seed: number): Case {
  const rnd = random(seed);
  const entries: ReplicationEntry[] = [];
  let t = BASE;
  let gapLeft = 0;
  for (let s = 1000; s <= 4000; s++) {
    const r = rnd();
    t += r < 0.05 ? 0 : r < 0.1 ? 1 : r < 0.12 ? 3600 * (1 + Math.floor(rnd() * 24)) : 50 + Math.floor(rnd() * 20);
    if (gapLeft === 0 && rnd() < 0.01) gapLeft = 1 + Math.floor(rnd() * (GAP_SCAN - 2));
    const pruned = s < 1300;
    const missing = pruned || gapLeft > 0;
    if (gapLeft > 0) gapLeft--;
    entries.push({ sequence: s, timestamp: t, change: false, state: !missing });
  }
  return { name: `irregular (seed ${seed}): bursts, outages, equal times, short gaps, the first 300 pruned`, entries };
}

function hourly(): Case {
  const entries: ReplicationEntry[] = [];
  for (let s = 0; s <= 3000; s++) entries.push({ sequence: s, timestamp: BASE + 3600 * s, change: false });
  return { name: 'hourly, searched with the minutely guess', entries };
}

/** The oracle: one more than the newest state at or before T; undefined when there is none. */
function expected(entries: ReplicationEntry[], time: number): number | undefined {
  const present = entries.filter((e) => e.state !== false);
  const latest = present[present.length - 1]!;
  if ((latest.timestamp as number) <= time) return latest.sequence + 1;
  const before = present.filter((e) => (e.timestamp as number) <= time);
  return before.length === 0 ? undefined : before[before.length - 1]!.sequence + 1;
}

function times(entries: ReplicationEntry[], rnd: () => number): number[] {
  const ts = entries.filter((e) => e.state !== false).map((e) => e.timestamp as number);
  const first = ts[0]!;
  const last = ts[ts.length - 1]!;
  const out = [first - 1, first, first + 1, last - 1, last, last + 1, last + 86400];
  for (let i = 0; i < 40; i++) out.push(first + Math.floor(rnd() * (last - first)));
  for (let i = 0; i < 20; i++) {
    const t = ts[Math.floor(rnd() * ts.length)]!;
    out.push(t - 1, t, t + 1);
  }
  return out;
}

describe('the start sequence (first state after the store’s data)', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'maphist-replication-start-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  for (const c of [regular(), irregular(1), irregular(2), irregular(3), hourly()]) {
    it(`equals the oracle that reads every state: ${c.name}`, async () => {
      const dir = join(root, c.name.replace(/\W+/g, '-'));
      writeReplicationDir(dir, c.entries);
      const source = await openReplicationSource(dir);
      const rnd = random(42);
      let most = 0;
      let checked = 0;
      let refused = 0;
      for (const time of times(c.entries, rnd)) {
        const want = expected(c.entries, time);
        try {
          const got = await findStartSequence(source, time, { secondsPerSequence: c.secondsPerSequence });
          assert.equal(got.sequence, want, `T = ${new Date(time * 1000).toISOString()}`);
          assert.ok(got.before.timestamp <= time && got.before.sequence === got.sequence - 1);
          most = Math.max(most, got.stateFetches);
          checked++;
        } catch (e) {
          if (!(isMaphistError(e) && e.code === 'REPLICATION_NO_START')) throw e;
          assert.equal(want, undefined, `T = ${new Date(time * 1000).toISOString()}: ${e.message}`);
          assert.match(e.message, /has no state at or before .*, where the store's data ends: the oldest it has is sequence \d+/);
          refused++;
        }
      }
      assert.ok(checked > 50 && refused > 0, `${checked} found, ${refused} refused`);
      assert.ok(most <= 50, `at most ${most} state files for one search`);
    });
  }

  it('across a long gap in the middle: exact after it; before it, the answer or NO_START (the plan refuses the gap either way)', async () => {
    const dir = join(root, 'long-gap');
    const entries: ReplicationEntry[] = [];
    for (let s = 0; s <= 3000; s++) entries.push({ sequence: s, timestamp: BASE + 60 * s, change: false, state: s < 1500 || s >= 1600 });
    writeReplicationDir(dir, entries);
    const source = await openReplicationSource(dir);
    const rnd = random(9);
    let exact = 0;
    for (const time of times(entries, rnd)) {
      const want = expected(entries, time);
      const got = await findStartSequence(source, time).then(
        (r) => r.sequence,
        (e) => {
          if (isMaphistError(e) && e.code === 'REPLICATION_NO_START') return undefined;
          throw e;
        },
      );
      if (want === undefined || want >= 1600) {
        assert.equal(got, want);
        exact++;
      } else assert.ok(got === want || got === undefined, `T ${time}: ${got} for ${want}`);
    }
    assert.ok(exact > 20);
  });

  it('answers the latest + 1 when the store is newer than the source, and gives up after its budget', async () => {
    const dir = join(root, 'budget');
    const c = irregular(7);
    writeReplicationDir(dir, c.entries);
    const source = await openReplicationSource(dir);
    const latest = c.entries[c.entries.length - 1]!;
    assert.deepEqual((await findStartSequence(source, (latest.timestamp as number) + 10)).sequence, latest.sequence + 1);
    await assert.rejects(
      findStartSequence(source, BASE + 86400 * 3, { maxStateFetches: 3 }),
      (e) => isMaphistError(e) && e.code === 'REPLICATION_NO_START' && /Gave up .* after 3 state files .* --start-sequence/.test(e.message),
    );
  });

  it('finds the real minutely diff 466354 over HTTP for data ending with its newest edit (2013-08-04T20:13:00Z)', async () => {
    const dir = join(root, 'http');
    const entries: ReplicationEntry[] = [];
    const t354 = Date.parse('2013-08-04T20:13:02Z') / 1000;
    for (let s = 465000; s <= 466500; s++) entries.push({ sequence: s, timestamp: t354 + 60 * (s - 466354), change: false });
    writeReplicationDir(dir, entries);
    const server = await serveDirectory(dir);
    try {
      const source = await openReplicationSource(server.url);
      const got = await findStartSequence(source, Date.parse('2013-08-04T20:13:00Z') / 1000);
      assert.equal(got.sequence, 466354);
      assert.equal(got.stateFetches, server.requests.length);
      assert.ok(got.stateFetches <= 5, `${got.stateFetches} state files`);
      // At the state's own time, that diff holds nothing newer: the next one.
      assert.equal((await findStartSequence(source, t354)).sequence, 466355);
    } finally {
      await server.close();
    }
  });
});
