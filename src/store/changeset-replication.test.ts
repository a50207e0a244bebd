/**
 * Changeset replication (`maphist changesets update`, changeset-replication.ts) against its oracle:
 * the changeset history of this file (a base dump, then replication diffs in which changesets
 * appear open, then closed with more tags and changes, or again for a new comment) is applied to a
 * store loaded from the base dump, and the `changesets` table must equal a direct
 * `changesets import` (the existing loader, every row kept) of the last record of each changeset,
 * filtered by the keep rule computed here from the records and the store's states: referenced,
 * open, or closed after the store's data end (a store loaded with --all: every one). Also: the
 * start rule, a partial run, an up-to-date run, re-applying old diffs, the data end moving (an
 * update brings edits that reference a kept changeset; the rest is pruned), a gap refused with the
 * store unchanged, a store without changesets, another process holding the file, the command line,
 * and the work directory gone afterwards.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMaphistError } from '../core/errors.js';
import { readChangesets, type ChangesetRecord } from '../io/changesets/open-changesets.js';
import { writeReplicationDir, type ReplicationEntry } from '../testing/replication-dir.js';
import { changesetsXml, isoZ } from '../testing/changesets-xml.js';
import { TEST_DATA, TESTCASES_DIR } from '../testing/test-data.js';
import { applyChanges } from './apply-changes.js';
import { updateChangesets } from './changeset-replication.js';
import { importChangesets } from './changesets.js';
import { importHistory } from './import-history.js';
import { queryStore } from './test-support.js';
import { workDirRoot } from './work-dir.js';

const HISTORY = join(TESTCASES_DIR, 'handmade', 'history-small.osh.pbf');
const HANDMADE_DUMP = join(TEST_DATA, 'changesets', 'handmade-changesets.osm');
const MAIN = join(process.cwd(), 'dist', 'src', 'cli', 'main.js');

const t = (iso: string) => Date.parse(iso) / 1000;
/** The history's data end (its newest edit), and the time the base dump was taken. */
const T0 = t('2020-09-01T00:00:00Z');
const D = t('2020-09-01T12:00:00Z');
const H = 3600;
const M = 60;

interface Spec {
  created: number;
  closed?: number;
  tags?: Record<string, string>;
  changes?: number;
  comments?: number;
  user?: [number, string] | null;
}

function cs(id: number, s: Spec): ChangesetRecord {
  const user: [number, string] | null = s.user === undefined ? [100 + id, `mapper-${id}`] : s.user;
  return {
    id,
    createdAt: s.created,
    closedAt: s.closed ?? null,
    open: s.closed === undefined,
    userId: user?.[0] ?? null,
    userName: user?.[1] ?? null,
    numChanges: s.changes ?? 1,
    commentsCount: s.comments ?? 0,
    bbox: id % 3 === 0 ? null : [8 + id / 1000, 49, 8.01 + id / 1000, 49.01],
    tags: Object.entries(s.tags ?? {}).flat(),
  };
}

async function readAll(path: string): Promise<ChangesetRecord[]> {
  const out: ChangesetRecord[] = [];
  for await (const batch of readChangesets(path)) out.push(...batch);
  return out;
}

/** Sequences 95–100 come before the dump (the start rule skips them: 98 holds an open record of 7, closed long before). */
function diffsBeforeDump(handmade: ChangesetRecord[]): { sequence: number; timestamp: number; records: ChangesetRecord[] }[] {
  const seven = handmade.find((c) => c.id === 7)!;
  const nine = handmade.find((c) => c.id === 9)!;
  return [95, 96, 97, 98, 99, 100].map((sequence) => ({
    sequence,
    timestamp: D - 60 * M + (sequence - 95) * 10 * M,
    records: sequence === 98 ? [{ ...seven, open: true, closedAt: null, tags: [] }] : sequence === 97 ? [{ ...nine, tags: [] }] : [],
  }));
}

