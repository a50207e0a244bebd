/**
 * Version 2 golden answers on the bundled sample, through createServer (src/api/server.ts): every
 * case of cases.ts must give its stored status, content type, contract headers and body (GeoParquet
 * bodies as an order-independent summary: columns, geo metadata, row count and a digest of the rows).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { importToTemp, type ImportedDb } from '../../../store/test-support.js';
import { createDuckDbServer as createServer } from '../../../testing/server.js';
import { V2_GOLDEN_CASES } from './cases.js';
import { readGolden, send } from './support.js';

describe('v2 golden answers (sample/andorra.osh.pbf)', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let base: string;
  before(async () => {
    db = await importToTemp(join(process.cwd(), 'sample', 'andorra.osh.pbf'));
    app = await createServer(db.store);
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await app.close();
    db.dispose();
  });

  it('has distinct case names covering every endpoint', () => {
    assert.equal(new Set(V2_GOLDEN_CASES.map((c) => c.name)).size, V2_GOLDEN_CASES.length);
    const paths = new Set(V2_GOLDEN_CASES.map((c) => c.path));
    for (const p of [
      '/stats/features/count.json',
      '/stats/features/length.json',
      '/stats/features/area.csv',
      '/stats/contributors/count.csv',
      '/stats/contributions/count.json',
      '/stats/currentness/area.json',
      '/extraction/collections_members.parquet',
      '/extraction/contributions.parquet',
      '/metadata',
      '/health',
      '/filter/validation',
    ]) {
      assert.ok(paths.has(p), p);
    }
  });

  for (const c of V2_GOLDEN_CASES) {
    it(c.name, async () => {
      const golden = readGolden(c);
      const a = await send(base, c);
      assert.equal(a.status, golden.status);
      assert.equal(a.contentType, golden.contentType);
      assert.deepEqual(a.headers, golden.headers);
      assert.equal(a.body, golden.body);
    });
  }
});
