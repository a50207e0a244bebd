/**
 * The oracle of `maphist update` (issue 18) is the import itself: a real history split at a time T
 * (src/testing/split-history.ts: the versions before T as a history file, the rest as OsmChange
 * files), the first part imported and the rest applied, must give exactly the store a full import of
 * the whole history gives — every row of the `contributions` view (in order), the back references
 * and member tables, and a set of v1 and v2 answers, byte for byte. Two regions, several split
 * points (one of them where ways get member-induced states only through the update), the changes
 * applied at once and one file after the other. Also: re-applying changes nothing; `kill -9` of an
 * update in a child process leaves the store exactly as before or exactly as after, and a re-run
 * finishes; the real diffs of testdata/changes/ apply to a store that does not hold their elements.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyChanges } from './apply-changes.js';
import { importHistory } from './import-history.js';
import { openStore } from './open-store.js';
import { workDirRoot } from './work-dir.js';
import { createDuckDbServer } from '../testing/server.js';
import { splitHistory } from '../testing/split-history.js';
import { TEST_DATA } from '../testing/test-data.js';

const REGIONS = [
  {
    name: 'andorra-small',
    file: join(TEST_DATA, 'conformance', 'andorra-small.osh.pbf'),
    cuts: [
      ['2014-01-01', '2015-01-01'],
      ['2016-06-01', '2016-09-01'],
      ['2016-12-01', '2017-01-15'],
    ],
    aoi: [1.4, 42.4, 1.8, 42.7],
  },
  {
    name: 'bagmati',
    file: join(TEST_DATA, 'history', 'r4815251-bagmati-river.osh.gz'),
    cuts: [
      ['2015-05-01', '2016-01-01'],
      ['2017-01-01', '2017-04-01'],
      ['2017-09-01', '2017-12-01'],
    ],
    aoi: [84.5, 26.5, 86.5, 28],
  },
];

const epoch = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000;

/** Every row of a query, as JSON-able values (bigints as strings, blobs as hex). */
async function rowsOf(db: string, sql: string): Promise<unknown[]> {
  const store = await openStore(db);
  try {
    const con = await store.connect();
    try {
      const rows = (await con.runAndReadAll(sql)).getRowsJS();
      return rows.map((r) =>
        JSON.parse(JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? String(v) : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v))),
      );
    } finally {
      con.closeSync();
    }
  } finally {
    store.close();
  }
}

const CONTRIBUTIONS = 'SELECT * FROM contributions ORDER BY type, id, valid_from, version, minor_version';
const TABLES = [
  CONTRIBUTIONS,
  'SELECT * FROM way_nodes ORDER BY ALL',
  'SELECT * FROM relation_members ORDER BY ALL',
  'SELECT * FROM current_parents ORDER BY ALL',
  'SELECT * FROM users ORDER BY ALL',
  'SELECT t.key, t.frequency, v.value, v.frequency FROM tag_keys t JOIN tag_values v ON v.key_id = t.id ORDER BY ALL',
  "SELECT key, value FROM meta WHERE key NOT IN ('sourceFile', 'importTime', 'generator', 'updates') ORDER BY key",
  // Each element's extent (element-extent.ts): the update widens the kept rows of an element that reached further.
  'SELECT type, id, ext_xmin, ext_ymin, ext_xmax, ext_ymax, count(*) FROM states GROUP BY ALL ORDER BY ALL',
  // The kept states' order and geometry runs (geometry-run.ts), which contributions join by, and the
  // spatial keys.
  'SELECT type, id, valid_from, version, minor_version, collapsed, edits, geometry_run, spatial_key FROM states ORDER BY ALL',
];

