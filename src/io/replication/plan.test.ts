/**
 * The plan (every sequence after the store's up to the latest, a gap refused before anything is
 * applied) and the download of its change files, from a directory and over HTTP, with the real
 * minutely diff 000466354.osc.gz at its own sequence.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMaphistError } from '../../core/errors.js';
import { type ReplicationEntry, writeReplicationDir } from '../../testing/replication-dir.js';
import { serveDirectory, type StaticServer } from '../../testing/static-server.js';
import { TEST_DATA } from '../../testing/test-data.js';
import { downloadChanges } from './download.js';
import { listSequences, planSequences } from './plan.js';
import { openReplicationSource, type ReplicationSource } from './source.js';

const REAL = join(TEST_DATA, 'changes', '000466354.osc.gz');
const T354 = Date.parse('2013-08-04T20:13:02Z') / 1000;
const at = (s: number) => T354 + 60 * (s - 466354);

function entries(options: { noState?: number[]; noChange?: number[] } = {}): ReplicationEntry[] {
  const out: ReplicationEntry[] = [];
  for (let s = 466350; s <= 466358; s++) {
    out.push({
      sequence: s,
      timestamp: at(s),
      change: options.noChange?.includes(s) ? false : s === 466354 ? { file: REAL } : undefined,
      state: !options.noState?.includes(s),
    });
  }
  return out;
}

describe('replication plan and download', () => {
  let root: string;
  let server: StaticServer;
  const sources: [string, (dir: string) => Promise<ReplicationSource>][] = [
    ['a directory', (dir) => openReplicationSource(dir)],
    ['HTTP', (dir) => openReplicationSource(`${server.url}${dir.slice(root.length + 1)}/`, { retries: 0 })],
  ];
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'maphist-replication-plan-'));
    writeReplicationDir(join(root, 'whole'), entries());
    writeReplicationDir(join(root, 'no-state'), entries({ noState: [466356, 466357] }));
    writeReplicationDir(join(root, 'no-change'), entries({ noChange: [466355] }));
    server = await serveDirectory(root);
  });
  after(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  for (const [name, open] of sources) {
    it(`plans every sequence after the store's up to the latest, and downloads them in order (${name})`, async () => {
      const source = await open(join(root, 'whole'));
      const plan = await planSequences(source, 466352);
      assert.deepEqual(plan.latest, { sequence: 466358, timestamp: at(466358) });
      assert.deepEqual(
        plan.steps,
        [466353, 466354, 466355, 466356, 466357, 466358].map((s) => ({ sequence: s, timestamp: at(s) })),
      );
      const work = join(root, `work-${name.replace(/\W/g, '')}`);
      mkdirSync(work);
      const files = await downloadChanges(source, plan, work);
      assert.deepEqual(
        files.map((f) => f.slice(work.length + 1)),
        ['000466353.osc.gz', '000466354.osc.gz', '000466355.osc.gz', '000466356.osc.gz', '000466357.osc.gz', '000466358.osc.gz'],
      );
      assert.deepEqual(readFileSync(files[1]!), readFileSync(REAL));
      assert.deepEqual(readdirSync(work).sort(), files.map((f) => f.slice(work.length + 1)).sort());
      // Up to date, a part only, and from the beginning.
      assert.deepEqual((await planSequences(source, 466358)).steps, []);
      assert.deepEqual(
        (await planSequences(source, 466352, { maxSequences: 2 })).steps.map((s) => s.sequence),
        [466353, 466354],
      );
      assert.equal((await planSequences(source, 466349)).steps.length, 9);
    });

    it(`refuses a missing state anywhere in the range before anything is fetched, and a missing change file (${name})`, async () => {
      const gap = await open(join(root, 'no-state'));
      await assert.rejects(planSequences(gap, 466352), (e) => {
        assert.ok(isMaphistError(e) && e.code === 'REPLICATION_GAP');
        assert.match(
          e.message,
          /is missing the state files of sequences 466356, 466357, between the store's sequence 466352 and the latest 466358: nothing was applied/,
        );
        return true;
      });
      assert.equal(gap.fetched.changes, 0);
      // Before the gap, the plan is whole.
      assert.equal((await planSequences(gap, 466357)).steps.length, 1);
      const noChange = await open(join(root, 'no-change'));
      const plan = await planSequences(noChange, 466353);
      const work = join(root, `work-gap-${name.replace(/\W/g, '')}`);
      mkdirSync(work);
      await assert.rejects(
        downloadChanges(noChange, plan, work),
        (e) => isMaphistError(e) && e.code === 'REPLICATION_GAP' && /is missing the change file of sequence 466355,/.test(e.message),
      );
    });

    it(`refuses a store ahead of the source (${name})`, async () => {
      const source = await open(join(root, 'whole'));
      await assert.rejects(
        planSequences(source, 466400),
        (e) => isMaphistError(e) && e.code === 'REPLICATION_NO_START' && /store is at sequence 466400, after the latest .* \(466358\)/.test(e.message),
      );
    });
  }

  it('lists sequences shortly', () => {
    assert.equal(listSequences([5]), '5');
    assert.equal(listSequences([1, 2, 3, 4, 5, 6, 7]), '1, 2, 3, 4, 5, … (7 in all)');
  });
});
