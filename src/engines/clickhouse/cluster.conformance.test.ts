/**
 * The ClickHouse engine against the engine conformance suite on a real two-shard cluster of Debian's
 * clickhouse-server (18.16) on loopback (scripts/clickhouse-cluster.sh; skipped where it is not
 * installed — `.ci/run` installs it): each fixture imported into DuckDB, loaded by the loader into
 * both shards (every element's states on one shard) with the Distributed table on the entry node,
 * and served by the ClickHouse engine from the entry node. Every case, as on chDB (chdb.conformance.test.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeEngineConformance, type StoreFixture } from '../conformance/conformance.js';
import { importHistory } from '../../store/import-history.js';
import { openStore } from '../../store/open-store.js';
import { storeExport } from '../duckdb/store-export.js';
import { createClickHouseEngines } from './engines.js';
import { ClickHouseHttp } from './http-client.js';
import { loadIntoClickHouse } from './load.js';

const SCRIPT = fileURLToPath(new URL('../../../../scripts/clickhouse-cluster.sh', import.meta.url));
const HAVE_CLICKHOUSE = spawnSync('sh', ['-c', 'command -v clickhouse-server'], { encoding: 'utf8' }).status === 0;

async function clusterEngines(fixture: StoreFixture) {
  const dir = mkdtempSync(join(tmpdir(), `maphist-ch-cluster-conformance-${fixture.name}-`));
  const env = { ...process.env, MAPHIST_CH_BASE_PORT: String(20000 + 2 * Math.floor(Math.random() * 4000)) };
  const stop = () => {
    spawnSync(SCRIPT, ['stop', join(dir, 'cluster')], { env });
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const db = join(dir, 'store.duckdb');
    await importHistory({ input: fixture.history, db, workers: 1, ...(fixture.changesets ? { changesets: fixture.changesets } : {}) });
    const urls = execFileSync(SCRIPT, ['start', join(dir, 'cluster')], { env, encoding: 'utf8' })
      .trim()
      .split('\n');
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
