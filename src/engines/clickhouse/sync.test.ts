/**
 * `maphist clickhouse sync` (sync.ts): a ClickHouse store loaded from the first part of a history,
 * then synced after each of two updates of its DuckDB store (the rest of the history as two change
 * files), answers every conformance case of the whole history as its golden (the oracles' answers,
 * testdata/conformance/): the partial reload gives what a full import and load would. Only the
 * touched elements are sent; a sync with nothing new changes nothing; row ids stay unique; a store
 * imported again is refused. On chDB, and on the two-shard cluster where clickhouse-server is installed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importHistory } from '../../store/import-history.js';
import { applyChanges } from '../../store/apply-changes.js';
import { openStore, type Store } from '../../store/open-store.js';
import { splitHistory } from '../../testing/split-history.js';
import { compareAnswers, runCase } from '../conformance/answers.js';
import { CASES, FIXTURES } from '../conformance/cases.js';
import { readGolden } from '../conformance/goldens.js';
import { storeExport } from '../duckdb/store-export.js';
import { chdbConnection } from './chdb-connection.js';
import type { ClickHouseConnection } from './connection.js';
import { createClickHouseEngines } from './engines.js';
import { ClickHouseHttp } from './http-client.js';
import { loadIntoClickHouse, type LoadOptions } from './load.js';
import { syncClickHouse } from './sync.js';
import { HAVE_CLICKHOUSE, startTestCluster } from './test-cluster.js';

const FIXTURE = FIXTURES['andorra-small']!;
const epoch = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000;

interface Target {
  /** The load options naming the servers (and the database). */
  options: LoadOptions;
  entry: ClickHouseConnection;
  database: string;
  stop(): void;
}

function describeSync(name: string, start: (dir: string) => Promise<Target>) {
  describe(`maphist clickhouse sync (${name})`, { timeout: 900_000 }, () => {
    let dir: string;
    let target: Target;
    let db: string;
    let changes: string[];
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'maphist-ch-sync-'));
      const history = join(dir, 'part1.osh.pbf');
      changes = [join(dir, 'part2.osc.gz'), join(dir, 'part3.osc.gz')];
      await splitHistory({ input: FIXTURE.history, history, changes, cuts: [epoch('2016-06-01'), epoch('2016-09-01')] });
      db = join(dir, 'store.duckdb');
      await importHistory({ input: history, db, workers: 1 });
      target = await start(dir);
    });
    after(() => {
      target?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    const withStore = async <T>(f: (store: Store) => Promise<T>): Promise<T> => {
      const store = await openStore(db, { readOnly: true });
      try {
        return await f(store);
      } finally {
        store.close();
      }
    };
    const chNumber = async (sql: string) => Number((await target.entry.rows(sql))[0]![0]);
    const states = () => (target.options.connections ? `${target.database}.states` : `${target.database}.states_all`);

    it('loads the first part, then reloads only what each update touched', async () => {
      await withStore((store) => loadIntoClickHouse(storeExport(store), target.options));
      const loadedRows = await chNumber(`SELECT count() FROM ${states()}`);
      for (const [k, change] of changes.entries()) {
        await applyChanges({ db, changes: [change] });
        const summary = await withStore((store) => syncClickHouse(store, target.options));
        assert.equal(summary.from, k);
        assert.equal(summary.to, k + 1);
        assert.ok(summary.elements > 0, 'the update touched elements');
        const total = summary.load!.statesPerShard.reduce((a, b) => a + b, 0);
        const duckRows = await withStore(async (store) => store.metadata.rows);
        assert.ok(total < duckRows / 2, `${total} states sent of ${duckRows}`);
        assert.equal(await chNumber(`SELECT count() FROM ${states()}`), duckRows, 'as many states as the store');
      }
      assert.ok(loadedRows > 0);
      assert.equal(await chNumber(`SELECT count() - uniqExact(rid) FROM ${states()}`), 0, 'every rid once');
      const again = await withStore((store) => syncClickHouse(store, target.options));
      assert.deepEqual([again.from, again.to, again.elements], [2, 2, 0]);
    });

    for (const c of CASES.filter((x) => x.fixture === FIXTURE.name)) {
      it(`then answers ${c.id} as the whole history's golden`, async () => {
        const engines = await createClickHouseEngines(target.entry, { database: target.database });
        const golden = readGolden(c);
        const differences = compareAnswers(c, await runCase(engines, c), golden.answer);
        assert.deepEqual(differences, [], `${c.id} (${golden.source}):\n${differences.join('\n')}`);
      });
    }

    it('refuses a store imported again (its updates are numbered anew)', async () => {
      const other = join(dir, 'other.duckdb');
      await importHistory({ input: FIXTURE.history, db: other, workers: 1 });
      const store = await openStore(other, { readOnly: true });
      try {
        await assert.rejects(syncClickHouse(store, target.options), /holds another import/);
      } finally {
        store.close();
      }
    });
  });
}

describeSync('chDB', async () => {
  const connection = await chdbConnection();
  const database = 'sync_test';
  return {
    options: { connections: [connection], database },
    entry: connection,
    database,
    stop: () => void connection.text(`DROP DATABASE IF EXISTS ${database}`),
  };
});

if (HAVE_CLICKHOUSE) {
  describeSync('two shards, clickhouse-server', async () => {
    const { urls, stop } = startTestCluster('sync');
    return { options: { urls }, entry: new ClickHouseHttp({ url: urls[0]! }), database: 'maphist', stop };
  });
}
