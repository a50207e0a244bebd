/**
 * The never-tagged rule through both APIs, on the annotated tiny history
 * testdata/testcases/never-tagged/history.osh (each element's comment says who sees it): version 1
 * sees the nodes that carried a tag in some version and every way; version 2 only elements that
 * carried a tag. The expected figures are worked out by hand from that file.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { importToTemp, type ImportedDb } from '../store/test-support.js';
import { TESTCASES_DIR } from '../testing/test-data.js';
import { createDuckDbServer as createServer } from '../testing/server.js';

const FILE = join(TESTCASES_DIR, 'never-tagged', 'history.osh');
const BBOX = '20,20,20.01,20.01';
const HALF_YEAR = '2020-12-01,2021-07-01';

describe('never-tagged elements (testdata/testcases/never-tagged)', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let base: string;
  before(async () => {
    db = await importToTemp(FILE);
    app = await createServer(db.store, { timeoutSeconds: 100 });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await app.close();
    db.dispose();
  });

  const v1 = async (path: string, params: Record<string, string>) => {
    const res = await fetch(`${base}/v1${path}?${new URLSearchParams({ bboxes: BBOX, ...params })}`);
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as { result?: { value: number }[]; features?: { properties: Record<string, unknown> }[] };
  };
  const values = async (path: string, params: Record<string, string>) => (await v1(path, params)).result!.map((r) => r.value);
  const v2 = async (path: string, body: Record<string, unknown>) => {
    const res = await fetch(`${base}/v2-rc${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ aoi: [20, 20, 20.01, 20.01], ...body }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    return ((await res.json()) as { result: { value: number[] } }).result.value;
  };

  it('the store keeps all of them: 6 nodes and 2 ways, of which n1, n2, n5 and w2 were never tagged', async () => {
    const rows = await db.query<{ type: string; id: bigint; ever_tagged: boolean }>(
      `SELECT DISTINCT type, id, ever_tagged FROM contributions ORDER BY type, id`,
    );
    assert.deepEqual(
      rows.map((r) => `${r.type[0]}${r.id}:${r.ever_tagged}`),
      ['n1:false', 'n2:false', 'n3:true', 'n4:true', 'n5:false', 'n6:true', 'w1:true', 'w2:false'],
    );
  });

  it('v1 elements: n3, n4 (before its first tag too) and n6, not n1, n2, n5; both ways', async () => {
    assert.deepEqual(await values('/elements/count', { time: '2021-02-01,2021-06-01', filter: 'type:node' }), [3, 3]);
    assert.deepEqual(await values('/elements/count', { time: '2021-06-01' }), [5]); // n3, n4, n6, w1, w2
    assert.deepEqual(await values('/elements/count', { time: '2021-06-01', filter: 'type:way' }), [2]);
    const features = (await v1('/elements/centroid', { time: '2021-06-01', filter: 'type:node' })).features!;
    assert.deepEqual(
      features.map((f) => f.properties['@osmId']),
      ['node/3', 'node/4', 'node/6'],
    );
  });

  it('v1 contributions and users: n3 ×2, n4 ×2, w1, w2; zed, who only touched n5, is no user', async () => {
    assert.deepEqual(await values('/contributions/count', { time: HALF_YEAR }), [6]);
    assert.deepEqual(await values('/contributions/count', { time: HALF_YEAR, contributionType: 'deletion' }), [0]);
    assert.deepEqual(await values('/users/count', { time: HALF_YEAR }), [3]); // alice, bob, carol
    const features = (await v1('/contributions/centroid', { time: HALF_YEAR })).features!;
    assert.deepEqual([...new Set(features.map((f) => f.properties['@osmId']))], ['node/3', 'node/4', 'way/1', 'way/2']);
  });

  it('v2: only what was ever tagged — n3, n4, n6 and w1; not the untagged way w2', async () => {
    assert.deepEqual(await v2('/stats/features/count.json', { filter: 'type:node', time: '2021-06-01T00:00:00Z' }), [3]);
    assert.deepEqual(await v2('/stats/features/count.json', { filter: 'type:way', time: '2021-06-01T00:00:00Z' }), [1]);
    const bins = { start: '2020-12-01T00:00:00Z', end: '2021-07-01T00:00:00Z', binSize: 'P7M' };
    assert.deepEqual(await v2('/stats/contributions/count.json', { filter: '*', time: bins }), [5]); // n3 ×2, n4 ×2, w1
    assert.deepEqual(await v2('/stats/contributors/count.json', { filter: '*', time: bins }), [3]); // alice (w1), bob, carol
  });
});
