/** The server through a real HTTP client: v1 metadata, v2 health under both prefixes. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { importToTemp, TEST_DATA, type ImportedDb } from '../store/test-support.js';
import { createDuckDbServer as createServer } from '../testing/server.js';

describe('HTTP server', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let base: string;
  before(async () => {
    db = await importToTemp(join(TEST_DATA, 'testcases', 'handmade', 'history-small.osh.pbf'));
    app = await createServer(db.store, { timeoutSeconds: 123 });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await app.close();
    db.dispose();
  });

  it('GET /v1/metadata describes the data', async () => {
    const res = await fetch(`${base}/v1/metadata`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    const body = await res.json();
    assert.deepEqual(body.attribution, { url: 'https://www.openstreetmap.org/copyright', text: '© OpenStreetMap contributors' });
    assert.equal(typeof body.apiVersion, 'string');
    assert.equal(body.timeout, 123);
    assert.deepEqual(body.extractRegion.temporalExtent, { fromTimestamp: '2020-01-01T00:00:00Z', toTimestamp: '2020-09-01T00:00:00Z' });
    assert.equal(body.extractRegion.replicationSequenceNumber, 0);
    assert.equal(body.extractRegion.spatialExtent.type, 'Polygon');
    assert.deepEqual(body.extractRegion.spatialExtent.coordinates[0][0], [8, 49]);
  });

  it('GET /v1/metadata takes no parameters', async () => {
    const res = await fetch(`${base}/v1/metadata?time=2020`);
    assert.equal(res.status, 400);
    assert.equal((await res.json()).message, "The endpoint 'metadata' does not require parameters");
  });

  for (const prefix of ['/v2-rc', '/v2']) {
    it(`GET and HEAD ${prefix}/health`, async () => {
      const res = await fetch(`${base}${prefix}/health`);
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { status: 'Ok' });
      const head = await fetch(`${base}${prefix}/health`, { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(await head.text(), '');
    });
  }
});
