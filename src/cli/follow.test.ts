/**
 * Serving while following (issue 18 part 4), end to end with real processes: the Andorra sample
 * split in time (src/testing/split-history.ts) gives a history file and three change files, which
 * become a local replication directory (src/testing/replication-dir.ts). A `maphist serve
 * --replication DIR --replication-interval 1` over an import of the history part catches up while
 * a client keeps asking; the third sequence is published while it serves. Every answer is a 200;
 * `/v1/metadata` moves to the last sequence and its timestamp; every update runs in place on the
 * follower's spare file, and the stopped server leaves no work directory; at the end the server's answers
 * equal those of a server over a full import of the whole history. And `maphist update
 * --replication` itself: up to date, a gap refused with exit 15 and the store unchanged.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { splitHistory } from '../testing/split-history.js';
import { workDirRoot } from '../store/work-dir.js';
import { queryStore } from '../store/test-support.js';
import { readChangesets, type ChangesetRecord } from '../io/changesets/open-changesets.js';
import { changesetsXml } from '../testing/changesets-xml.js';
import { appendReplicationEntry, writeReplicationDir } from '../testing/replication-dir.js';
import { TEST_DATA, TESTCASES_DIR } from '../testing/test-data.js';
import { importInto, MAIN_JS, startServer, type ServerProcess } from '../testing/fuzz/server-process.js';

const SAMPLE = join(TEST_DATA, 'conformance', 'andorra-small.osh.pbf');
const HANDMADE_HISTORY = join(TESTCASES_DIR, 'handmade', 'history-small.osh.pbf');
const HANDMADE_DUMP = join(TEST_DATA, 'changesets', 'handmade-changesets.osm');
const epoch = (iso: string) => Date.parse(iso) / 1000;
/** Cut times: the history part ends before the first, change file i holds [cut i, cut i+1). */
const CUTS = ['2015-06-01T00:00:00Z', '2016-01-01T00:00:00Z', '2016-09-01T00:00:00Z'].map(epoch);
/** The state timestamps of the three sequences: each after its change's last edit (the sample ends 2017-02-10). */
const STATES = ['2016-01-01T00:00:00Z', '2016-09-01T00:00:00Z', '2017-03-01T00:00:00Z'];
const FIRST_SEQUENCE = 1000;
/** Compared at the end; while following they are asked up to 2015-05-01, inside the data from the start (later times are outside the data until it catches up: 404). */
const QUERIES = [
  '/v1/elements/count?bboxes=1.4,42.4,1.8,42.7&time=2014-01-01/2017-01-01/P6M',
  '/v1/elements/length/groupBy/type?bboxes=1.4,42.4,1.8,42.7&time=2015-01-01/2017-01-01/P1Y&filter=highway=*',
  '/v1/contributions/count?bboxes=1.4,42.4,1.8,42.7&time=2014-01-01/2017-01-01/P1Y',
  '/v1/users/count?bboxes=1.4,42.4,1.8,42.7&time=2014-01-01/2017-01-01/P1Y',
];

async function get(server: ServerProcess, path: string): Promise<{ status: number; text: string }> {
  const r = await fetch(`${server.url}${path}`);
  return { status: r.status, text: await r.text() };
}

