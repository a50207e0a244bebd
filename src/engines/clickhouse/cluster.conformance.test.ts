/**
 * The ClickHouse engine against the engine conformance suite on a real two-shard cluster of Debian's
 * clickhouse-server (18.16) on loopback (scripts/clickhouse-cluster.sh; skipped where it is not
 * installed — `.ci/run` installs it): each fixture imported into DuckDB, loaded by the loader into
 * both shards (every element's states on one shard) with the Distributed table on the entry node,
 * and served by the ClickHouse engine from the entry node. Every case, as on chDB (chdb.conformance.test.ts).
 */
import { join } from 'node:path';
import { describeEngineConformance, type StoreFixture } from '../conformance/conformance.js';
import { importHistory } from '../../store/import-history.js';
import { openStore } from '../../store/open-store.js';
import { storeExport } from '../duckdb/store-export.js';
import { createClickHouseEngines } from './engines.js';
import { ClickHouseHttp } from './http-client.js';
import { loadIntoClickHouse } from './load.js';
import { HAVE_CLICKHOUSE, startTestCluster } from './test-cluster.js';

async function clusterEngines(fixture: StoreFixture) {
  const { urls, dir, stop } = startTestCluster(`cluster-conformance-${fixture.name}`);
  try {
    const db = join(dir, 'store.duckdb');
    await importHistory({ input: fixture.history, db, workers: 1, ...(fixture.changesets ? { changesets: fixture.changesets } : {}) });
    const store = await openStore(db);
    try {
      await loadIntoClickHouse(storeExport(store), { urls });
    } finally {
      store.close();
    }
    const engines = await createClickHouseEngines(new ClickHouseHttp({ url: urls[0] }));
    return { ...engines, close: stop };
  } catch (e) {
    stop();
    throw e;
  }
}

if (HAVE_CLICKHOUSE) describeEngineConformance('ClickHouse (two shards, clickhouse-server)', clusterEngines);