/** After the dump: 9 (referenced) open with more changes, then closed with more tags; others opened and closed elsewhere. */
const AFTER_DUMP: { sequence: number; timestamp: number; records: ChangesetRecord[] }[] = [
  {
    sequence: 101,
    timestamp: D + 1 * H,
    records: [
      cs(9, { created: T0, tags: { comment: 'meadow', source: 'survey' }, changes: 3, user: [1, 'alice'] }),
      cs(40, { created: D + 30 * M, tags: { comment: 'elsewhere, open' } }),
      cs(41, { created: D + 40 * M, closed: D + 50 * M, tags: { comment: 'elsewhere, closed' } }),
      cs(5, {
        created: t('2020-05-01T00:00:00Z'),
        closed: t('2020-05-01T00:01:00Z'),
        tags: { comment: 'a second comment came' },
        comments: 2,
        user: [1, 'alice'],
      }),
    ],
  },
  {
    sequence: 102,
    timestamp: D + 2 * H,
    records: [
      cs(9, { created: T0, closed: D + 90 * M, tags: { comment: 'meadow and pond', hashtags: '#ponds', source: 'survey' }, changes: 5, user: [1, 'alice'] }),
      cs(42, { created: t('2020-08-20T00:00:00Z'), closed: t('2020-08-20T01:00:00Z'), tags: { comment: 'old, commented now' }, comments: 1 }),
      cs(30, { created: D - 6 * H, closed: D + 100 * M, tags: { comment: 'open in the dump' }, changes: 4 }),
    ],
  },
  {
    sequence: 103,
    timestamp: D + 3 * H,
    records: [
      cs(40, { created: D + 30 * M, closed: D + 150 * M, tags: { comment: 'elsewhere, closed now', created_by: 'iD' }, changes: 2 }),
      cs(43, { created: D + 170 * M, tags: { comment: 'open' } }),
    ],
  },
  { sequence: 104, timestamp: D + 4 * H, records: [] },
];

/** After the data update (edits in 40 and 44 up to D + 3 h): 44 closes, 43 closes before the new data end, 45 after it. */
const AFTER_UPDATE: { sequence: number; timestamp: number; records: ChangesetRecord[] }[] = [
  {
    sequence: 105,
    timestamp: D + 5 * H,
    records: [
      cs(44, { created: D + 170 * M, closed: D + 190 * M, tags: { comment: 'the update’s second edit' }, user: [5, 'erin'] }),
      cs(43, { created: D + 170 * M, closed: D + 175 * M, tags: { comment: 'closed before the data end' } }),
      cs(45, { created: D + 200 * M, closed: D + 205 * M, tags: { comment: 'after the data end' } }),
    ],
  },
];

const UPDATE_OSC = `<?xml version="1.0" encoding="UTF-8"?>
<osmChange version="0.6" generator="maphist test">
 <create>
  <node id="9000001" version="1" timestamp="${isoZ(D + 140 * M)}" changeset="40" uid="5" user="erin" lat="49.0200000" lon="8.0200000"><tag k="amenity" v="bench"/></node>
  <node id="9000002" version="1" timestamp="${isoZ(D + 180 * M)}" changeset="44" uid="5" user="erin" lat="49.0210000" lon="8.0210000"><tag k="amenity" v="waste_basket"/></node>
 </create>
</osmChange>
`;

const COLUMNS =
  'id::INTEGER AS id, created_at::VARCHAR AS created_at, closed_at::VARCHAR AS closed_at, open, user_id, user_name, num_changes, comments_count, min_lon, min_lat, max_lon, max_lat, tags::VARCHAR AS tags';

const table = (db: string) => queryStore<Record<string, unknown>>(db, `SELECT ${COLUMNS} FROM changesets ORDER BY id`);
const metaOf = async (db: string) =>
  Object.fromEntries(
    (await queryStore<{ key: string; value: string }>(db, 'SELECT key, value FROM meta ORDER BY key')).map((r) => [r.key, JSON.parse(r.value) as unknown]),
  );

async function failsWith(p: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  await assert.rejects(p, (e) => isMaphistError(e) && e.code === code && (message === undefined || message.test(e.message)));
}

