/**
 * Changesets from a changeset dump (testdata/changesets/handmade-changesets.osm, hand-written for the
 * handmade history; its comment says which changesets the history references): the reader on
 * plain, gzip and bzip2; the load into a store (referenced only, or all), atomic; the `contributions`
 * view's `changeset_tags`; v2 contributions.parquet; the CLI's two forms and their failures.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { isMaphistError } from '../core/errors.js';
import { readChangesets, type ChangesetRecord } from '../io/changesets/open-changesets.js';
import { createDuckDbServer as createServer } from '../testing/server.js';
import { TEST_DATA, TESTCASES_DIR } from '../testing/test-data.js';
import { importChangesets } from './changesets.js';
import { importHistory } from './import-history.js';
import { openStore } from './open-store.js';
import { queryStore } from './test-support.js';

const DUMP = join(TEST_DATA, 'changesets', 'handmade-changesets.osm');
const HISTORY = join(TESTCASES_DIR, 'handmade', 'history-small.osh.pbf');
const MAIN = join(process.cwd(), 'dist', 'src', 'cli', 'main.js');

async function all(path: string): Promise<ChangesetRecord[]> {
  const out: ChangesetRecord[] = [];
  for await (const batch of readChangesets(path)) out.push(...batch);
  return out;
}

const query = queryStore;

async function failsWith(p: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  await assert.rejects(p, (e) => isMaphistError(e) && e.code === code && (message === undefined || message.test(e.message)));
}

describe('changesets', () => {
  let dir: string;
  let db: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'maphist-changesets-'));
    db = join(dir, 'h.duckdb');
    await importHistory({ input: HISTORY, db, changesets: DUMP });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the reader: plain, gzip and bzip2 give the same 13 changesets, with tags, missing fields as null', async () => {
    const plain = await all(DUMP);
    assert.equal(plain.length, 13);
    assert.deepEqual(await all(`${DUMP}.gz`), plain);
    assert.deepEqual(await all(`${DUMP}.bz2`), plain);
    const five = plain.find((c) => c.id === 5)!;
    assert.deepEqual(five.tags, ['comment', 'removed the "bench" (it\'s gone) – Straße, 東京']);
    assert.equal(five.commentsCount, 1);
    const eight = plain.find((c) => c.id === 8)!;
    assert.deepEqual([eight.userId, eight.userName, eight.bbox, eight.tags], [null, null, null, []]);
    const nine = plain.find((c) => c.id === 9)!;
    assert.deepEqual([nine.open, nine.closedAt], [true, null]);
    assert.deepEqual(plain.find((c) => c.id === 1)!.bbox, [8, 49, 8.002, 49.001]);
  });

  it('import --changesets keeps the 11 the history references; the view gives each contribution its changeset tags', async () => {
    const rows = await query<{ id: bigint }>(db, 'SELECT id FROM changesets ORDER BY id');
    assert.deepEqual(
      rows.map((r) => Number(r.id)),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 21],
    );
    // Every column as the dump has it: times, open flag, user, counts, bbox; NULLs where it has none.
    const cols =
      'id::INTEGER AS id, created_at::VARCHAR AS created_at, closed_at::VARCHAR AS closed_at, open, user_id, user_name, num_changes, comments_count, min_lon, min_lat, max_lon, max_lat, tags';
    assert.deepEqual(await query(db, `SELECT ${cols} FROM changesets WHERE id IN (1, 8, 9) ORDER BY id`), [
      {
        id: 1,
        created_at: '2019-12-31 23:50:00',
        closed_at: '2020-01-01 00:10:00',
        open: false,
        user_id: 1,
        user_name: 'alice',
        num_changes: 6,
        comments_count: 0,
        min_lon: 8,
        min_lat: 49,
        max_lon: 8.002,
        max_lat: 49.001,
        tags: [
          { key: 'comment', value: 'A house and a bench #mapathon' },
          { key: 'created_by', value: 'JOSM/1.5 (15806 en)' },
          { key: 'hashtags', value: '#mapathon' },
        ],
      },
      {
        id: 8,
        created_at: '2020-08-01 00:00:00',
        closed_at: '2020-08-01 00:01:00',
        open: false,
        user_id: null,
        user_name: null,
        num_changes: 2,
        comments_count: 0,
        min_lon: null,
        min_lat: null,
        max_lon: null,
        max_lat: null,
        tags: [],
      },
      {
        id: 9,
        created_at: '2020-09-01 00:00:00',
        closed_at: null,
        open: true,
        user_id: 1,
        user_name: 'alice',
        num_changes: 1,
        comments_count: 0,
        min_lon: 8.01,
        min_lat: 49.01,
        max_lon: 8.012,
        max_lat: 49.012,
        tags: [{ key: 'comment', value: 'meadow' }],
      },
    ]);
    const tagged = await query<{ changeset: bigint; changeset_tags: { key: string; value: string }[] }>(
      db,
      `SELECT DISTINCT changeset, changeset_tags FROM contributions WHERE type = 'relation' ORDER BY changeset`,
    );
    assert.deepEqual(
      tagged.map((r) => [Number(r.changeset), r.changeset_tags]),
      [
        [9, [{ key: 'comment', value: 'meadow' }]],
        [20, [{ key: 'comment', value: 'grass' }]],
      ],
    );
    // Only the states of the anonymous changeset 8, which has no tags, have none.
    const [{ empty, eight }] = await query<{ empty: number; eight: number }>(
      db,
      'SELECT count(*) FILTER (WHERE cardinality(changeset_tags) = 0)::INTEGER AS empty, count(*) FILTER (WHERE changeset = 8)::INTEGER AS eight FROM contributions',
    );
    assert.ok(eight > 0);
    assert.equal(empty, eight);
  });

  it('changesets import --all keeps every changeset; a second load replaces the first', async () => {
    const copy = join(dir, 'all.duckdb');
    await importHistory({ input: HISTORY, db: copy });
    assert.deepEqual(await query(copy, 'SELECT * FROM changesets'), []);
    const r = await importChangesets(copy, `${DUMP}.gz`, { all: true });
    assert.deepEqual(r, { read: 13, kept: 13, missing: 0 });
    const again = await importChangesets(copy, DUMP);
    assert.deepEqual(again, { read: 13, kept: 11, missing: 0 });
    const [{ n }] = await query<{ n: number }>(copy, 'SELECT count(*)::INTEGER AS n FROM changesets');
    assert.equal(n, 11);
  });

  it('a truncated dump fails with INPUT_TRUNCATED, a repeated or malformed id with INPUT_CORRUPT, and the store stays as it was; a history file is not a dump', async () => {
    const before = await query(db, 'SELECT id, tags FROM changesets ORDER BY id');
    await failsWith(importChangesets(db, join(TEST_DATA, 'changesets', 'truncated-changesets.osm.bz2')), 'INPUT_TRUNCATED');
    assert.deepEqual(await query(db, 'SELECT id, tags FROM changesets ORDER BY id'), before);
    await failsWith(importChangesets(db, join(TESTCASES_DIR, 'handmade', 'history-small.osh')), 'INPUT_NOT_OSM', /map data/);
    await failsWith(importChangesets(db, HISTORY), 'INPUT_NOT_OSM', /PBF/);
    const cut = join(dir, 'cut.osm');
    writeFileSync(cut, '<?xml version="1.0"?>\n<osm version="0.6">\n <changeset id="1" created_at="2020-01-01T00:00:00Z" open="false">');
    await failsWith(importChangesets(db, cut), 'INPUT_TRUNCATED');
    const twice = join(dir, 'twice.osm');
    const one = '<changeset id="1" created_at="2020-01-01T00:00:00Z" closed_at="2020-01-01T00:01:00Z" open="false"/>';
    writeFileSync(twice, `<?xml version="1.0"?>\n<osm version="0.6">\n ${one}\n ${one}\n</osm>\n`);
    await failsWith(importChangesets(db, twice), 'INPUT_CORRUPT', /1 changeset ids more than once/);
    const badId = join(dir, 'bad-id.osm');
    writeFileSync(badId, '<?xml version="1.0"?>\n<osm version="0.6">\n <changeset id="x1" created_at="2020-01-01T00:00:00Z" open="false"/>\n</osm>\n');
    await failsWith(importChangesets(db, badId), 'INPUT_CORRUPT', /line 3/);
    assert.deepEqual(await query(db, 'SELECT id, tags FROM changesets ORDER BY id'), before);
  });

  it('import --changesets is atomic: a dump cut off after the history import fails it and leaves the old database and no temporary files', async () => {
    const target = join(dir, 'atomic', 'a.duckdb');
    mkdirSync(join(dir, 'atomic'));
    await importHistory({ input: HISTORY, db: target, changesets: DUMP });
    const before = await query(target, 'SELECT id, tags FROM changesets ORDER BY id');
    assert.equal(before.length, 11);
    const text = readFileSync(DUMP, 'utf8');
    const cut = join(dir, 'cut-late.osm');
    // Cut inside changeset 7: the check before the history import sees changeset 1 and passes.
    writeFileSync(cut, text.slice(0, text.indexOf('<changeset id="7"') + 20));
    await failsWith(importHistory({ input: HISTORY, db: target, changesets: cut, allChangesets: true }), 'INPUT_TRUNCATED');
    assert.deepEqual(await query(target, 'SELECT id, tags FROM changesets ORDER BY id'), before);
    assert.deepEqual(readdirSync(join(dir, 'atomic')), ['a.duckdb']);
  });

  it('import --changesets checks the dump before it reads the history: a missing or wrong dump fails first', async () => {
    const target = join(dir, 'never.duckdb');
    const noHistory = join(dir, 'no-history.osh.pbf');
    await failsWith(importHistory({ input: noHistory, db: target, changesets: join(dir, 'no-dump.osm.bz2') }), 'INPUT_NOT_FOUND', /no-dump/);
    await failsWith(
      importHistory({ input: noHistory, db: target, changesets: join(TESTCASES_DIR, 'handmade', 'history-small.osh') }),
      'INPUT_NOT_OSM',
      /map data/,
    );
    await failsWith(importHistory({ input: noHistory, db: target, changesets: DUMP }), 'INPUT_NOT_FOUND', /no-history/);
    assert.equal(existsSync(target), false);
  });

  it('v2 contributions.parquet carries the changeset tags', async () => {
    const store = await openStore(db);
    const app = await createServer(store);
    try {
      const base = await app.listen({ port: 0, host: '127.0.0.1' });
      const res = await fetch(`${base}/v2-rc/extraction/contributions.parquet`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ aoi: [7.9, 48.9, 8.1, 49.1], filter: 'amenity=*', time: { start: '2020-01-01T00:00:00Z', end: '2020-12-31T00:00:00Z' } }),
      });
      assert.equal(res.status, 200);
      const rows = (await parquetReadObjects({ file: await res.arrayBuffer(), compressors })) as {
        changeset_id: bigint;
        changeset_tags: Record<string, string>;
      }[];
      const byChangeset = new Map(rows.map((r) => [Number(r.changeset_id), r.changeset_tags]));
      assert.deepEqual(byChangeset.get(1), { comment: 'A house and a bench #mapathon', created_by: 'JOSM/1.5 (15806 en)', hashtags: '#mapathon' });
      assert.deepEqual(byChangeset.get(5), { comment: 'removed the "bench" (it\'s gone) – Straße, 東京' });
    } finally {
      await app.close();
      store.close();
    }
  });

  it('the CLI: import --changesets and changesets import, with their summary lines and exit codes', () => {
    const cli = join(dir, 'cli.duckdb');
    const run = (...args: string[]) => spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8' });
    const imported = run('import', HISTORY, '--db', cli, '--changesets', `${DUMP}.bz2`);
    assert.equal(imported.status, 0, imported.stderr);
    assert.match(imported.stdout, /changesets from .*: 13 read, 11 kept/);
    const loaded = run('changesets', 'import', DUMP, '--db', cli, '--all');
    assert.equal(loaded.status, 0, loaded.stderr);
    assert.match(loaded.stdout, /13 read, 13 kept/);
    assert.equal(run('changesets', 'import', join(dir, 'nope.osm'), '--db', cli).status, 3);
    assert.equal(run('changesets', 'import', join(TESTCASES_DIR, 'handmade', 'history-small.osh'), '--db', cli).status, 4);
    assert.equal(run('changesets', 'import', DUMP, '--db', join(dir, 'no-such.duckdb')).status, 7);
    const missingDump = run('import', HISTORY, '--db', join(dir, 'cli-2.duckdb'), '--changesets', join(dir, 'nope.osm.bz2'));
    assert.equal(missingDump.status, 3);
    assert.match(missingDump.stderr, /nope\.osm\.bz2 does not exist/);
    assert.equal(existsSync(join(dir, 'cli-2.duckdb')), false);
    assert.equal(run('changesets', 'import', join(TEST_DATA, 'changesets', 'truncated-changesets.osm.bz2'), '--db', cli).status, 5);
    assert.equal(run('changesets', 'load', DUMP).status, 2);
    assert.equal(run('import', HISTORY, '--db', cli, '--all-changesets').status, 2);
  });
});
