/**
 * `maphist import --memory-limit`: how the budget is shared (import-memory.ts), that the store does
 * not depend on it, and DuckDB running out of its share as IMPORT_OUT_OF_MEMORY.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { DEFAULT_HISTORY_CACHES } from '../history/build-history.js';
import { DEFAULT_IMPORT_MEMORY_BYTES, importMemoryPlan, importOutOfMemory, MIN_IMPORT_MEMORY_BYTES } from './import-memory.js';
import { importHistory } from './import-history.js';
import { queryStore, TEST_DATA } from './test-support.js';
import { wholeWorldExtentSql } from './element-extent.js';
import { STORE_ROW_GROUP_SIZE } from './schema.js';

const MiB = 2 ** 20;
const mib = (limit: string) => Number(/^(\d+)MiB$/.exec(limit)![1]);

describe('import memory plan', () => {
  it('gives at the default budget about the sizes used before the budget existed', () => {
    const plan = importMemoryPlan();
    assert.equal(plan.finishBytes, importMemoryPlan(DEFAULT_IMPORT_MEMORY_BYTES).finishBytes);
    // 512 MB staging, 1,536 MB finish, the builder's default caches: each within 10 %.
    assert.ok(Math.abs(mib(plan.stagingLimit) * MiB - 512e6) / 512e6 < 0.1, plan.stagingLimit);
    assert.ok(Math.abs(plan.finishBytes - 1536e6) / 1536e6 < 0.1, String(plan.finishBytes));
    for (const k of ['nodeCacheBytes', 'relationPhaseNodeCacheBytes', 'wayCacheBytes'] as const) {
      assert.ok(Math.abs(plan.caches[k] - DEFAULT_HISTORY_CACHES[k]) / DEFAULT_HISTORY_CACHES[k] < 0.1, k);
    }
  });

  it("shrinks every share with the budget and grows none past its cap but the finish's", () => {
    const small = importMemoryPlan(MIN_IMPORT_MEMORY_BYTES);
    const large = importMemoryPlan(64e9);
    const defaults = importMemoryPlan();
    assert.ok(mib(small.stagingLimit) < mib(defaults.stagingLimit));
    assert.ok(small.finishBytes < defaults.finishBytes);
    assert.ok(small.caches.nodeCacheBytes < defaults.caches.nodeCacheBytes);
    assert.ok(small.caches.wayCacheBytes < defaults.caches.wayCacheBytes);
    // The finish keeps its share: fewer sort passes, each of which reads every staged row.
    assert.equal(large.finishBytes, Math.floor((64e9 * 0.4) / MiB) * MiB);
    assert.equal(large.sortPassBytes, large.finishBytes / 2);
    assert.equal(large.stagingLimit, '512MiB');
    assert.equal(large.caches.nodeCacheBytes, 256 * MiB);
    // DuckDB's share of the finish never falls below what sorted the four-country file (bench/RESULTS.md).
    assert.ok(small.finishBytes >= 512 * MiB, String(small.finishBytes));
    // The shares that live at once in the build stay well inside the smallest budget.
    const build = mib(small.stagingLimit) * MiB + small.caches.nodeCacheBytes + small.caches.wayCacheBytes;
    assert.ok(build < MIN_IMPORT_MEMORY_BYTES / 3, String(build));
  });
});

describe('import within the smallest budget', () => {
  const dir = mkdtempSync(join(tmpdir(), 'maphist-import-memory-'));
  const input = join(TEST_DATA, 'history', 'maldives.osh.pbf');
  const TABLES = ['states', 'relation_members', 'way_nodes', 'current_parents', 'tag_keys', 'tag_values', 'users'];
  // Row count and a sum of hashes of each row with its rowid: the same rows in the same order. The rows of
  // elements whose extent is the whole world (15 in the Maldives) come last, in an order the finish leaves
  // open when it sorts in several passes (finalize-sql.ts), so their rowid is left out of the hash
  // (`inOrder`: it is in, for imports sorted in one pass).
  const digest = async (db: string, inOrder = false) =>
    Promise.all(
      TABLES.map(async (t) =>
        queryStore<{ n: bigint; h: bigint }>(
          db,
          `SELECT count(*) AS n, sum(hash(x, ${t === 'states' && !inOrder ? `CASE WHEN ${wholeWorldExtentSql('x.')} THEN NULL ELSE rowid END` : 'rowid'})) AS h FROM ${t} x`,
        ),
      ),
    );
  let atMinimum: { n: bigint; h: bigint }[][];
  let atDefault: { n: bigint; h: bigint }[][];
  let inPasses: { n: bigint; h: bigint }[][];
  let spilled: { n: bigint; h: bigint }[][];
  let passesInMemory: { n: bigint; h: bigint }[][];
  let onePass: { n: bigint; h: bigint }[][][];
  before(async () => {
    await importHistory({ input, db: join(dir, 'min.duckdb'), memoryBytes: MIN_IMPORT_MEMORY_BYTES });
    await importHistory({ input, db: join(dir, 'default.duckdb') });
    // The Maldives' staged rows are about 40 MB: sorted in passes of 4 MB, about ten ranges of spatial keys.
    await importHistory({ input, db: join(dir, 'passes.duckdb'), memoryPlan: { ...importMemoryPlan(MIN_IMPORT_MEMORY_BYTES), sortPassBytes: 4e6 } });
    atMinimum = await digest(join(dir, 'min.duckdb'));
    atDefault = await digest(join(dir, 'default.duckdb'));
    // The Maldives' rows fit one sort pass, so the staging tables are in memory (store-writer-worker.ts;
    // the passes of 4 MB above staged them in a file). With a staging limit of 48 MiB DuckDB must
    // evict their blocks to the work directory (its temporary files reached 68 MB, measured), or the import
    // fails out of memory. (The limit must hold one flush of the appenders: at 32 MiB a flush's commit failed.)
    await importHistory({ input, db: join(dir, 'spilled.duckdb'), memoryPlan: { ...importMemoryPlan(MIN_IMPORT_MEMORY_BYTES), stagingLimit: '48MiB' } });
    // The same passes from in-memory staging: what an input whose size misleads `stagedBytesEstimate` gets.
    await importHistory({
      input,
      db: join(dir, 'passes-in-memory.duckdb'),
      memoryPlan: { ...importMemoryPlan(MIN_IMPORT_MEMORY_BYTES), sortPassBytes: 4e6 },
      staging: 'memory',
    });
    inPasses = await digest(join(dir, 'passes.duckdb'));
    spilled = await digest(join(dir, 'spilled.duckdb'));
    passesInMemory = await digest(join(dir, 'passes-in-memory.duckdb'));
    // One sort pass, staged in a file (the others above that sorted in one pass staged in memory).
    await importHistory({ input, db: join(dir, 'file.duckdb'), staging: 'file' });
    onePass = await Promise.all(['min', 'default', 'spilled', 'file'].map((name) => digest(join(dir, `${name}.duckdb`), true)));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the same store as the default budget, row for row', () => {
    assert.ok(atDefault[0]![0]!.n > 100_000n, 'the states of the Maldives');
    assert.deepEqual(atMinimum, atDefault);
  });

  it('writes the same rows in the same order when the finish sorts them in many passes', () => {
    assert.deepEqual(inPasses, atDefault);
    assert.deepEqual(passesInMemory, atDefault);
  });

  it('stages more rows than its staging limit holds, and writes the same store', () => {
    assert.deepEqual(spilled, atDefault);
  });

  it("cuts the tables in row groups of STORE_ROW_GROUP_SIZE rows, not DuckDB's default", async () => {
    // Finer zone maps and more scan tasks for the two cores (store-writer-worker.ts); in DuckDB's default
    // size the largest of the three for the Maldives' 288,124 states would hold 122,880.
    const [groups] = await queryStore<{ n: bigint; largest: bigint }>(
      join(dir, 'default.duckdb'),
      `SELECT count(*) AS n, max(count) AS largest FROM (SELECT row_group_id, max(count) AS count FROM pragma_storage_info('states') GROUP BY row_group_id)`,
    );
    assert.ok(groups!.n > 1n, String(groups!.n));
    assert.equal(groups!.largest, BigInt(STORE_ROW_GROUP_SIZE));
  });

  it('writes every row in the same place when one pass sorts them all, staged in memory or in a file', () => {
    // The whole-world rows too: one INSERT sorts them last, by spatial key (finalize-sql.ts). Before,
    // a second INSERT wrote them in its join's order, which differed between the two stagings.
    for (const other of onePass.slice(1)) assert.deepEqual(other, onePass[0]);
  });
});

describe('IMPORT_OUT_OF_MEMORY', () => {
  it("names DuckDB's failure and the budget to raise", async () => {
    // A real out-of-memory failure: a sort far larger than a 2 MB buffer pool with nowhere to spill.
    const instance = await DuckDBInstance.create(':memory:', { memory_limit: '2MB', temp_directory: '' });
    const con = await instance.connect();
    let failure: unknown;
    try {
      await con.run('SELECT i, md5(i::VARCHAR) AS m FROM range(2000000) t(i) ORDER BY m');
    } catch (e) {
      failure = e;
    } finally {
      con.closeSync();
      instance.closeSync();
    }
    assert.ok(failure instanceof Error, 'DuckDB ran out of memory');
    const coded = importOutOfMemory(new Error(`store writer: ${(failure as Error).message}`), 2e9, 'the previous database is unchanged');
    assert.equal(coded?.code, 'IMPORT_OUT_OF_MEMORY');
    assert.match(coded!.message, /budget of 2\.0 GB \(DuckDB: .*\); the previous database is unchanged\. .*--memory-limit/);
    assert.equal(importOutOfMemory(new Error('IO Error: No space left on device'), 2e9, ''), undefined);
  });
});
