/**
 * The ClickHouse engine against the engine conformance suite (src/engines/conformance/), on
 * ClickHouse embedded in the process (chDB, ClickHouse 26.7): each fixture imported into DuckDB,
 * loaded by `maphist clickhouse load`'s loader (load.ts) into its own database, and served by the
 * ClickHouse engine. The same suite runs against the two-shard 18.16 cluster in `.ci/run`
 * (cluster.conformance.test.ts).
 * Every case: nothing is left out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEngineConformance, type StoreFixture } from '../conformance/conformance.js';
import { importHistory } from '../../store/import-history.js';
import { openStore } from '../../store/open-store.js';
import { storeExport } from '../duckdb/store-export.js';
import { chdbConnection } from './chdb-connection.js';
import { createClickHouseEngines } from './engines.js';
import { loadIntoClickHouse } from './load.js';

async function chdbEngines(fixture: StoreFixture) {
  const dir = mkdtempSync(join(tmpdir(), `maphist-ch-conformance-${fixture.name}-`));
  const db = join(dir, 'store.duckdb');
  await importHistory({ input: fixture.history, db, workers: 1, ...(fixture.changesets ? { changesets: fixture.changesets } : {}) });
  const store = await openStore(db);
  const connection = await chdbConnection();
  const database = `conformance_${fixture.name.replace(/[^A-Za-z0-9_]/g, '_')}`;
  try {
    await loadIntoClickHouse(storeExport(store), { connections: [connection], database });
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const engines = await createClickHouseEngines(connection, { database });
  return {
    ...engines,
    async close() {
      await connection.text(`DROP DATABASE IF EXISTS ${database}`);
    },
  };
}

describeEngineConformance('ClickHouse (chDB)', chdbEngines);