/** v1 and v2 answers (status and body) of a server over the store at `db`. */
async function answersOf(db: string, aoi: number[]): Promise<string[]> {
  const store = await openStore(db);
  const app = await createDuckDbServer(store, { timeoutSeconds: 100 });
  const bboxes = aoi.join(',');
  const get = [
    `/v1/elements/count?bboxes=${bboxes}&time=2012-01-01/2017-01-01/P6M`,
    `/v1/elements/length?bboxes=${bboxes}&filter=highway=*&time=2014-01-01/2017-02-01/P3M`,
    `/v1/elements/area/groupBy/type?bboxes=${bboxes}&filter=building=* or landuse=* or natural=*&time=2017-01-01`,
    `/v1/elements/count/groupBy/tag?bboxes=${bboxes}&groupByKey=highway&time=2016-01-01,2017-02-01`,
    `/v1/contributions/count?bboxes=${bboxes}&time=2010-01-01/2017-02-01/P1Y`,
    `/v1/users/count?bboxes=${bboxes}&time=2010-01-01/2017-02-01/P1Y`,
    `/v1/elementsFullHistory/geometry?bboxes=${bboxes}&filter=highway=* or waterway=* or type:relation&time=2010-01-01,2017-02-01`,
    `/v1/contributions/geometry?bboxes=${bboxes}&filter=type:way or type:node or type:relation&time=2015-01-01,2017-02-01&properties=metadata,tags`,
    '/v1/metadata',
  ];
  const post: [string, unknown][] = [
    ['/v2/stats/features/count.json', { aoi, filter: 'building=* or highway=* or waterway=*', time: 'latest' }],
    ['/v2/stats/contributions/count.json', { aoi, filter: '*', time: { start: '2010-01-01', end: 'latest' } }],
    ['/v2/extraction/contributions.parquet', { aoi, filter: '*', time: { start: '2014-01-01', end: 'latest' } }],
    ['/v2/extraction/features.parquet', { aoi, filter: '*', time: 'latest' }],
    ['/v2/metadata', undefined],
  ];
  try {
    const out: string[] = [];
    for (const url of get) {
      const r = await app.inject({ method: 'GET', url });
      assert.equal(r.statusCode, 200, `${url}: ${r.body}`);
      out.push(`${url} ${r.statusCode} ${r.body}`);
    }
    for (const [url, body] of post) {
      const r = body === undefined ? await app.inject({ method: 'GET', url }) : await app.inject({ method: 'POST', url, payload: body as object });
      // A parquet file's rows come in the store's physical order, which an update changes: compare them as a sorted set.
      const content = url.endsWith('.parquet') ? await sortedParquet(r.rawPayload) : r.body;
      out.push(`${url} ${r.statusCode} ${createHash('sha256').update(content).digest('hex')}`);
    }
    return out;
  } finally {
    await app.close();
    store.close();
  }
}

/** The rows of a parquet file, sorted, as JSON, and its key-value metadata. */
async function sortedParquet(bytes: Buffer): Promise<string> {
  const file = join(tmpdir(), `maphist-update-${process.pid}.parquet`);
  writeFileSync(file, bytes);
  const instance = await DuckDBInstance.create(':memory:');
  const con = await instance.connect();
  try {
    const rows = (await con.runAndReadAll(`SELECT * FROM read_parquet('${file}') ORDER BY ALL`)).getRowsJS();
    const kv = (await con.runAndReadAll(`SELECT key::VARCHAR, value::VARCHAR FROM parquet_kv_metadata('${file}') ORDER BY ALL`)).getRowsJS();
    return JSON.stringify([rows, kv], (_k, v) => (typeof v === 'bigint' ? String(v) : v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v));
  } finally {
    con.closeSync();
    instance.closeSync();
    rmSync(file, { force: true });
  }
}

async function assertSameStore(actual: string, expected: string, what: string): Promise<void> {
  for (const sql of TABLES) {
    const [a, e] = [await rowsOf(actual, sql), await rowsOf(expected, sql)];
    assert.equal(a.length, e.length, `${what}: ${sql}: row count`);
    for (let i = 0; i < e.length; i++) assert.deepEqual(a[i], e[i], `${what}: ${sql}: row ${i}`);
  }
}

/** Whether two stores hold the same rows (as `assertSameStore` compares them). */
async function sameStore(actual: string, expected: string): Promise<boolean> {
  try {
    await assertSameStore(actual, expected, '');
    return true;
  } catch (e) {
    if (e instanceof assert.AssertionError) return false;
    throw e;
  }
}

