/**
 * The ClickHouse store's primary index skips by the extent class and key ranges of an area
 * (src/engines/sql/spatial-key.ts): the Maldives history (islands spread over 8° of latitude)
 * loaded with 256 rows per index mark, on chDB (26.7) and on the two-shard 18.16 cluster
 * (where clickhouse-server is installed; .ci/run). The key test is a superset test: it keeps every
 * row whose bbox meets the box, and every state of an element one of whose states does (a
 * timeline's read), so counts with and without it are equal over many boxes; the loaded class and
 * key are the kernel's for each element's extent (`extentSortKey`); and a small box reads a small
 * part of the table (the rows read, from the statistics of ClickHouse's JSON output; the bbox test
 * alone reads all).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { extentSortKey } from '../../geometry/hilbert.js';
import type { BBox } from '../../geometry/types.js';
import { planArea } from '../../query/area-plan.js';
import { importToTemp, TEST_DATA, type ImportedDb } from '../../store/test-support.js';
import { storeExport } from '../duckdb/store-export.js';
import { areaSql, bboxIntersectsSql } from '../sql/area.js';
import { CLICKHOUSE_FLAVOR } from '../sql/flavor.js';
import { chdbConnection } from './chdb-connection.js';
import type { ClickHouseConnection } from './connection.js';
import { ClickHouseHttp } from './http-client.js';
import { loadIntoClickHouse } from './load.js';
import { geometriesByRidSql } from './sql/aggregation.js';
import { SKIP_WITHOUT_CLICKHOUSE, startTestCluster, type TestCluster } from './test-cluster.js';

const DATABASE = 'pruning_test';
const GRANULARITY = 256;

let db: ImportedDb;
before(async () => {
  db = await importToTemp(join(TEST_DATA, 'history', 'maldives.osh.pbf'));
});
after(() => db?.dispose());

const areaOf = (bbox: BBox) =>
  areaSql(
    planArea({
      id: 'b',
      bbox,
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [bbox[0], bbox[1]],
            [bbox[2], bbox[1]],
            [bbox[2], bbox[3]],
            [bbox[0], bbox[1]],
          ],
        ],
      },
    }),
    '',
    CLICKHOUSE_FLAVOR,
  );
const keyTest = (bbox: BBox) => areaOf(bbox).intersectsSql;
const elementKeyTest = (bbox: BBox) => {
  const sql = areaOf(bbox).elementKeySql;
  assert.ok(sql, 'ClickHouse has an element key test');
  return sql;
};

/**
 * The checks on a loaded store: `ch` the entry node, `table` its states (local or Distributed),
 * `settings` added to the statements that count rows read.
 */
