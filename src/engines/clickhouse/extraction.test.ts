/**
 * Version 1 extraction on ClickHouse against the DuckDB engine on the conformance suite's cut of
 * Andorra la Vella (testdata/conformance/andorra-small.osh.pbf), on chDB and on the two-shard 18.16
 * cluster (scripts/clickhouse-cluster.sh; skipped where clickhouse-server is not installed): the
 * ClickHouse engine cut into many id batches (a small `batchRows`: the cuts of sql/extraction.ts
 * `idCutsSql`, each batch's version facts and candidates) gives exactly the features, in the same
 * order, that DuckDB gives in one batch, for every kind of extraction. The conformance suite's
 * stores fit one batch, so it never cuts.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseFilter } from '../../filter/index.js';
import type { ExtractedFeature, ExtractionQuery } from '../../query/extraction.js';
import type { AreaOfInterest } from '../../query/model.js';
import { epoch, importToTemp, TEST_DATA, type ImportedDb } from '../../store/test-support.js';
import { createSqlExtractionEngine, type ExtractionSql } from '../common/extraction.js';
import { createDuckDbExtractionEngine } from '../duckdb/extraction.js';
import { storeExport } from '../duckdb/store-export.js';
import { chdbConnection } from './chdb-connection.js';
import { openClickHouseStore, type ClickHouseStore } from './engine.js';
import { clickHouseExtractionSql } from './extraction.js';
import { ClickHouseHttp } from './http-client.js';
import { loadIntoClickHouse } from './load.js';
import { SKIP_WITHOUT_CLICKHOUSE, startTestCluster, type TestCluster } from './test-cluster.js';

let db: ImportedDb;
before(async () => {
  db = await importToTemp(join(TEST_DATA, 'conformance', 'andorra-small.osh.pbf'));
});
after(() => db?.dispose());

/** A pentagon in the cut (1.515,42.502,1.530,42.512): boundary rows are clipped. */
const pentagon: AreaOfInterest = {
  id: 'pentagon',
  bbox: [1.516, 42.503, 1.529, 42.511],
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [1.516, 42.503],
        [1.529, 42.504],
        [1.528, 42.511],
        [1.52, 42.5105],
        [1.516, 42.503],
      ],
    ],
  },
};

async function all(features: AsyncIterable<ExtractedFeature>): Promise<ExtractedFeature[]> {
  const out: ExtractedFeature[] = [];
  for await (const f of features) out.push(f);
  return out;
}

const query = (kind: ExtractionQuery['kind'], timestamps: string[], filter: string, clipGeometry = true): ExtractionQuery => ({
  kind,
  areas: [pentagon],
  timestamps: timestamps.map(epoch),
  filter: parseFilter(filter, { version: 1 }),
  clipGeometry,
});

const CASES: [string, ExtractionQuery][] = [
  ['snapshot', query('snapshot', ['2012-01-01T00:00:00Z', '2015-01-01T00:00:00Z', '2018-01-01T00:00:00Z'], 'building=* or highway=* or amenity=*')],
  ['fullHistory', query('fullHistory', ['2010-01-01T00:00:00Z', '2018-01-01T00:00:00Z'], 'type:way or type:relation', false)],
  ['contributions', query('contributions', ['2012-01-01T00:00:00Z', '2018-01-01T00:00:00Z'], 'building=* or highway=*')],
  ['latestContributions', query('latestContributions', ['2010-01-01T00:00:00Z', '2018-01-01T00:00:00Z'], 'building=* or highway=* or natural=*')],
];

function describeBatches(chStore: () => ClickHouseStore): void {
  for (const [name, q] of CASES) {
    test(`${name}: ClickHouse in many id batches gives DuckDB's features in DuckDB's order`, async () => {
      const expected = await all((await createDuckDbExtractionEngine(db.store)).extract(q));
      const sql = await clickHouseExtractionSql(chStore());
      const cuts: number[][] = [];
      const counting: ExtractionSql = {
        ...sql,
        // The cuts each type's batches come from (idCutsSql's one column).
        records: async (st, signal) => {
          const rows = await sql.records(st, signal);
          if (st.columns.length === 1 && st.columns[0] === 'cuts') cuts.push((rows[0] as { cuts: number[] }).cuts);
          return rows;
        },
      };
      const got = await all(createSqlExtractionEngine(counting, { batchRows: 100 }).extract(q));
      assert.ok(expected.length > 300, `${expected.length} features: too few to cut`);
      const batches = cuts.reduce((n, c) => n + c.length + 1, 0);
      assert.ok(batches >= 4, `${batches} batches (cuts ${JSON.stringify(cuts)})`);
      assert.equal(got.length, expected.length);
      assert.deepEqual(got, expected);
    });
  }
}

describe('ClickHouse extraction in id batches (chDB)', () => {
  const database = 'extraction_batches';
  let store: ClickHouseStore;
  before(async () => {
    const connection = await chdbConnection();
    await loadIntoClickHouse(storeExport(db.store), { connections: [connection], database });
    store = await openClickHouseStore(connection, database);
  });
  after(async () => {
    await store?.connection.text(`DROP DATABASE IF EXISTS ${database}`);
  });
  describeBatches(() => store);
});

describe('ClickHouse extraction in id batches (two shards, clickhouse-server)', {
  skip: SKIP_WITHOUT_CLICKHOUSE,
}, () => {
  let cluster: TestCluster | undefined;
  let store: ClickHouseStore;
  before(async () => {
    cluster = startTestCluster('extraction');
    const urls = cluster.urls;
    await loadIntoClickHouse(storeExport(db.store), { urls });
    store = await openClickHouseStore(new ClickHouseHttp({ url: urls[0] }));
  });
  after(() => cluster?.stop());
  describeBatches(() => store);
});
