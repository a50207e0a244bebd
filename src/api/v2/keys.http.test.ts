/**
 * API keys on the real version 2 routes (createServer with the key guard, the bundled sample):
 * statistics and extraction need a key, metadata, health, filter validation and the docs do not;
 * the 16th statistics request within a minute is refused with 429 and Retry-After.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createApiKeyHook, type ApiKeyGuard } from '../../auth/index.js';
import { keysCommand } from '../../cli/commands/keys.js';
import { importToTemp, type ImportedDb } from '../../store/test-support.js';
import { createDuckDbServer as createServer } from '../../testing/server.js';

const STATS_BODY = { aoi: [1.515, 42.5, 1.54, 42.515], filter: 'amenity=*', time: '2016-01-01T00:00:00Z' };

describe('API keys on the v2 routes', () => {
  let db: ImportedDb;
  let dir: string;
  let guard: ApiKeyGuard;
  let app: FastifyInstance;
  let base: string;
  let key: string;

  before(async () => {
    db = await importToTemp(join(process.cwd(), 'sample', 'andorra.osh.pbf'));
    dir = mkdtempSync(join(tmpdir(), 'maphist-v2-keys-'));
    const keysDb = join(dir, 'keys.duckdb');
    const lines: string[] = [];
    await keysCommand(['create', '--keys-db', keysDb, '--name', 'test'], (l) => lines.push(l));
    key = /^key: (mh_\S+)$/.exec(lines[1]!)![1]!;
    guard = await createApiKeyHook({ keysDbPath: keysDb, flushIntervalMs: 60_000 });
    app = await createServer(db.store, { apiKeys: guard.hook });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await app.close();
    await guard.close();
    db.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const stats = (authorization?: string) =>
    fetch(`${base}/v2-rc/stats/features/count.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify(STATS_BODY),
    });

  it('statistics and extraction without a key answer 401, with an unknown key 403', async () => {
    assert.equal((await stats()).status, 401);
    assert.equal((await stats('mh_unknown')).status, 403);
    const extraction = await fetch(`${base}/v2/extraction/features.parquet?aoi=1.515,42.5,1.54,42.515&filter=amenity=*&time=latest`);
    assert.equal(extraction.status, 401);
    assert.match(JSON.stringify(await extraction.json()), /API key/);
  });

  it('metadata, health, filter validation and the docs need no key', async () => {
    for (const path of [
      '/v2-rc/metadata',
      '/v2-rc/health',
      '/v2-rc/filter/validation?filter=amenity%3D*',
      '/v2-rc/openapi.json',
      '/v2-rc/docs/',
      '/v1/metadata',
    ]) {
      assert.equal((await fetch(`${base}${path}`)).status, 200, path);
    }
  });

  it('with a key: 200 and the quota headers; the 16th request in a minute is 429 with Retry-After', async () => {
    const first = await stats(key);
    assert.equal(first.status, 200);
    assert.ok(first.headers.get('x-ratelimit-remaining') !== null);
    assert.ok(first.headers.get('x-ratelimit-reset') !== null);
    for (let i = 2; i <= 15; i++) assert.equal((await stats(key)).status, 200, `request ${i}`);
    const refused = await stats(key);
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.deepEqual(await refused.json(), { detail: 'Rate Limit Exceeded' });
  });
});
