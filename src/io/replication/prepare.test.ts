/**
 * What an update from a replication source fetches before it applies anything, over HTTP from a
 * real local server: from the store's sequence, from --start-sequence, and, for a store without a
 * sequence whose data ends with the newest edit of the real minutely diff 466354, from that diff.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMaphistError } from '../../core/errors.js';
import { type ReplicationEntry, writeReplicationDir } from '../../testing/replication-dir.js';
import { serveDirectory, type StaticServer } from '../../testing/static-server.js';
import { TEST_DATA } from '../../testing/test-data.js';
import { prepareReplicationUpdate } from './prepare.js';
import { openReplicationSource } from './source.js';

const REAL = join(TEST_DATA, 'changes', '000466354.osc.gz');
const T354 = Date.parse('2013-08-04T20:13:02Z') / 1000;
/** The newest edit in 000466354.osc.gz. */
const NEWEST_EDIT = Date.parse('2013-08-04T20:13:00Z') / 1000;

describe('preparing a replication update', () => {
  let root: string;
  let server: StaticServer;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'maphist-replication-prepare-'));
    const entries: ReplicationEntry[] = [];
    for (let s = 466000; s <= 466360; s++) {
      entries.push({ sequence: s, timestamp: T354 + 60 * (s - 466354), change: s === 466354 ? { file: REAL } : s < 466350 ? false : undefined });
    }
    writeReplicationDir(join(root, 'minute'), entries);
    server = await serveDirectory(join(root, 'minute'));
  });
  after(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  const work = (name: string) => mkdtempSync(join(root, `${name}-`));

  it('starts a store without a sequence at the first diff after its data, and fetches up to the latest', async () => {
    const source = await openReplicationSource(server.url);
    const dir = work('fresh');
    const got = await prepareReplicationUpdate(source, { sequence: undefined, dataEnd: NEWEST_EDIT }, dir);
    assert.equal(got.start?.sequence, 466354);
    assert.deepEqual(
      got.plan.steps.map((s) => s.sequence),
      [466354, 466355, 466356, 466357, 466358, 466359, 466360],
    );
    assert.equal(got.files.length, 7);
    assert.deepEqual(readFileSync(got.files[0]!), readFileSync(REAL));
    assert.deepEqual(readdirSync(dir).sort(), got.files.map((f) => f.slice(dir.length + 1)).sort());
  });

  it('continues after the store’s sequence, or from --start-sequence; an up-to-date store fetches nothing', async () => {
    const source = await openReplicationSource(server.url);
    const mid = await prepareReplicationUpdate(source, { sequence: 466357, dataEnd: 0 }, work('mid'));
    assert.deepEqual(
      mid.plan.steps.map((s) => s.sequence),
      [466358, 466359, 466360],
    );
    assert.equal(mid.start, undefined);
    const chosen = await prepareReplicationUpdate(source, { sequence: 466357, dataEnd: 0 }, work('chosen'), { startSequence: 466352, maxSequences: 3 });
    assert.deepEqual(
      chosen.plan.steps.map((s) => s.sequence),
      [466352, 466353, 466354],
    );
    const dir = work('done');
    const done = await prepareReplicationUpdate(source, { sequence: 466360, dataEnd: 0 }, dir);
    assert.deepEqual([done.plan.steps, done.files, readdirSync(dir)], [[], [], []]);
  });

  it('refuses to start before the diffs the source has (a change file missing: a gap)', async () => {
    const source = await openReplicationSource(server.url);
    await assert.rejects(
      prepareReplicationUpdate(source, { sequence: 466348, dataEnd: 0 }, work('gap')),
      (e) => isMaphistError(e) && e.code === 'REPLICATION_GAP' && /missing the change file of sequence 466349,/.test(e.message),
    );
    await assert.rejects(
      prepareReplicationUpdate(source, { sequence: undefined, dataEnd: T354 - 86400 }, work('old')),
      (e) => isMaphistError(e) && e.code === 'REPLICATION_NO_START' && /oldest it has is sequence 466000/.test(e.message),
    );
  });
});