describe('changeset replication', () => {
  let dir: string;
  let handmade: ChangesetRecord[];
  let base: ChangesetRecord[];
  /** The base store (referenced only), its --all twin, a store without changesets, and the oracle's store. */
  let baseDb: string;
  let baseAllDb: string;
  let bareDb: string;
  let oracleDb: string;
  let source: string;
  let n = 0;

  const copy = (from: string) => {
    const to = join(dir, `copy-${++n}.duckdb`);
    copyFileSync(from, to);
    return to;
  };

  /**
   * The oracle: the last record of each changeset (those of the base dump that its load kept —
   * referenced, or all —, then the diffs in order) that the keep rule keeps, loaded by `changesets import`.
   */
  async function expected(db: string, diffs: readonly { records: ChangesetRecord[] }[], all: boolean): Promise<Record<string, unknown>[]> {
    const referenced = new Set((await queryStore<{ c: number }>(db, 'SELECT DISTINCT changeset::INTEGER AS c FROM states')).map((r) => r.c));
    const last = new Map<number, ChangesetRecord>();
    for (const c of [...base.filter((b) => all || referenced.has(b.id)), ...diffs.flatMap((d) => d.records)]) last.set(c.id, c);
    const dataEnd = t((await metaOf(db)).lastTimestamp as string);
    const kept = [...last.values()].filter((c) => all || referenced.has(c.id) || c.open || (c.closedAt ?? 0) > dataEnd);
    const file = join(dir, `expected-${++n}.osm`);
    writeFileSync(file, changesetsXml(kept.sort((a, b) => a.id - b.id)));
    await importChangesets(oracleDb, file, { all: true });
    return table(oracleDb);
  }

  function writeSource(
    path: string,
    diffs: readonly { sequence: number; timestamp: number; records: ChangesetRecord[] }[],
    edit?: (e: ReplicationEntry) => ReplicationEntry,
  ) {
    const entries = diffs.map((d) => ({ sequence: d.sequence, timestamp: d.timestamp, change: { text: changesetsXml(d.records) } }) as ReplicationEntry);
    writeReplicationDir(path, edit ? entries.map(edit) : entries, { kind: 'changesets' });
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'maphist-changeset-replication-'));
    handmade = (await readAll(HANDMADE_DUMP)).filter((c) => c.id < 100);
    base = [
      ...handmade,
      cs(30, { created: D - 6 * H, tags: { comment: 'open in the dump, referenced by nothing' } }),
      cs(31, { created: D - 20 * M, closed: D - M, tags: { comment: 'the newest of the dump' } }),
    ];
    const dump = join(dir, 'base-changesets.osm');
    writeFileSync(dump, changesetsXml(base));
    baseDb = join(dir, 'base.duckdb');
    baseAllDb = join(dir, 'base-all.duckdb');
    bareDb = join(dir, 'bare.duckdb');
    oracleDb = join(dir, 'oracle.duckdb');
    await importHistory({ input: HISTORY, db: baseDb, changesets: dump });
    await importHistory({ input: HISTORY, db: baseAllDb, changesets: dump, allChangesets: true });
    await importHistory({ input: HISTORY, db: bareDb });
    await importHistory({ input: HISTORY, db: oracleDb });
    source = join(dir, 'replication');
    writeSource(source, [...diffsBeforeDump(handmade), ...AFTER_DUMP]);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a load records the keep rule and the time the dump reaches', async () => {
    const m = await metaOf(baseDb);
    assert.deepEqual([m.changesetsAll, m.changesetsTimestamp, m.changesets], [false, isoZ(D - M), 11]);
    assert.equal((await metaOf(baseAllDb)).changesetsAll, true);
  });

  it('referenced only: starts after the dump, applies part, then the rest; equals the oracle each time; the work directory is gone', async () => {
    const db = copy(baseDb);
    const first = await updateChangesets({ db, location: source, maxSequences: 3 });
    assert.equal(first.start?.sequence, 101, 'the first sequence whose state is after the newest changeset of the dump');
    assert.deepEqual([first.before, first.sequence, first.sequences, first.upToDate, first.all], [undefined, 103, 3, false, false]);
    assert.deepEqual(await table(db), await expected(db, AFTER_DUMP.slice(0, 3), false));
    const ids = (await table(db)).map((r) => r.id);
    // 9 closed with its new tags, 5 with its comment; 30, 40, 41 (closed after the data end) and 43 (open) kept; 42 (closed before it) not.
    assert.deepEqual(ids, [1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 21, 30, 40, 41, 43]);
    assert.equal(existsSync(workDirRoot(db)), false);

    const second = await updateChangesets({ db, location: source });
    assert.deepEqual([second.before, second.sequence, second.sequences, second.start], [103, 104, 1, undefined]);
    assert.deepEqual(await table(db), await expected(db, AFTER_DUMP, false));
    const m = await metaOf(db);
    assert.deepEqual(
      [m.changesetReplicationSequenceNumber, m.changesetReplicationTimestamp, m.changesetReplicationDataEnd, m.changesets],
      [104, isoZ(D + 4 * H), isoZ(T0), 15],
    );

    // Up to date: nothing written.
    const before = await table(db);
    const again = await updateChangesets({ db, location: source });
    assert.deepEqual([again.upToDate, again.sequence, again.sequences], [true, 104, 0]);
    assert.deepEqual(await table(db), before);
    assert.equal(existsSync(workDirRoot(db)), false);

    // The data end moves (edits in 40 and the new 44): 41 and 30, closed before it and referenced by nothing, go; 40 stays.
    const osc = join(dir, 'update.osc');
    writeFileSync(osc, UPDATE_OSC);
    await applyChanges({ db, changes: [osc] });
    assert.equal((await metaOf(db)).lastTimestamp, isoZ(D + 180 * M));
    const later = join(dir, 'replication-later');
    writeSource(later, [...diffsBeforeDump(handmade), ...AFTER_DUMP, ...AFTER_UPDATE]);
    const third = await updateChangesets({ db, location: later });
    assert.deepEqual([third.before, third.sequence, third.pruned], [104, 105, 2]);
    assert.deepEqual(await table(db), await expected(db, [...AFTER_DUMP, ...AFTER_UPDATE], false));
    assert.deepEqual(
      (await table(db)).map((r) => r.id),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 21, 40, 44, 45],
    );

    // Every diff again, those before the dump too (98 has 7 open): the table stays as it is.
    const settled = await table(db);
    const replay = await updateChangesets({ db, location: later, startSequence: 95 });
    assert.deepEqual([replay.sequences, replay.stale], [11, 1]);
    assert.deepEqual(await table(db), settled);
    assert.equal(existsSync(workDirRoot(db)), false);
  });

  it('--all: every changeset of the diffs is kept, as a direct import of the last records', async () => {
    const db = copy(baseAllDb);
    const r = await updateChangesets({ db, location: source });
    assert.deepEqual([r.start?.sequence, r.sequence, r.all, r.notKept, r.pruned], [101, 104, true, 0, 0]);
    assert.deepEqual(await table(db), await expected(db, AFTER_DUMP, true));
    assert.equal((await table(db)).length, 17);
  });

  it('a gap (a missing state or diff) is refused with the store unchanged and no work directory left', async () => {
    for (const [name, edit] of [
      ['state', (e: ReplicationEntry): ReplicationEntry => (e.sequence === 102 ? { ...e, state: false } : e)],
      ['diff', (e: ReplicationEntry): ReplicationEntry => (e.sequence === 103 ? { ...e, change: false } : e)],
    ] as const) {
      const db = copy(baseDb);
      const gap = join(dir, `gap-${name}`);
      writeSource(gap, [...diffsBeforeDump(handmade), ...AFTER_DUMP], edit);
      const [rows, meta] = [await table(db), await metaOf(db)];
      await failsWith(updateChangesets({ db, location: gap }), 'REPLICATION_GAP', name === 'state' ? /sequence 102/ : /sequence 103/);
      assert.deepEqual(await table(db), rows);
      assert.deepEqual(await metaOf(db), meta);
      assert.equal(existsSync(workDirRoot(db)), false);
    }
  });

  it('a store without changesets is refused, naming changesets import', async () => {
    await failsWith(updateChangesets({ db: bareDb, location: source }), 'CHANGESETS_NOT_LOADED', /maphist changesets import/);
  });

  it('another process holding the file: DB_BUSY, saying what to do', async () => {
    const db = copy(baseDb);
    const script = `import { DuckDBInstance } from '@duckdb/node-api';
const i = await DuckDBInstance.create(${JSON.stringify(db)}, { access_mode: 'READ_WRITE' });
process.stdout.write('ready\\n');
process.stdin.on('end', () => { i.closeSync(); process.exit(0); });
process.stdin.resume();`;
    const holder = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((ready, fail) => {
        holder.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && ready());
        holder.on('exit', (code) => fail(new Error(`the holder ended (${code})`)));
      });
      await failsWith(updateChangesets({ db, location: source }), 'DB_BUSY', /open in another process \(PID \d+\).*run again/);
    } finally {
      holder.stdin!.end();
      await new Promise((done) => holder.once('exit', done));
    }
    assert.equal(existsSync(workDirRoot(db)), false);
  });

  it('kill -9 before the transaction, inside it, and after its commit: the store before, before, after; a re-run finishes', async () => {
    const module = join(process.cwd(), 'dist', 'src', 'store', 'changeset-replication.js');
    const reference = copy(baseDb);
    await updateChangesets({ db: reference, location: source });
    const [beforeRows, afterRows] = [await table(baseDb), await table(reference)];
    const position = async (db: string) => (await metaOf(db)).changesetReplicationSequenceNumber;
    for (const [phase, expectAfter] of [
      ['fetched', false],
      ['written', false],
      ['committed', true],
    ] as const) {
      const db = copy(baseDb);
      const script = `const { updateChangesets } = await import(${JSON.stringify(module)});
await updateChangesets({ db: ${JSON.stringify(db)}, location: ${JSON.stringify(source)}, onPhase: (p) => p === ${JSON.stringify(phase)} && process.kill(process.pid, 'SIGKILL') });`;
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
      assert.equal(child.signal, 'SIGKILL', `${phase}: ${child.stderr}`);
      assert.deepEqual(await table(db), expectAfter ? afterRows : beforeRows, phase);
      assert.equal(await position(db), expectAfter ? 104 : undefined, phase);
      const rerun = await updateChangesets({ db, location: source });
      assert.equal(rerun.upToDate, expectAfter, phase);
      assert.deepEqual(await table(db), afterRows, phase);
      assert.equal(existsSync(workDirRoot(db)), false, `${phase}: the next run removed what the killed one left`);
    }
  });

  it('the command line: update, up to date, a gap (exit 15), no changesets (exit 17), a bad command line (exit 2); a new load drops the position', async () => {
    const db = copy(baseDb);
    const run = (...args: string[]) => spawnSync(process.execPath, [MAIN, 'changesets', ...args], { encoding: 'utf8' });
    const ok = run('update', '--db', db, '--replication', source, '--max-sequences', '2');
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /starting at 101/);
    assert.match(ok.stdout, /updated the changesets of .* to sequence 102 /);
    const rest = run('update', '--db', db, '--replication', source);
    assert.equal(rest.status, 0, rest.stderr);
    assert.match(rest.stdout, /to sequence 104 /);
    const same = run('update', '--db', db, '--replication', source);
    assert.equal(same.status, 0, same.stderr);
    assert.match(same.stdout, /up to date .* \(sequence 104\)/);
    const gapDb = copy(baseDb);
    const gap = join(dir, 'gap-cli');
    writeSource(gap, [...diffsBeforeDump(handmade), ...AFTER_DUMP], (e) => (e.sequence === 102 ? { ...e, state: false } : e));
    assert.equal(run('update', '--db', gapDb, '--replication', gap).status, 15);
    const bare = run('update', '--db', bareDb, '--replication', source);
    assert.equal(bare.status, 17);
    assert.match(bare.stderr, /maphist changesets import/);
    assert.equal(run('update', '--db', db).status, 2);
    assert.equal(run('update', '--db', db, '--replication', source, '--all').status, 2);
    // A new dump: the position goes, the start rule applies again.
    assert.equal((await metaOf(db)).changesetReplicationSequenceNumber, 104);
    await importChangesets(db, join(dir, 'base-changesets.osm'));
    const m = await metaOf(db);
    assert.deepEqual(
      [m.changesetReplicationSequenceNumber, m.changesetReplicationTimestamp, m.changesetReplicationDataEnd, m.changesetsTimestamp],
      [undefined, undefined, undefined, isoZ(D - M)],
    );
    const restart = await updateChangesets({ db, location: source });
    assert.deepEqual([restart.start?.sequence, restart.sequence], [101, 104]);
    assert.deepEqual(await table(db), await expected(db, AFTER_DUMP, false));
  });
});
