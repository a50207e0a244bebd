/**
 * The v2 OpenAPI document lists the statuses each route really answers: every operation of the
 * document is sent requests that provoke each status it can give (no key, an unknown key, a key
 * over its per-minute limit, a body over the size limit, invalid input, a valid request), and
 * (1) every status seen is documented for that operation, with the answer's media type, and a
 * JSON answer's body valid against the documented schema (the 200 bodies of features and of the
 * time-bin statistics differ), (2) every documented status except 500 and 504 (an internal failure,
 * a time limit: not provoked here) was seen.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { Ajv } from 'ajv';
import { createApiKeyHook, type ApiKeyGuard } from '../../auth/index.js';
import { keysCommand } from '../../cli/commands/keys.js';
import { importToTemp, type ImportedDb } from '../../store/test-support.js';
import { createDuckDbServer as createServer } from '../../testing/server.js';

const AOI = [1.515, 42.5, 1.54, 42.515];
const RANGE = { start: '2015-01-01T00:00:00Z', end: '2016-01-01T00:00:00Z' };
/** A JSON body over every v2 route's size limit (BODY_LIMIT, 20 MB). */
const OVERSIZED = JSON.stringify({ filter: 'x'.repeat(21 * 1024 * 1024) });

interface DocumentedResponse {
  content?: Record<string, { schema: object }>;
}

/** A valid request of the operation: body (POST) or query (GET). */
function validInput(path: string): { body: Record<string, unknown>; query: Record<string, string> } {
  if (path.startsWith('/filter/')) return { body: { filter: 'amenity=*' }, query: { filter: 'amenity=*' } };
  if (path.startsWith('/stats/features/')) return { body: { aoi: AOI, filter: 'amenity=*', time: '2016-01-01T00:00:00Z' }, query: {} };
  if (path.startsWith('/stats/')) return { body: { aoi: AOI, filter: 'amenity=*', time: RANGE }, query: {} };
  const contributions = path.includes('contributions');
  return {
    body: { aoi: AOI, filter: 'amenity=*', time: contributions ? RANGE : 'latest' },
    query: { aoi: AOI.join(','), filter: 'amenity=*', time: contributions ? `${RANGE.start}/${RANGE.end}` : 'latest' },
  };
}

async function createKey(keysDb: string, ...limits: string[]): Promise<string> {
  const lines: string[] = [];
  await keysCommand(['create', '--keys-db', keysDb, '--name', 't', ...limits], (l) => lines.push(l));
  return /^key: (mh_\S+)$/.exec(lines[1]!)![1]!;
}

describe('v2 OpenAPI: documented statuses = answered statuses', () => {
  let db: ImportedDb;
  let dir: string;
  let guard: ApiKeyGuard;
  let app: FastifyInstance;
  let base: string;
  let key: string;
  let limited: string;

  before(async () => {
    db = await importToTemp(join(process.cwd(), 'sample', 'andorra.osh.pbf'));
    dir = mkdtempSync(join(tmpdir(), 'maphist-v2-statuses-'));
    const keysDb = join(dir, 'keys.duckdb');
    key = await createKey(keysDb, '--per-minute', '100000', '--daily-quota', '100000');
    limited = await createKey(keysDb, '--per-minute', '1');
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

  it('every operation of the document', async () => {
    const doc = (await (await fetch(`${base}/v2-rc/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, DocumentedResponse>; security?: unknown[] }>>;
    };
    // OpenAPI 3.0 schemas: keywords ajv does not know (`examples` aside) are annotations here
    const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
    );
    assert.ok(operations.length >= 28, `${operations.length} operations`);
    await fetch(`${base}/v2-rc/health`); // no key needed: does not use up `limited`
    let limitedUsed = false;
    for (const { path, method, op } of operations) {
      if (path === '/health') continue; // 503 needs a broken database; its 200 is tested in routes.test.ts
      const url = path.replace('{measure}', 'count');
      const seen = new Set<number>();
      const send = async (o: { key?: string; body?: unknown; rawBody?: string; query?: Record<string, string> }) => {
        const q = o.query && Object.keys(o.query).length > 0 ? `?${new URLSearchParams(o.query)}` : '';
        const res = await fetch(`${base}/v2-rc${url}${q}`, {
          method,
          headers: { ...(o.key ? { authorization: o.key } : {}), ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
          body: method === 'POST' ? (o.rawBody ?? JSON.stringify(o.body ?? {})) : undefined,
        });
        const body = Buffer.from(await res.arrayBuffer());
        seen.add(res.status);
        const documented = op.responses[String(res.status)];
        if (documented?.content) {
          const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
          const content = documented.content[mediaType];
          assert.ok(content, `${method} ${path} ${res.status}: answered ${mediaType}, documented ${Object.keys(documented.content)}`);
          if (mediaType === 'application/json') {
            const validate = ajv.compile(content.schema);
            assert.ok(
              validate(JSON.parse(body.toString('utf8'))),
              `${method} ${path} ${res.status}: ${body.toString('utf8').slice(0, 200)} does not match the documented schema: ${ajv.errorsText(validate.errors)}`,
            );
          }
        }
        return res.status;
      };
      const valid = validInput(url);
      const needsKey = op.security !== undefined;
      assert.equal(await send({ key, body: valid.body, query: valid.query }), 200, `${method} ${path}: valid`);
      if (url.startsWith('/stats/features/')) {
        assert.equal(await send({ key, body: { ...valid.body, groupBy: { type: 'byTag', key: 'amenity' } } }), 200, `${method} ${path}: grouped`);
      }
      assert.equal(await send({ key, body: {}, query: {} }), url === '/metadata' ? 200 : 422, `${method} ${path}: invalid`);
      if (method === 'POST') assert.equal(await send({ key, rawBody: OVERSIZED }), 413, `${method} ${path}: too large`);
      if (op.responses['414']) {
        assert.equal(
          await send({ key, body: valid.body, query: { ...valid.query, pad: 'x'.repeat(40_000) } }),
          414,
          `${method} ${path}: query string too long`,
        );
      }
      if (needsKey) {
        assert.equal(await send({ body: valid.body, query: valid.query }), 401, `${method} ${path}: no key`);
        assert.equal(await send({ key: 'mh_unknown', body: valid.body, query: valid.query }), 403, `${method} ${path}: unknown key`);
        if (!limitedUsed) {
          await send({ key: limited, body: valid.body, query: valid.query });
          limitedUsed = true;
        }
        assert.equal(await send({ key: limited, body: valid.body, query: valid.query }), 429, `${method} ${path}: over the limit`);
      }
      const documented = new Set(Object.keys(op.responses).map(Number));
      for (const s of seen) assert.ok(documented.has(s), `${method} ${path} answered ${s}, not documented (${[...documented]})`);
      // 503 (busy, shutting down): src/cli/serve.load.test.ts.
      for (const s of documented) if (s !== 500 && s !== 503 && s !== 504) assert.ok(seen.has(s), `${method} ${path} documents ${s}, never answered it`);
    }
  });
});
