/**
 * Version 2's scope, on the annotated tiny history testdata/testcases/v2-scope/history.osh (its
 * comment gives the expected figures): relations count only when tagged type=multipolygon or
 * type=boundary, in every statistic and extraction; version 1 counts them all.
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
    const res = await fetch(`${base}/v2-rc${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ aoi: AOI, ...body }) });
    assert.equal(res.status, 200, await res.clone().text());
    return ((await res.json()) as { result: { value: number[] } }).result.value;
  };
  const parquetRows = async (path: string, body: Record<string, unknown>) => {
    const res = await fetch(`${base}/v2-rc${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ aoi: AOI, ...body }) });
    assert.equal(res.status, 200, await res.clone().text());
    const file = join(dir, 'x.parquet');
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const bytes = new Uint8Array(await (await import('node:fs/promises')).readFile(file));
    return (await parquetReadObjects({ file: bytes.buffer, compressors })) as Record<string, unknown>[];
  };

  it('features: r1, r3 and r4 (a multipolygon since 2021-06-01), not the route r2', async () => {
    assert.deepEqual(await stats('/stats/features/count.json', { filter: 'type:relation', time: '2021-09-01T00:00:00Z' }), [3]);
    assert.deepEqual(await stats('/stats/features/count.json', { filter: 'type:relation', time: '2021-05-15T00:00:00Z' }), [2]);
  });

  it('contributions and contributors: no route relation, no zed', async () => {
    assert.deepEqual(await stats('/stats/contributions/count.json', { filter: 'type:relation', time: YEAR }), [3]);
    assert.deepEqual(await stats('/stats/contributions/count.json', { filter: 'type:relation and type=route', time: YEAR }), [0]);
    assert.deepEqual(await stats('/stats/contributors/count.json', { filter: 'type:relation', time: YEAR }), [2]);
  });

  it('contributions.parquet and features.parquet: no row of r2; r4 only as a multipolygon', async () => {
    const contributions = await parquetRows('/extraction/contributions.parquet', { filter: 'type:relation', time: YEAR });
    assert.deepEqual(contributions.map((r) => `r${r.osm_id}v${r.version}`).sort(), ['r1v1', 'r3v1', 'r4v2']);
    const features = await parquetRows('/extraction/features.parquet', { filter: 'type:relation', time: YEAR });
    assert.deepEqual([...new Set(features.map((r) => `r${r.osm_id}v${r.version}`))].sort(), ['r1v1', 'r3v1', 'r4v2']);
  });

  it('collections.parquet still extracts the route', async () => {
    const collections = await parquetRows('/extraction/collections.parquet', { filter: 'type:relation', time: '2021-05-15T00:00:00Z' });
    assert.deepEqual([...new Set(collections.map((r) => `r${r.osm_id}`))].sort(), ['r2', 'r4']);
  });

  it('version 1 counts every relation', async () => {
    const res = await fetch(`${base}/v1/elements/count?bboxes=${AOI.join(',')}&time=2021-09-01&filter=type:relation`);
    assert.deepEqual(((await res.json()) as { result: { value: number }[] }).result.map((r) => r.value), [4]);
  });
});
