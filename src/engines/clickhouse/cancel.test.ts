/**
 * A cancelled query stops on every shard: the HTTP client sends `KILL QUERY` for its query id when
 * its signal aborts (a request timed out or its client went away), and the entry node's kill ends
 * the query's parts on the other shards. A real two-shard cluster of clickhouse-server (skipped where
 * it is not installed; `.ci/run` installs it).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { ClickHouseHttp } from './http-client.js';
import { SKIP_WITHOUT_CLICKHOUSE, startTestCluster, type TestCluster } from './test-cluster.js';

describe('cancelling a ClickHouse query (two shards on loopback)', { skip: SKIP_WITHOUT_CLICKHOUSE }, () => {
  let cluster: TestCluster | undefined;
  let shards: ClickHouseHttp[];
  before(() => {
    cluster = startTestCluster('cancel');
    shards = cluster.urls.map((url) => new ClickHouseHttp({ url }));
  });
  after(() => cluster?.stop());

  /** Queries running on a shard, other than this probe. */
  const running = async (ch: ClickHouseHttp) => Number((await ch.rows(`SELECT count() FROM system.processes WHERE query NOT LIKE '%system.processes%'`))[0][0]);

  it('an aborted distributed query ends on the entry node and on the other shard', async () => {
    const controller = new AbortController();
    // Minutes of work on both shards (the cluster table function reaches every shard of `maphist`).
    const query = shards[0].rows(`SELECT count() FROM cluster('maphist', system.numbers) WHERE cityHash64(number) = 7`, { signal: controller.signal });
    query.catch(() => undefined);
    let seen = false;
    for (let i = 0; i < 50 && !seen; i++) {
      await sleep(100);
      seen = (await running(shards[0])) > 0 && (await running(shards[1])) > 0;
    }
    assert.ok(seen, 'the query runs on both shards');
    controller.abort(new Error('client went away'));
    await assert.rejects(query, /client went away/);
    let left = [1, 1];
    for (let i = 0; i < 50 && left.some((n) => n > 0); i++) {
      await sleep(100);
      left = await Promise.all(shards.map(running));
    }
    assert.deepEqual(left, [0, 0], 'no part of the query is left running');
  });
});