describe('maphist update: import part 1 + apply part 2 = import of the whole history', { timeout: 600_000 }, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'maphist-update-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const region of REGIONS) {
    it(`${region.name}: split at ${region.cuts.map((c) => c[0]).join(', ')}`, async () => {
      const full = join(dir, `${region.name}-full.duckdb`);
      await importHistory({ input: region.file, db: full });
      const fullAnswers = await answersOf(full, region.aoi);
      let onlyThroughUpdate = 0;
      for (const [cut, next] of region.cuts) {
        const T = epoch(cut!);
        const hist = join(dir, `${region.name}-${cut}.osh.pbf`);
        const changes = [join(dir, `${region.name}-${cut}-a.osc.gz`), join(dir, `${region.name}-${cut}-b.osc`)];
        // Two change files: T .. the second cut, and the rest.
        const split = await splitHistory({ input: region.file, history: hist, changes, cuts: [T, epoch(next!)] });
        assert.ok(split.changeVersions[0]! > 0 && split.changeVersions[1]! > 0, `${cut}: both change files have versions (${split.changeVersions})`);
        // Ways whose states after T come only from their nodes (no version of theirs at or after T).
        const [[n]] = (await rowsOf(
          full,
          `SELECT count(DISTINCT id) FROM states s WHERE type = 1 AND minor_version > 0 AND valid_from >= ${T}
           AND NOT EXISTS (SELECT 1 FROM states v WHERE v.type = 1 AND v.id = s.id AND v.minor_version = 0 AND v.valid_from >= ${T})`,
        )) as [[string]];
        onlyThroughUpdate += Number(n);

        // All change files in one update.
        const db = join(dir, `${region.name}-${cut}.duckdb`);
        await importHistory({ input: hist, db });
        const r = await applyChanges({ db, changes });
        assert.equal(r.versionsNew, split.changeVersions[0]! + split.changeVersions[1]!);
        assert.ok(r.written);
        await assertSameStore(db, full, `${region.name} ${cut}`);
        assert.deepEqual(await answersOf(db, region.aoi), fullAnswers, `${region.name} ${cut}: v1 and v2 answers`);
        assert.ok(!existsSync(workDirRoot(db)), 'the work directory is removed');

        // Re-applying changes nothing, and does not even write the file.
        const before = statSync(db);
        const again = await applyChanges({ db, changes });
        assert.equal(again.versionsNew, 0);
        assert.equal(again.written, false);
        assert.equal(statSync(db).mtimeMs, before.mtimeMs);

        // One file after the other (and the first one again in the second run: skipped).
        const db2 = join(dir, `${region.name}-${cut}-2.duckdb`);
        await importHistory({ input: hist, db: db2 });
        await applyChanges({ db: db2, changes: [changes[0]!] });
        const second = await applyChanges({ db: db2, changes: [changes[0]!, changes[1]!] });
        assert.equal(second.versionsNew, split.changeVersions[1]);
        await assertSameStore(db2, full, `${region.name} ${cut} in two updates`);
        rmSync(db2);
        rmSync(db);
      }
      assert.ok(onlyThroughUpdate > 0, `${region.name}: some way gets member-induced states only through the update`);
    });
  }

  it('the split agrees with osmium: apply-changes of the change files to the history part gives the original versions', { skip: !hasOsmium() }, async () => {
    const region = REGIONS[0]!;
    const T = epoch('2016-06-01');
    const hist = join(dir, 'osmium-check.osh.pbf');
    const change = join(dir, 'osmium-check.osc.gz');
    await splitHistory({ input: region.file, history: hist, changes: [change], cuts: [T] });
    const merged = join(dir, 'osmium-merged.osh.pbf');
    const r = spawnSync('osmium', ['apply-changes', '--with-history', hist, change, '-o', merged, '-f', 'pbf', '--overwrite'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const a = join(dir, 'osmium-merged.duckdb');
    const b = join(dir, 'osmium-original.duckdb');
    await importHistory({ input: merged, db: a });
    await importHistory({ input: region.file, db: b });
    assert.deepEqual(await rowsOf(a, CONTRIBUTIONS), await rowsOf(b, CONTRIBUTIONS));
  });
});

function hasOsmium(): boolean {
  return spawnSync('osmium', ['--version']).status === 0;
}