describe('serve --replication: a server follows a replication directory', () => {
  let dir: string;
  let followed: string;
  let full: string;
  let replication: string;
  let changes: string[];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'maphist-follow-'));
    followed = join(dir, 'followed.duckdb');
    full = join(dir, 'full.duckdb');
    replication = join(dir, 'replication');
    const history = join(dir, 'history.osh.pbf');
    changes = [1, 2, 3].map((i) => join(dir, `change-${i}.osc.gz`));
    await splitHistory({ input: SAMPLE, history, changes, cuts: CUTS });
    await importInto(history, followed);
    await importInto(SAMPLE, full);
    // Before the changes, a state the store's data is already complete for (its change is empty):
    // a store without a sequence starts at the first state after its data, which a source must
    // show by a state at or before it (docs/replication.md). Two sequences with changes are
    // published before the server starts; the third while it serves.
    writeReplicationDir(replication, [
      { sequence: FIRST_SEQUENCE - 1, timestamp: '2015-05-01T00:00:00Z' },
      ...changes.slice(0, 2).map((file, i) => ({ sequence: FIRST_SEQUENCE + i, timestamp: STATES[i], change: { file } })),
    ]);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('catches up while answering every request, follows a new sequence, and then answers as a full import', async () => {
    const server = await startServer(followed, ['--replication', replication, '--replication-interval', '1']);
    const reference = await startServer(full);
    try {
      const statuses = new Map<number, number>();
      let sequence = -1;
      let toTimestamp = '';
      let published = false;
      const deadline = Date.now() + 240_000;
      while (Date.now() < deadline) {
        for (const q of [...QUERIES.map((x) => x.replace('2017-01-01', '2015-05-01')), '/v1/metadata']) {
          const r = await get(server, q);
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          if (q === '/v1/metadata' && r.status === 200) {
            const m = JSON.parse(r.text) as { extractRegion: { replicationSequenceNumber: number; temporalExtent: { toTimestamp: string } } };
            sequence = m.extractRegion.replicationSequenceNumber;
            toTimestamp = m.extractRegion.temporalExtent.toTimestamp;
          }
        }
        if (!published && sequence === FIRST_SEQUENCE + 1) {
          appendReplicationEntry(replication, { sequence: FIRST_SEQUENCE + 2, timestamp: STATES[2], change: { file: changes[2] } });
          published = true;
        }
        if (sequence === FIRST_SEQUENCE + 2) break;
        await sleep(200);
      }
      assert.equal(sequence, FIRST_SEQUENCE + 2, `the server reached sequence ${sequence}; its log: ${server.stderrTail()}`);
      assert.equal(toTimestamp, STATES[2], 'the data is complete up to the last state');
      assert.deepEqual([...statuses.keys()], [200], `every answer while following is a 200: ${JSON.stringify([...statuses])}`);
      const v2 = JSON.parse((await get(server, '/v2-rc/metadata')).text) as { temporalExtent: { end: string }; replication: unknown };
      assert.deepEqual(v2.replication, { sequenceNumber: FIRST_SEQUENCE + 2, timestamp: STATES[2] }, 'v2 metadata reports the sequence too');
      assert.equal(v2.temporalExtent.end, STATES[2]);
      // Every update ran in place on the follower's spare file (no copy of the store).
      const log = server.stderrTail();
      assert.match(log, /updated \S+ to sequence 1002 .*\(in place\)/, log);
      assert.doesNotMatch(log, /renamed over it/, log);
      for (const q of QUERIES) {
        const [got, want] = await Promise.all([get(server, q), get(reference, q)]);
        assert.equal(got.status, 200, q);
        // The same numbers; the metadata parts of the answers (e.g. the request URL) are the same paths.
        assert.deepEqual(
          JSON.parse(got.text).result ?? JSON.parse(got.text).groupByResult,
          JSON.parse(want.text).result ?? JSON.parse(want.text).groupByResult,
          q,
        );
      }
    } finally {
      await server.stop();
      await reference.stop();
    }
    assert.ok(!existsSync(workDirRoot(followed)), 'the stopped server removed its spare and work directory');
  });

  it('maphist update --replication: up to date changes nothing; a missing sequence is refused with exit 15 and the store unchanged', () => {
    const run = (...args: string[]) => spawnSync(process.execPath, [MAIN_JS, 'update', '--db', followed, ...args], { encoding: 'utf8' });
    const before = statSync(followed);
    const upToDate = run('--replication', replication);
    assert.equal(upToDate.status, 0, upToDate.stderr);
    assert.match(upToDate.stdout, /is up to date .*sequence 1002/);
    // Sequence 1004 is published, 1003 is not: a gap.
    appendReplicationEntry(replication, { sequence: FIRST_SEQUENCE + 4, timestamp: '2017-03-03T00:00:00Z' });
    const gap = run('--replication', replication);
    assert.equal(gap.status, 15, `${gap.stdout}${gap.stderr}`);
    assert.match(gap.stderr, /1003/);
    const afterGap = statSync(followed);
    assert.deepEqual([afterGap.ino, afterGap.size, afterGap.mtimeMs], [before.ino, before.size, before.mtimeMs], 'the store is unchanged');
  });
});

describe('serve --changeset-replication: a server follows changeset replication', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'maphist-follow-cs-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('applies a changeset diff to its spare and swaps it in; the store then has the new record and position', async () => {
    const db = join(dir, 'cs.duckdb');
    await importInto(HANDMADE_HISTORY, db);
    const load = spawnSync(process.execPath, [MAIN_JS, 'changesets', 'import', HANDMADE_DUMP, '--db', db], { encoding: 'utf8' });
    assert.equal(load.status, 0, load.stderr);
    // A changeset the states reference (kept by the keep rule), closed once more with a new tag.
    const [{ id }] = await queryStore<{ id: bigint }>(db, 'SELECT min(c.id) AS id FROM changesets c WHERE c.id IN (SELECT changeset FROM states)');
    const dump: ChangesetRecord[] = [];
    for await (const batch of readChangesets(HANDMADE_DUMP)) dump.push(...batch);
    const record = dump.find((c) => c.id === Number(id))!;
    const [{ value }] = await queryStore<{ value: string }>(db, "SELECT value FROM meta WHERE key = 'changesetsTimestamp'");
    const T = Date.parse(JSON.parse(value) as string) / 1000;
    const source = join(dir, 'changesets');
    const changed: ChangesetRecord = { ...record, tags: [...record.tags, 'maphist:test', 'followed'] };
    writeReplicationDir(
      source,
      [
        { sequence: 500, timestamp: T, change: { text: changesetsXml([]) } },
        { sequence: 501, timestamp: T + 3600, change: { text: changesetsXml([changed]) } },
      ],
      { kind: 'changesets' },
    );
    const server = await startServer(db, ['--changeset-replication', source, '--replication-interval', '1']);
    try {
      const deadline = Date.now() + 120_000;
      while (!/serving generation 2/.test(server.stderrTail()) && Date.now() < deadline) {
        assert.equal((await get(server, '/v1/metadata')).status, 200);
        await sleep(200);
      }
      assert.match(server.stderrTail(), /updated the changesets of \S+ to sequence 501 .*serving generation 2/s, server.stderrTail());
    } finally {
      await server.stop();
    }
    const [row] = await queryStore<{ tag: string }>(db, `SELECT map_extract(tags, 'maphist:test')[1] AS tag FROM changesets WHERE id = ${id}`);
    assert.equal(row?.tag, 'followed');
    const [{ value: sequence }] = await queryStore<{ value: string }>(db, "SELECT value FROM meta WHERE key = 'changesetReplicationSequenceNumber'");
    assert.equal(JSON.parse(sequence), 501);
    assert.ok(!existsSync(workDirRoot(db)), 'the stopped server removed its spare');
  });
});