function describePruning(loaded: () => { ch: ClickHouseConnection; table: string; settings: string }): void {
  const count = async (where: string) => Number((await loaded().ch.rows(`SELECT count() FROM ${loaded().table} WHERE ${where}`))[0]![0]);

  it("loads the class and key of each element's extent, as the kernel gives them", async () => {
    const rows = await loaded().ch.rows(`SELECT type, id, deleted, xmin, ymin, xmax, ymax, extent_class, extent_key FROM ${loaded().table}`);
    assert.equal(rows.length, await count('1'));
    const elements = new Map<string, { extent: [number, number, number, number] | null; placeable: boolean; loaded: Set<string> }>();
    for (const [type, id, deleted, x0, y0, x1, y1, k, key] of rows) {
      const e = elements.get(`${type}/${id}`) ?? { extent: null, placeable: false, loaded: new Set<string>() };
      elements.set(`${type}/${id}`, e);
      e.loaded.add(`${Number(k)}/${Number(key)}`);
      // A state without geometry that a query may place by its history's bbox: the element is read by every area.
      if (x0 === null && Number(deleted) === 0 && Number(type) > 0) e.placeable = true;
      if (x0 === null) continue;
      const b = [Number(x0), Number(y0), Number(x1), Number(y1)] as const;
      e.extent = e.extent ? [Math.min(e.extent[0], b[0]), Math.min(e.extent[1], b[1]), Math.max(e.extent[2], b[2]), Math.max(e.extent[3], b[3])] : [...b];
    }
    const classes = new Set<number>();
    let moved = 0;
    let placeable = 0;
    for (const [element, { extent, placeable: p, loaded: keys }] of elements) {
      if (p) placeable++;
      const { sizeClass, key } = extentSortKey(p ? null : extent);
      assert.deepEqual([...keys], [`${sizeClass}/${key}`], `extent class and key of ${element} (${JSON.stringify(extent)})`);
      classes.add(sizeClass);
      if (extent && sizeClass > 0) moved++;
    }
    assert.ok(classes.size >= 3, `several classes in the data: ${[...classes]}`);
    assert.ok(moved > 0, 'elements larger than the smallest class');
    assert.ok(placeable > 0, 'elements with a state without geometry');
  });

  it('keeps every row whose bbox meets the box (same counts as the bbox test alone)', async () => {
    // Deterministic boxes over and around the data (72.6–73.8 E, −0.7–7.1 N): tiny to whole.
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const boxes: BBox[] = [
      [73.5, 4.17, 73.52, 4.18], // Malé
      [72.5, -1, 74, 7.5], // all of it
      [73, 2, 73.0001, 2.0001],
      [10, 10, 11, 11], // no data
    ];
    for (let i = 0; i < 24; i++) {
      const w = 10 ** (-4 + 4 * random());
      const x = 72.4 + 1.6 * random();
      const y = -0.9 + 8.2 * random();
      boxes.push([x, y, x + w, y + w * (0.2 + random())]);
    }
    let met = 0;
    for (const bbox of boxes) {
      const expected = await count(bboxIntersectsSql(bbox));
      assert.equal(await count(keyTest(bbox)), expected, `rows meeting ${bbox}`);
      // Every state of the elements meeting the box, deleted ones and those far away included.
      const timelines = `(type, id) GLOBAL IN (SELECT type, id FROM ${loaded().table} WHERE ${bboxIntersectsSql(bbox)})`;
      assert.equal(await count(`${elementKeyTest(bbox)} AND ${timelines}`), await count(timelines), `timelines meeting ${bbox}`);
      if (expected > 0) met++;
    }
    assert.ok(met >= 10, `boxes meeting data: ${met}`);
  });

  it('reads a small part of the table for a small box', async () => {
    // JSON output's statistics (18.16 and current): the rows the query read, on every shard.
    const read = async (where: string) => {
      const answer = JSON.parse(await loaded().ch.text(`SELECT count() FROM ${loaded().table} WHERE ${where}${loaded().settings} FORMAT JSON`));
      return { rows: Number(answer.data[0]['count()']), read: Number(answer.statistics.rows_read) };
    };
    const total = await count('1');
    const male: BBox = [73.5, 4.17, 73.52, 4.18];
    const keyed = await read(keyTest(male));
    const plain = await read(bboxIntersectsSql(male));
    assert.equal(keyed.rows, plain.rows);
    assert.ok(keyed.rows > 100, `rows in Malé: ${keyed.rows}`);
    assert.equal(plain.read, total, 'the bbox test alone reads the whole table');
    assert.ok(keyed.read < total / 10, `rows read with the key test: ${keyed.read} of ${total}`);
    const timelines = await read(elementKeyTest(male));
    assert.ok(timelines.rows >= keyed.rows && timelines.read < total / 10, `rows read by the element key test: ${timelines.read} of ${total}`);
  });

  it("reads the listed rows' geometries only when fetching by rid, whatever the key ranges cover", async () => {
    // A box over all the data: its key ranges leave every granule, so only the rid test (a PREWHERE) can skip geometries.
    const everything: BBox = [72.5, -1, 74, 7.5];
    const rids = (await loaded().ch.rows(`SELECT rid FROM ${loaded().table} WHERE ${keyTest(everything)} AND geometry IS NOT NULL ORDER BY rid LIMIT 5`)).map(
      (r) => Number(r[0]),
    );
    const st = geometriesByRidSql({ entry: loaded().table, local: loaded().table }, rids, keyTest(everything));
    const answer = JSON.parse(await loaded().ch.text(`${st.text}${loaded().settings} FORMAT JSON`)) as {
      data: { rs: number[] }[];
      statistics: { bytes_read: number };
    };
    assert.deepEqual(
      answer.data.flatMap((r) => r.rs.map(Number)).sort((a, b) => a - b),
      rids,
    );
    const geometryBytes = Number((await loaded().ch.rows(`SELECT sum(length(geometry)) FROM ${loaded().table}`))[0]![0]);
    assert.ok(Number(answer.statistics.bytes_read) < geometryBytes / 4, `bytes read: ${answer.statistics.bytes_read}, the table's geometries ${geometryBytes}`);
  });
}

describe('ClickHouse spatial key pruning (chDB)', () => {
  let ch: ClickHouseConnection;
  before(async () => {
    ch = await chdbConnection();
    await loadIntoClickHouse(storeExport(db.store), { connections: [ch], database: DATABASE, indexGranularity: GRANULARITY });
  });
  after(async () => {
    await ch?.text(`DROP DATABASE IF EXISTS ${DATABASE}`);
  });
  // Without the query condition cache (ClickHouse 25.3 and later), which remembers the granules a
  // condition met in an earlier test here.
  describePruning(() => ({ ch, table: `${DATABASE}.states`, settings: ' SETTINGS use_query_condition_cache = 0' }));
});

describe('ClickHouse spatial key pruning (two shards, clickhouse-server)', {
  skip: SKIP_WITHOUT_CLICKHOUSE,
}, () => {
  let cluster: TestCluster | undefined;
  let ch: ClickHouseConnection;
  before(async () => {
    cluster = startTestCluster('pruning');
    const urls = cluster.urls;
    await loadIntoClickHouse(storeExport(db.store), { urls, database: DATABASE, indexGranularity: GRANULARITY });
    ch = new ClickHouseHttp({ url: urls[0]! });
  });
  after(() => cluster?.stop());
  describePruning(() => ({ ch, table: `${DATABASE}.states_all`, settings: '' }));
});
