/**
 * The version 1 and version 2 golden requests (src/api/v1/golden/cases.ts, src/api/v2/golden/cases.ts:
 * answers pinned from the DuckDB engine and its oracles; GeoParquet bodies as their summary) answered
 * by the server over the ClickHouse engine: the bundled sample imported into
 * DuckDB, loaded by the loader, served from ClickHouse alone. On chDB in `npm test`; on the two-shard
 * clickhouse-server cluster where it is installed (`.ci/run`). The answers must be the golden files'
 * byte for byte (execution time and timestamps normalized, as golden.test.ts does).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../api/server.js';
import { GOLDEN_CASES } from '../api/v1/golden/cases.js';
import { normalize, readGolden, sendGet } from '../api/v1/golden/support.js';
import { V2_GOLDEN_CASES } from '../api/v2/golden/cases.js';
import { readGolden as readV2Golden, send as sendV2 } from '../api/v2/golden/support.js';
import { createStoreHandle, type StoreHandle } from '../query/generations.js';
import { importToTemp, type ImportedDb } from '../store/test-support.js';
import { storeExport } from '../engines/duckdb/store-export.js';
import { chdbConnection } from '../engines/clickhouse/chdb-connection.js';
import type { ClickHouseConnection } from '../engines/clickhouse/connection.js';
import { openClickHouseGeneration } from '../engines/clickhouse/engines.js';
import { ClickHouseHttp } from '../engines/clickhouse/http-client.js';
import { loadIntoClickHouse } from '../engines/clickhouse/load.js';
import { HAVE_CLICKHOUSE, startTestCluster } from '../engines/clickhouse/test-cluster.js';

function describeGolden(name: string, connect: (db: ImportedDb) => Promise<{ connection: ClickHouseConnection; database: string; stop(): void }>) {
  describe(`v1 and v2 golden answers from ClickHouse (${name})`, () => {
    let db: ImportedDb;
    let app: FastifyInstance;
    let handle: StoreHandle;
    let base: string;
    let stop = () => undefined as void;
    before(async () => {
      db = await importToTemp(join(process.cwd(), 'sample', 'andorra.osh.pbf'));
      const target = await connect(db);
      stop = target.stop;
      handle = createStoreHandle(await openClickHouseGeneration(target.connection, target.database));
      app = await buildApp({ store: handle, config: { timeoutSeconds: 100, answerCacheBytes: 0 } });
      base = await app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(async () => {
      await app?.close();
      await handle?.close();
      stop();
      db?.dispose();
    });

    for (const c of GOLDEN_CASES) {
      it(c.name, async () => {
        const golden = readGolden(c);
        const got = await sendGet(base, c);
        assert.equal(got.status, golden.status);
        assert.equal(got.contentType, golden.contentType);
        assert.equal(normalize(got.body, base), golden.body);
      });
    }
    for (const c of V2_GOLDEN_CASES) {
      it(`v2 ${c.name}`, async () => {
        const golden = readV2Golden(c);
        const a = await sendV2(base, c);
        assert.equal(a.status, golden.status);
        assert.equal(a.contentType, golden.contentType);
        assert.deepEqual(a.headers, golden.headers);
        assert.equal(a.body, golden.body);
      });
    }
  });
}

describeGolden('chDB', async (db) => {
  const connection = await chdbConnection();
  const database = 'golden_v1';
  await loadIntoClickHouse(storeExport(db.store), { connections: [connection], database });
  return { connection, database, stop: () => void connection.text(`DROP DATABASE IF EXISTS ${database}`) };
});

if (HAVE_CLICKHOUSE) {
  describeGolden('two shards, clickhouse-server', async (db) => {
    const { urls, stop } = startTestCluster('golden');
    try {
      await loadIntoClickHouse(storeExport(db.store), { urls });
      return { connection: new ClickHouseHttp({ url: urls[0] }), database: 'maphist', stop };
    } catch (e) {
      stop();
      throw e;
    }
  });
}
