/**
 * `geometry:other` (version 1's name) is refused by every version 2 route that reads a filter —
 * statistics, the four extractions (`filter` and `member_filter`, POST and GET) and filter
 * validation under both its paths — with the same 422 naming `geometry:collection`, which every one
 * of them accepts (src/api/v2/README.md). The operations are read from the OpenAPI document, so a
 * new route is checked too.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { importToTemp, type ImportedDb } from '../../store/test-support.js';
import { TESTCASES_DIR } from '../../testing/test-data.js';
import { createDuckDbServer as createServer } from '../../testing/server.js';

const AOI = [40, 40, 40.01, 40.01];
const RANGE = { start: '2021-01-01T00:00:00Z', end: '2021-12-01T00:00:00Z' };
const AT = '2021-09-01T00:00:00Z';

/** The operation's input with `fields` set: a POST body or a GET query. */
function input(path: string, fields: Record<string, string>): Record<string, unknown> {
  if (path.startsWith('/filter/')) return fields;
  const contributions = path.includes('contributions');
  if (path.startsWith('/stats/features/')) return { aoi: AOI, time: AT, ...fields };
  if (path.startsWith('/stats/')) return { aoi: AOI, time: RANGE, ...fields };
  return { aoi: AOI, time: contributions ? RANGE : AT, ...fields };
}

describe('v2 geometry:other: one 422 on every route that reads a filter', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let base: string;
  before(async () => {
    db = await importToTemp(join(TESTCASES_DIR, 'v2-scope', 'history.osh'));
    app = await createServer(db.store);
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await app.close();
    db.dispose();
  });

  const send = async (method: string, path: string, fields: Record<string, string>) => {
    const body = input(path, fields);
    // GET: aoi as xmin,ymin,xmax,ymax, a range as start/end
    const text = (v: unknown) => (Array.isArray(v) ? v.join(',') : typeof v === 'string' ? v : `${(v as typeof RANGE).start}/${(v as typeof RANGE).end}`);
    const res =
      method === 'GET'
        ? await fetch(`${base}/v2-rc${path}?${new URLSearchParams(Object.entries(body).map(([k, v]) => [k, text(v)]))}`)
        : await fetch(`${base}/v2-rc${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()).toString('utf8') };
  };

  it('refuses geometry:other in filter and member_filter, accepts geometry:collection', async () => {
    const doc = (await (await fetch(`${base}/v2-rc/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/stats/') || path.startsWith('/extraction/') || path.startsWith('/filter/'))
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => ({ path: path.replace('{measure}', 'count'), method: method.toUpperCase() })));
    assert.ok(operations.length >= 26, `${operations.length} operations`);
    for (const { path, method } of operations) {
      const fields = path.includes('/collections') ? ['filter', 'member_filter'] : ['filter'];
      for (const field of fields) {
        const extra: Record<string, string> = field === 'filter' ? {} : { filter: 'type:relation' };
        const refused = await send(method, path, { ...extra, [field]: 'highway=* and not geometry:other' });
        assert.equal(refused.status, 422, `${method} ${path} ${field}: ${refused.body}`);
        const issue = (JSON.parse(refused.body) as { detail: { loc: string[]; msg: string; type: string }[] }).detail[0]!;
        assert.deepEqual(issue.loc, [method === 'GET' ? 'query' : 'body', field], `${method} ${path}`);
        assert.equal(issue.type, 'filter_invalid', `${method} ${path}`);
        assert.match(issue.msg, /found `other`\. Hint: version 2 of the filter language calls this `geometry:collection`/, `${method} ${path}`);
        const accepted = await send(method, path, { ...extra, [field]: 'highway=* and not geometry:collection' });
        assert.equal(accepted.status, 200, `${method} ${path} ${field}: ${accepted.body.slice(0, 300)}`);
      }
    }
  });
});
