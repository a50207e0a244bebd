/**
 * Version 2's scope, on the annotated tiny history testdata/testcases/v2-scope/history.osh (its
 * comment gives the expected figures): relations count only when tagged type=multipolygon or
 * type=boundary, in every statistic (features count/length/area, grouped too; contributors;
 * contributions; currentness) and in features.parquet and contributions.parquet (POST and GET);
 * collections*.parquet extract the other relations; version 1 counts them all.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { importToTemp, type ImportedDb } from '../../store/test-support.js';
import { TESTCASES_DIR } from '../../testing/test-data.js';
import { createDuckDbServer as createServer } from '../../testing/server.js';

const AOI = [40, 40, 40.01, 40.01];
const YEAR = { start: '2021-01-01T00:00:00Z', end: '2021-12-01T00:00:00Z' };

describe('v2 scope: multipolygon and boundary relations only (testdata/testcases/v2-scope)', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let base: string;
  let dir: string;
  before(async () => {
    db = await importToTemp(join(TESTCASES_DIR, 'v2-scope', 'history.osh'));
    app = await createServer(db.store, { timeoutSeconds: 100 });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    dir = mkdtempSync(join(tmpdir(), 'maphist-v2-scope-'));
  });
  after(async () => {
    await app.close();
    db.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const stats = async (path: string, body: Record<string, unknown>) => {
    const res = await fetch(`${base}/v2-rc${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ aoi: AOI, ...body }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    return ((await res.json()) as { result: { value: number[] } }).result.value;
  };
  /** POST: `input` is the body (aoi added); GET: the query. */
  const parquetRows = async (path: string, input: Record<string, unknown>, method: 'GET' | 'POST' = 'POST') => {
    const res =
      method === 'GET'
        ? await fetch(`${base}/v2-rc${path}?${new URLSearchParams(input as Record<string, string>)}`)
        : await fetch(`${base}/v2-rc${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ aoi: AOI, ...input }),
          });
    assert.equal(res.status, 200, await res.clone().text());
    const file = join(dir, 'x.parquet');
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const bytes = new Uint8Array(await (await import('node:fs/promises')).readFile(file));
    return (await parquetReadObjects({ file: bytes.buffer, compressors })) as Record<string, unknown>[];
  };

  const FEATURE_ROUTES = ['count', 'length', 'area'].map((m) => `/stats/features/${m}.json`);
  const BIN_ROUTES = [
    '/stats/contributors/count.json',
    '/stats/contributions/count.json',
    ...['count', 'length', 'area'].map((m) => `/stats/currentness/${m}.json`),
  ];
  const routeOnly = ['type:relation and type=route', 'route=*', 'type=route'];

  it('no statistic counts a route relation: every v2 statistic is 0 for filters only routes match', async () => {
    for (const filter of routeOnly) {
      for (const path of FEATURE_ROUTES) {
        for (const time of ['2021-05-15T00:00:00Z', '2021-09-01T00:00:00Z'])
          assert.deepEqual(await stats(path, { filter, time }), [0], `${path} ${filter} ${time}`);
        assert.deepEqual(
          await stats(path, { filter, time: '2021-05-15T00:00:00Z', groupBy: { type: 'byTag', key: 'route' } }),
          [0],
          `${path} ${filter} grouped`,
        );
      }
      for (const path of BIN_ROUTES) assert.deepEqual(await stats(path, { filter, time: YEAR }), [0], `${path} ${filter}`);
    }
  });

  it('features: r1, r3 and r5 on 2021-05-15, r1, r3 and r4 (a multipolygon since 2021-06-01) on 2021-09-01; never the route r2', async () => {
    assert.deepEqual(await stats('/stats/features/count.json', { filter: 'type:relation', time: '2021-09-01T00:00:00Z' }), [3]);
    assert.deepEqual(await stats('/stats/features/count.json', { filter: 'type:relation', time: '2021-05-15T00:00:00Z' }), [3]);
    assert.deepEqual(await stats('/stats/features/count.json', { filter: 'type:relation and type=multipolygon', time: '2021-09-01T00:00:00Z' }), [2]);
    assert.deepEqual(await stats('/stats/features/count.json', { filter: '*', time: '2021-09-01T00:00:00Z' }), [5]);
    // the area of the relations: r1 (w2's square) and r3, r4 (w4's triangle each); r5 has w2's square on 2021-05-15
    const [r1r3r4] = await stats('/stats/features/area.json', { filter: 'type:relation', time: '2021-09-01T00:00:00Z' });
    const [r1] = await stats('/stats/features/area.json', { filter: 'landuse=grass', time: '2021-09-01T00:00:00Z' });
    const [r3] = await stats('/stats/features/area.json', { filter: 'type=boundary', time: '2021-09-01T00:00:00Z' });
    assert.ok(r1! > 0 && r3! > 0);
    const [r1r3r5] = await stats('/stats/features/area.json', { filter: 'type:relation', time: '2021-05-15T00:00:00Z' });
    // values are rounded each on its own: a sum of rounded values may differ by one per term
    assert.ok(Math.abs(r1r3r4! - (r1! + 2 * r3!)) <= 2, `${r1r3r4} vs ${r1} + 2 × ${r3}`);
    assert.ok(Math.abs(r1r3r5! - (2 * r1! + r3!)) <= 2, `${r1r3r5} vs 2 × ${r1} + ${r3}`);
  });

  it('contributions and contributors: no route relation, no zed; a change into or out of a multipolygon counts', async () => {
    assert.deepEqual(await stats('/stats/contributions/count.json', { filter: 'type:relation', time: YEAR }), [5]);
    assert.deepEqual(await stats('/stats/contributions/count.json', { filter: '*', time: YEAR }), [7]);
    assert.deepEqual(await stats('/stats/contributions/count.json', { filter: 'natural=scrub', time: YEAR }), [1]);
    assert.deepEqual(await stats('/stats/contributions/count.json', { filter: 'landuse=meadow', time: YEAR }), [2]);
    assert.deepEqual(await stats('/stats/contributors/count.json', { filter: 'type:relation', time: YEAR }), [3]);
    assert.deepEqual(await stats('/stats/contributors/count.json', { filter: '*', time: YEAR }), [3]);
    assert.deepEqual(await stats('/stats/contributors/count.json', { filter: 'landuse=meadow', time: YEAR }), [1]);
  });

  it('currentness: r1, r3 and r4, not r5 (its latest state is a route) nor r2', async () => {
    assert.deepEqual(await stats('/stats/currentness/count.json', { filter: 'type:relation', time: YEAR }), [3]);
    assert.deepEqual(await stats('/stats/currentness/count.json', { filter: 'landuse=meadow', time: YEAR }), [0]);
  });

  it('contributions.parquet and features.parquet: no row of r2 (POST and GET); r4 only as a multipolygon', async () => {
    const contributions = await parquetRows('/extraction/contributions.parquet', { filter: 'type:relation', time: YEAR });
    assert.deepEqual(contributions.map((r) => `r${r.osm_id}v${r.version}`).sort(), ['r1v1', 'r3v1', 'r4v2', 'r5v1', 'r5v2']);
    const features = await parquetRows('/extraction/features.parquet', { filter: 'type:relation', time: YEAR });
    assert.deepEqual([...new Set(features.map((r) => `r${r.osm_id}v${r.version}`))].sort(), ['r1v1', 'r3v1', 'r4v2', 'r5v1']);
    for (const filter of routeOnly) {
      assert.deepEqual(await parquetRows('/extraction/contributions.parquet', { filter, time: YEAR }), [], filter);
      assert.deepEqual(await parquetRows('/extraction/features.parquet', { filter, time: YEAR }), [], filter);
      assert.deepEqual(await parquetRows('/extraction/features.parquet', { filter, time: '2021-05-15T00:00:00Z' }), [], filter);
      const query = { aoi: AOI.join(','), filter, time: `${YEAR.start}/${YEAR.end}` };
      assert.deepEqual(await parquetRows('/extraction/contributions.parquet', query, 'GET'), [], `GET ${filter}`);
      assert.deepEqual(await parquetRows('/extraction/features.parquet', query, 'GET'), [], `GET ${filter}`);
    }
  });

  it('collections.parquet and collections_members.parquet extract the routes, not the multipolygons', async () => {
    const collections = async (time: string) =>
      [...new Set((await parquetRows('/extraction/collections.parquet', { filter: 'type:relation', time })).map((r) => `r${r.osm_id}`))].sort();
    assert.deepEqual(await collections('2021-05-15T00:00:00Z'), ['r2', 'r4']);
    assert.deepEqual(await collections('2021-09-01T00:00:00Z'), ['r2', 'r5']);
    const members = await parquetRows('/extraction/collections_members.parquet', { filter: 'type:relation', time: '2021-09-01T00:00:00Z' });
    // r2's path w3 and r5's untagged ring w2 (members are listed whether or not they were ever tagged)
    assert.deepEqual(members.map((r) => `r${r.collection_osm_id}:w${r.osm_id}`).sort(), ['r2:w3', 'r5:w2']);
    const get = await parquetRows(
      '/extraction/collections.parquet',
      { aoi: AOI.join(','), filter: 'type=multipolygon or type=boundary', time: '2021-09-01T00:00:00Z' },
      'GET',
    );
    assert.deepEqual(get, []);
  });

  it('version 1 counts every relation', async () => {
    const res = await fetch(`${base}/v1/elements/count?bboxes=${AOI.join(',')}&time=2021-09-01&filter=type:relation`);
    assert.deepEqual(
      ((await res.json()) as { result: { value: number }[] }).result.map((r) => r.value),
      [5],
    );
  });
});
