/**
 * The ClickHouse form of a store on a real two-shard cluster on loopback. `maphist clickhouse load`
 * (scripts/clickhouse-cluster.sh, Debian's clickhouse-server; skipped where it is not installed —
 * `.ci/run` installs it): the Andorra store's tables arrive whole (row counts, the snapshot count of
 * buildings, the WKB bytes and measures summed per type equal DuckDB's), every element's states on one shard, a
 * second load replaces the first (no doubled rows), and a load stopped midway leaves the
 * previous tables serving and no staging database. The filter language compiled for ClickHouse
 * (src/filter/sql/clickhouse-dialect.ts) selects the same states as compiled for DuckDB, for random
 * filters over the store's own keys and values.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { epoch, importToTemp, TEST_DATA, type ImportedDb } from '../../store/test-support.js';
import { storeExport } from '../duckdb/store-export.js';
import { readRecords } from '../duckdb/statements.js';
import { statement } from '../sql/statement.js';
import fc from 'fast-check';
import { clickhouseDialect, compileSql, duckdbDialect, type Filter } from '../../filter/index.js';
import { treeArb } from '../../filter/testing/arbitraries.js';
import { dictionaryOf } from '../../store/store-tag-dictionary.js';
import { ClickHouseHttp } from './http-client.js';
import { loadIntoClickHouse } from './load.js';
import { SKIP_WITHOUT_CLICKHOUSE, startTestCluster, type TestCluster } from './test-cluster.js';

describe('maphist clickhouse load (two shards on loopback)', {
  skip: SKIP_WITHOUT_CLICKHOUSE,
}, () => {
  let db: ImportedDb;
  let cluster: TestCluster | undefined;
  let urls: string[];
  let entry: ClickHouseHttp;
  before(async () => {
    db = await importToTemp(join(TEST_DATA, 'history', 'andorra.osh.pbf'));
    cluster = startTestCluster('load');
    urls = cluster.urls;
    entry = new ClickHouseHttp({ url: urls[0] });
  });
  after(() => {
    cluster?.stop();
    db?.dispose();
  });

  const duck = async (sql: string) => (await readRecords(db.store, statement<{ v: string }>(`SELECT (${sql})::VARCHAR AS v`, ['v']), undefined))[0].v;
  const ch = async (sql: string) => String((await entry.rows(sql))[0][0]);

  it('loads every table; counts, sums and a snapshot equal DuckDB; each element on one shard', async () => {
    assert.deepEqual(urls.length, 2);
    const summary = await loadIntoClickHouse(storeExport(db.store), { urls });
    const states = Number(await duck('SELECT count(*) FROM states'));
    assert.equal(summary.rows.states, states);
    assert.equal(summary.statesPerShard[0] + summary.statesPerShard[1], states);
    assert.ok(summary.statesPerShard[0] > states / 4 && summary.statesPerShard[1] > states / 4, `${summary.statesPerShard}`);
    assert.equal(Number(await ch('SELECT count() FROM maphist.states_all')), states);
    for (const t of ['users', 'tag_keys', 'tag_values', 'meta']) {
      const want = Number(await duck(`SELECT count(*) FROM ${t}`));
      for (const url of urls) assert.equal(Number((await new ClickHouseHttp({ url }).rows(`SELECT count() FROM maphist.${t}`))[0][0]), want, `${t} at ${url}`);
    }
    for (const type of [0, 1, 2]) {
      const want = await duck(`SELECT count(*) || '/' || sum(octet_length(geometry)) || '/' || sum(vertices) FROM states WHERE type = ${type}`);
      const got = await ch(
        `SELECT concat(toString(count()), '/', toString(sum(length(geometry))), '/', toString(sum(vertices))) FROM maphist.states_all WHERE type = ${type}`,
      );
      assert.equal(got, want, `type ${type}`);
      const len = Number(await duck(`SELECT sum(length) FROM states WHERE type = ${type}`));
      const chLen = Number(await ch(`SELECT sum(length) FROM maphist.states_all WHERE type = ${type}`));
      assert.ok(Math.abs(chLen - len) <= 1e-9 * Math.max(1, Math.abs(len)), `length of type ${type}: ${chLen} vs ${len}`);
    }
    const t = epoch('2016-01-01T00:00:00Z');
    assert.equal(
      await ch(`SELECT count() FROM maphist.states_all WHERE deleted = 0 AND has(tag_keys, 'building') AND valid_from <= ${t} AND valid_to > ${t}`),
      await duck(`SELECT count(*) FROM states WHERE NOT deleted AND list_contains(map_keys(tags), 'building') AND valid_from <= ${t} AND valid_to > ${t}`),
    );
    // Tags and WKB bytes arrive as they are: one element's whole history compared.
    const element = await duck(
      "SELECT string_agg(version || ':' || hex(geometry) || ':' || array_to_string(map_keys(tags), ',') || '=' || array_to_string(map_values(tags), ','), ';' ORDER BY valid_from, minor_version) FROM states WHERE type = 1 AND id = (SELECT min(id) FROM states WHERE type = 1 AND vertices > 10)",
    );
    const chElement = await ch(
      "SELECT arrayStringConcat(groupArray(s), ';') FROM (SELECT concat(toString(version), ':', hex(geometry), ':', arrayStringConcat(tag_keys, ','), '=', arrayStringConcat(tag_values, ',')) AS s FROM maphist.states_all WHERE type = 1 AND id = (SELECT min(id) FROM maphist.states_all WHERE type = 1 AND vertices > 10) ORDER BY valid_from, minor_version)",
    );
    assert.equal(chElement, element);
    // The row ids arrive as DuckDB's, one per state.
    assert.equal(
      await ch("SELECT concat(toString(uniqExact(rid)), '/', toString(min(rid)), '/', toString(max(rid))) FROM maphist.states_all"),
      `${states}/0/${states - 1}`,
    );
    // No element has states on both shards.
    const ids = await Promise.all(
      urls.map(async (url) => new Set((await new ClickHouseHttp({ url }).rows('SELECT DISTINCT id FROM maphist.states')).map((r) => String(r[0])))),
    );
    for (const id of ids[0]) assert.ok(!ids[1].has(id), `element ${id} on both shards`);
  });

  it('a second load replaces the first; a stopped load keeps the previous tables and leaves no staging database', async () => {
    const states = Number(await duck('SELECT count(*) FROM states'));
    await loadIntoClickHouse(storeExport(db.store), { urls });
    assert.equal(Number(await ch('SELECT count() FROM maphist.states_all')), states, 'replaced, not appended');
    const controller = new AbortController();
    const stopped = loadIntoClickHouse(storeExport(db.store, controller.signal), {
      urls,
      signal: controller.signal,
      onProgress: (done) => {
        if (done > 1000) controller.abort(new Error('stopped by the test'));
      },
    });
    await assert.rejects(stopped);
    assert.equal(Number(await ch('SELECT count() FROM maphist.states_all')), states);
    for (const url of urls) {
      const dbs = (await new ClickHouseHttp({ url }).rows("SELECT name FROM system.databases WHERE name LIKE 'maphist%'")).map((r) => String(r[0])).sort();
      assert.deepEqual(dbs, ['maphist'], url);
    }
  });

  it('filters compiled for ClickHouse select the states they select on DuckDB (random filters, the store’s keys and values)', async () => {
    const dictionary = await dictionaryOf(db.store);
    const keys = (await readRecords(db.store, statement<{ key: string }>('SELECT key FROM tag_keys ORDER BY id LIMIT 40', ['key']), undefined)).map(
      (r) => r.key,
    );
    const values = (
      await readRecords(db.store, statement<{ value: string }>('SELECT value FROM tag_values ORDER BY frequency DESC LIMIT 40', ['value']), undefined)
    ).map((r) => r.value);
    const t = epoch('2014-01-01T00:00:00Z');
    const at = `valid_from <= ${t} AND valid_to > ${t}`;
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(
        treeArb({
          version: 1,
          keys: fc.constantFrom(...keys, 'no-such-key'),
          values: fc.constantFrom(...values, 'no-such-value'),
          ids: fc.integer({ min: 1, max: 5_000_000_000 }),
          floats: fc.constantFrom(0, 1, 10, 100, 1000, 1e5),
          counts: fc.integer({ min: 0, max: 20 }),
          maxDepth: 3,
        }),
        async (ast) => {
          const filter: Filter = { version: 1, ast, source: '' };
          let duckSql: string;
          let chSql: string;
          try {
            duckSql = compileSql(filter, { dialect: duckdbDialect, dictionary }).sql;
            chSql = compileSql(filter, { dialect: clickhouseDialect, dictionary }).sql;
          } catch {
            return; // refused alike by the compiler (too complex): nothing to compare
          }
          const want = await duck(`SELECT count(*) FROM states WHERE NOT deleted AND ${at} AND coalesce(${duckSql}, FALSE)`);
          const got = await ch(`SELECT count() FROM maphist.states_all WHERE deleted = 0 AND ${at} AND ifNull(${chSql}, 0)`);
          assert.equal(got, want, chSql);
          compared++;
        },
      ),
      { numRuns: 60, seed: 11 },
    );
    assert.ok(compared >= 40, `${compared} filters compared`);
  });
});