describe('maphist update: kill -9, other processes, real diffs', { timeout: 600_000 }, () => {
  let dir: string;
  /** andorra-small split at 2016-01-01: the change, a full import and an import of the part before. */
  let change: string;
  let full: string;
  let pristine: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'maphist-update-kill-'));
    const region = REGIONS[0]!;
    const hist = join(dir, 'kill.osh.pbf');
    change = join(dir, 'kill.osc.gz');
    await splitHistory({ input: region.file, history: hist, changes: [change], cuts: [epoch('2016-01-01')] });
    full = join(dir, 'full.duckdb');
    await importHistory({ input: region.file, db: full });
    pristine = join(dir, 'pristine.duckdb');
    await importHistory({ input: hist, db: pristine });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('beside a process reading the database it writes a copy and renames it over; beside one writing it, DB_BUSY', async () => {
    const db = join(dir, 'held.duckdb');
    copyFileSync(pristine, db);
    const reader = await holdOpen(db, 'READ_ONLY');
    try {
      const r = await applyChanges({ db, changes: [change] });
      assert.equal(r.inPlace, false, 'a reader holds the file: a copy');
      assert.ok(r.written && r.copySeconds > 0);
    } finally {
      await reader.release();
    }
    await assertSameStore(db, full, 'updated beside a reader');
    copyFileSync(pristine, db);
    const writer = await holdOpen(db, 'READ_WRITE');
    try {
      await assert.rejects(
        applyChanges({ db, changes: [change] }),
        (e: Error & { code?: string }) => e.code === 'DB_BUSY' && /another process is writing it/.test(e.message),
      );
    } finally {
      await writer.release();
    }
    assert.ok(await sameStore(db, pristine), 'refused: the database is as before');
    const alone = await applyChanges({ db, changes: [change] });
    assert.equal(alone.inPlace, true, 'alone: in place');
    await assertSameStore(db, full, 'updated in place');
  });

  it('kill -9 at any moment of an update leaves the store as before or as after; a re-run finishes', async () => {
    const db = join(dir, 'kill.duckdb');
    const script = fileURLToPath(new URL('../testing/apply-changes-child.js', import.meta.url));
    // Killed when the child reports a phase (it waits 300 ms on `commit`, just before the commit,
    // and on `checkpointing`, just after it), or after a delay. In place, a kill after the commit
    // leaves the transaction in DuckDB's write-ahead log, which the next open (a read-only one
    // here) must replay; with --copy the rename is the commit.
    const modes = [
      { flags: [], moments: ['reading', 'checking', 'rebuilding', 'writing', 'commit', 'committing', 'checkpointing', 'delay:300', 'delay:900', 'delay:1500'] },
      { flags: ['--copy'], moments: ['checking', 'copying', 'rebuilding', 'committing', 'commit', 'delay:900'] },
    ];
    for (const { flags, moments } of modes) {
      const outcome: Record<string, 'before' | 'after'> = {};
      for (const moment of moments) {
        copyFileSync(pristine, db);
        await runAndKill(script, [...flags, db, change], moment);
        if (await sameStore(db, pristine)) outcome[moment] = 'before';
        else {
          await assertSameStore(db, full, `${flags.join(' ')} killed at ${moment}, after`);
          outcome[moment] = 'after';
        }
        // The re-run removes what the killed run left, and finishes the job.
        await applyChanges({ db, changes: [change] });
        await assertSameStore(db, full, `${flags.join(' ')} killed at ${moment}, re-run`);
        assert.ok(!existsSync(workDirRoot(db)), 'the killed run’s work directory is removed');
        assert.ok(!existsSync(`${db}.wal`), 'the re-run leaves no write-ahead log');
      }
      assert.equal(outcome.commit, 'before', `${flags.join(' ')}: a kill just before the commit leaves the store as before`);
      assert.equal(outcome.reading, flags.length === 0 ? 'before' : undefined);
      if (flags.length === 0) assert.equal(outcome.checkpointing, 'after', 'a kill between the commit and its checkpoint leaves the store as after');
    }
  });

  it('the real diffs of testdata/changes apply to a store that does not hold their elements', async () => {
    const db = join(dir, 'real.duckdb');
    await importHistory({ input: REGIONS[0]!.file, db });
    const files = readdirSync(join(TEST_DATA, 'changes')).map((f) => join(TEST_DATA, 'changes', f));
    const before = await rowsOf(db, 'SELECT count(*) FROM states');
    const r = await applyChanges({ db, changes: files });
    assert.ok(r.versionsNew > 1000 && r.written);
    // Every version of the diffs is in the store now, with its own state.
    const [[versions]] = (await rowsOf(db, "SELECT value FROM meta WHERE key = 'versions'")) as [[string]];
    const v = JSON.parse(versions) as Record<string, number>;
    const [[rows]] = (await rowsOf(db, 'SELECT count(*) FROM states')) as [[string]];
    assert.equal(Number(rows), Number((before[0] as string[])[0]) - r.rowsRemoved + r.rowsAdded);
    assert.ok(v.node! + v.way! + v.relation! >= r.versionsNew);
    const again = await applyChanges({ db, changes: files });
    assert.equal(again.versionsNew, 0);
  });
});

/** A child process that holds the database open (DuckDB's lock) until released. */
async function holdOpen(db: string, mode: 'READ_ONLY' | 'READ_WRITE'): Promise<{ release(): Promise<void> }> {
  const code = `import { DuckDBInstance } from '@duckdb/node-api';
    const i = await DuckDBInstance.create(${JSON.stringify(db)}, { access_mode: '${mode}' });
    await (await i.connect()).run('SELECT count(*) FROM states');
    process.stdout.write('ready\\n');
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    cwd: fileURLToPath(new URL('../../..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.on('exit', (c) => reject(new Error(`the holding process exited (${c})`)));
  });
  return {
    async release() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Runs an update in a child process and kills it (SIGKILL) at the given moment. */
async function runAndKill(script: string, args: string[], moment: string): Promise<void> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const delay = moment.startsWith('delay:') ? Number(moment.slice(6)) : undefined;
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  if (delay !== undefined) setTimeout(() => child.kill('SIGKILL'), delay);
  let seen = '';
  child.stdout.on('data', (d: Buffer) => {
    seen += d.toString();
    if (delay === undefined && seen.split('\n').includes(moment)) child.kill('SIGKILL');
  });
  await exited;
}
