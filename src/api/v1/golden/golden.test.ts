/**
 * Golden answers on the bundled sample: every case of cases.ts as GET must give the stored answer,
 * and as POST form and POST multipart the same answer (less the request URL echo, which POSTs do
 * not carry). Then the HTTP behaviour of docs/reference/v1-reference-behaviour.md §2 and §7: 405 with Allow, trailing slash, content types,
 * CORS, gzip, cache headers, the POST request URL in error bodies.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { importToTemp, type ImportedDb } from '../../../store/test-support.js';
import { createDuckDbServer as createServer } from '../../../testing/server.js';
import { GOLDEN_CASES, WHOLE } from './cases.js';
import { jsonBody, normalize, readGolden, sendForm, sendGet, sendJson, sendMultipart, withoutRequestUrl } from './support.js';

describe('v1 golden answers (sample/andorra.osh.pbf)', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let base: string;
  before(async () => {
    db = await importToTemp(join(process.cwd(), 'sample', 'andorra.osh.pbf'));
    app = await createServer(db.store, { timeoutSeconds: 100 });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await app.close();
    db.dispose();
  });

  it('has at least 60 cases with distinct names', () => {
    assert.ok(GOLDEN_CASES.length >= 60);
    assert.equal(new Set(GOLDEN_CASES.map((c) => c.name)).size, GOLDEN_CASES.length);
  });

  for (const c of GOLDEN_CASES) {
    it(c.name, async () => {
      const golden = readGolden(c);
      const get = await sendGet(base, c);
      assert.equal(get.status, golden.status);
      assert.equal(get.contentType, golden.contentType);
      assert.equal(normalize(get.body, base), golden.body);
      if (c.path === '/metadata') return; // GET only
      const expected = withoutRequestUrl(golden.body);
      for (const [how, send] of [
        ['form', sendForm],
        ['multipart', sendMultipart],
      ] as const) {
        const posted = await send(base, c);
        assert.equal(posted.status, golden.status, how);
        assert.equal(posted.contentType, golden.contentType, how);
        assert.equal(withoutRequestUrl(normalize(posted.body, base)), expected, how);
      }
      // A JSON body (issue 22) gives the form's answer, its rebuilt request URL included: the values as
      // strings, then as arrays, numbers, booleans and a GeoJSON object. A case repeating a name has no JSON form.
      const form = normalize((await sendForm(base, c)).body, base);
      for (const plain of [true, false]) {
        const body = jsonBody(c, plain);
        if (body === undefined) continue;
        const posted = await sendJson(base, c, body);
        const how = `json (${plain ? 'strings' : 'arrays'}): ${JSON.stringify(body).slice(0, 200)}`;
        assert.equal(posted.status, golden.status, how);
        assert.equal(posted.contentType, golden.contentType, how);
        assert.equal(normalize(posted.body, base), form, how);
      }
    });
  }

  const TOWN = '1.515,42.500,1.540,42.515';

  /** A golden answer's groups: JSON groupByResult or CSV columns, group name → values. */
  const groupsOfBody = (body: string, csv: boolean): Map<string, number[]> => {
    if (csv) {
      const lines = body.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
      const header = lines[0]!.split(';').slice(2);
      return new Map(header.map((h, i) => [h, lines.slice(1).map((l) => Number(l.split(';')[i + 2]))]));
    }
    const doc = JSON.parse(body) as { groupByResult: { groupByObject: string; result: { value: number }[] }[] };
    return new Map(doc.groupByResult.map((g) => [g.groupByObject, g.result.map((r) => r.value)]));
  };

  it("the extension routes' goldens (contributions by kind) agree with the reference routes, narrowed to each group", async () => {
    const { findV1Route } = await import('../params/route-parameters.js');
    const values = async (path: string, params: [string, string][]) => {
      const res = await fetch(`${base}/v1${path}?${new URLSearchParams(params)}`);
      assert.equal(res.status, 200, path);
      return ((await res.json()) as { result: { value: number }[] }).result.map((r) => r.value);
    };
    let checked = 0;
    for (const c of GOLDEN_CASES) {
      const route = findV1Route(c.path);
      if (!route?.extension) continue;
      const golden = readGolden(c);
      if (golden.status !== 200) continue;
      const groups = groupsOfBody(golden.body, golden.contentType.startsWith('text/csv'));
      const baseRoute = c.path.replace(/\/density/, '').replace(/\/groupBy\/\w+$/, '');
      const params = c.params.filter(([k]) => !['format', 'showMetadata', 'groupByKey', 'groupByValues'].includes(k));
      const filter = params.find(([k]) => k === 'filter')?.[1];
      const narrowed = (extra: string): [string, string][] => [
        ...params.filter(([k]) => k !== 'filter'),
        ['filter', filter === undefined ? extra : `(${filter}) and ${extra}`],
      ];
      // density: the count over the area of the ungrouped density route
      const perArea = route.density
        ? await (async () => {
            const counts = await values(baseRoute, params);
            const densities = await values(`${baseRoute}/density`, params);
            // the area from the interval with the most contributions (its density has the most digits)
            const k = counts.indexOf(Math.max(...counts));
            return (v: number[]) => v.map((x) => Math.round(((x * densities[k]!) / counts[k]!) * 100) / 100);
          })()
        : (v: number[]) => v;
      const close = (got: number[], want: number[], what: string) =>
        assert.ok(
          got.length === want.length && got.every((g, i) => Math.abs(g - want[i]!) <= (route.density ? Math.max(0.02, want[i]! * 0.005) : 0)),
          `${c.name} ${what}: ${got} vs ${want}`,
        );
      const grouping = route.groupBy[0];
      if (grouping === 'type') {
        for (const t of ['node', 'way', 'relation']) close(groups.get(t)!, perArea(await values(baseRoute, narrowed(`type:${t}`))), t);
      } else if (grouping === 'contributionType') {
        const types = params.find(([k]) => k === 'contributionType')?.[1].split(',');
        for (const t of ['creation', 'deletion', 'tagChange', 'geometryChange']) {
          // with contributionType, a group outside it counts nothing here (creation and deletion carry no change flag)
          const want =
            types && !types.includes(t)
              ? groups.get(t)!.map(() => 0)
              : perArea(await values(baseRoute, [...params.filter(([k]) => k !== 'contributionType'), ['contributionType', t]]));
          close(groups.get(t)!, want, t);
        }
      } else if (grouping === 'element') {
        // each element's users: users/count narrowed to that element (the first 20 of them)
        for (const [name, v] of [...groups].slice(0, 20)) {
          const [type, id] = name.split('/');
          close(v, await values(baseRoute, narrowed(`type:${type} and id:${id}`)), name);
        }
      } else if (grouping === 'tag' && route.family === 'contributions') {
        // a contribution is in the group key=v when the tags that group it have it: the count narrowed to key=v
        for (const [name, v] of groups) if (name !== 'remainder') close(v, perArea(await values(baseRoute, narrowed(name.replace(/=(.*)$/, '="$1"')))), name);
      } else continue;
      checked += 1;
    }
    assert.ok(checked >= 14, `${checked} goldens checked`);
  });

  it('answers other methods with 405, Allow and the default error body with the attribution', async () => {
    for (const [path, allow] of [
      ['/v1/elements/count', 'GET,POST'],
      ['/v1/users/count/groupBy/type/', 'GET,POST'],
      ['/v1/metadata', 'GET'],
    ] as const) {
      for (const method of ['PUT', 'DELETE', 'PATCH', ...(allow === 'GET' ? ['POST'] : [])]) {
        const res = await fetch(`${base}${path}`, { method });
        assert.equal(res.status, 405, `${method} ${path}`);
        assert.equal(res.headers.get('allow'), allow);
        const body = await res.json();
        assert.deepEqual(Object.keys(body), ['attribution', 'timestamp', 'status', 'error', 'path']);
        assert.equal(body.status, 405);
        assert.equal(body.error, 'Method Not Allowed');
      }
    }
  });

  it('every JSON error answer carries the attribution: 400, 404 (parameter value, unknown path), an undecodable path, an unreadable multipart body (413, 500: robustness.test.ts)', async () => {
    const multipart = (body: string, contentType = 'multipart/form-data; boundary=x') =>
      fetch(`${base}/v1/elements/count`, { method: 'POST', headers: { 'content-type': contentType }, body });
    const answers = [
      await fetch(`${base}/v1/elements/count?bboxes=1,2,3`),
      await fetch(`${base}/v1/elements/count?bboxes=${TOWN}&time=2030-01-01`),
      await fetch(`${base}/v1/no/such/route`),
      await fetch(`${base}/v1/elements/%ZZ`), // refused before routing: the path cannot be decoded
      await multipart('garbage'),
      await multipart(`--x\r\nContent-Disposition: form-data; name="bboxes"\r\n\r\n${TOWN}`),
      await multipart('--x--\r\n', 'multipart/form-data'),
    ];
    const badPath = await answers[3]!.clone().json();
    assert.deepEqual([answers[3]!.status, badPath.error, badPath.path], [400, 'Bad Request', '/v1/elements/%ZZ']);
    for (const res of answers.slice(4)) {
      // A body the multipart parser cannot read (no boundary, cut short) is the client's fault.
      const body = await res.clone().json();
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.match(body.message, /^The multipart body could not be read: .+\.$/);
      assert.equal(body.requestUrl, `${base}/v1/elements/count`);
    }
    for (const res of answers) {
      const body = await res.json();
      assert.ok(res.status >= 400, String(res.status));
      assert.deepEqual(body.attribution, { url: 'https://www.openstreetmap.org/copyright', text: '© OpenStreetMap contributors' }, `${res.status}`);
    }
  });

  it('accepts a trailing slash', async () => {
    const a = await fetch(`${base}/v1/elements/count/?bboxes=${TOWN}&time=2016-01-01`);
    const b = await fetch(`${base}/v1/elements/count?bboxes=${TOWN}&time=2016-01-01`);
    assert.equal(a.status, 200);
    assert.equal(await a.text(), await b.text());
  });

  it('rejects other content types with the reference message, GET included', async () => {
    const msg = "Unsupported content-type header found. Please make sure to use either 'multipart/form-data' or 'application/x-www-form-urlencoded'.";
    const post = await fetch(`${base}/v1/elements/count`, {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: `<bboxes>${TOWN}</bboxes>`,
    });
    assert.equal(post.status, 400);
    const body = await post.json();
    assert.equal(body.message, msg);
    assert.equal(body.requestUrl, `${base}/v1/elements/count`); // POST without query: just the URL
    const get = await fetch(`${base}/v1/elements/count?bboxes=${TOWN}`, { headers: { 'content-type': 'text/plain' } });
    assert.equal(get.status, 400);
    assert.equal((await get.json()).message, msg);
  });

  it('takes query parameters before body parameters and rejects a parameter in both', async () => {
    const res = await fetch(`${base}/v1/elements/count?bboxes=${TOWN}&filter=building=*`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'filter=highway%3D*',
    });
    assert.equal(res.status, 400);
    const body = await res.json();
    assert.equal(body.message, "Every parameter has to be unique. You can't give more than one 'filter' parameter.");
    assert.equal(body.requestUrl, `${base}/v1/elements/count?bboxes=${TOWN}&filter=building=*`);
  });

  it('POST answers carry the request URL rebuilt from the posted fields (form and multipart, JSON and CSV)', async () => {
    const fields = { bboxes: TOWN, time: '2016-01-01', filter: 'building=* and type:way', showMetadata: 'true' };
    const want = `${base}/v1/elements/count?bboxes=${TOWN}&time=2016-01-01&filter=building=*%20and%20type:way&showMetadata=true`;
    const form = await fetch(`${base}/v1/elements/count`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    const body = await form.json();
    assert.equal(body.metadata.description, 'Total count of items in absolute values.');
    assert.equal(typeof body.metadata.executionTime, 'number');
    assert.equal(body.metadata.requestUrl, want);
    const multipart = new FormData();
    for (const [k, v] of Object.entries(fields)) multipart.append(k, v);
    assert.equal((await (await fetch(`${base}/v1/elements/count`, { method: 'POST', body: multipart })).json()).metadata.requestUrl, want);
    const csv = await (
      await fetch(`${base}/v1/elements/count`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...fields, format: 'csv' }).toString(),
      })
    ).text();
    assert.match(csv, new RegExp(`^# Request URL: ${want.replace(/[.*?()[\]|\\^$+]/g, '\\$&')}&format=csv$`, 'm'));
    // …and so do extraction answers
    const geojson = await (
      await fetch(`${base}/v1/elements/centroid`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      })
    ).json();
    assert.equal(geojson.metadata.requestUrl, want.replace('/elements/count', '/elements/centroid'));
  });

  it('sends the reference CORS headers, wildcard origin without credentials (SECURITY.md), and answers preflights', async () => {
    const res = await fetch(`${base}/v1/elements/count?bboxes=${TOWN}`, { headers: { origin: 'https://example.org' } });
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    assert.equal(res.headers.get('access-control-allow-credentials'), null);
    const pre = await fetch(`${base}/v1/elements/count`, {
      method: 'OPTIONS',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'POST' },
    });
    assert.ok(pre.status === 204 || pre.status === 200);
    assert.equal(pre.headers.get('access-control-allow-methods'), 'POST, GET');
    assert.equal(pre.headers.get('access-control-max-age'), '3600');
    assert.equal(pre.headers.get('access-control-allow-credentials'), null);
    // An OPTIONS without the preflight headers is no error either (Spring answers OPTIONS alike).
    const bare = await fetch(`${base}/v1/elements/count`, { method: 'OPTIONS' });
    assert.equal(bare.status, 204, await bare.clone().text());
    assert.equal(bare.headers.get('access-control-allow-methods'), 'POST, GET');
    assert.equal(await bare.text(), '');
  });

  it('gzips answers of 1400 bytes and more when asked', async () => {
    const raw = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      const req = httpRequest(`${base}/v1/elements/count?bboxes=${WHOLE}&time=2008-01-01/2016-01-01/P1M`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(raw.encoding, 'gzip');
    assert.ok(JSON.parse(gunzipSync(raw.body).toString('utf8')).result.length > 90);
    const small = await new Promise<string | undefined>((resolve, reject) => {
      const req = httpRequest(`${base}/v1/elements/count?bboxes=${TOWN}&time=2016-01-01`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        res.resume();
        resolve(res.headers['content-encoding']);
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(small, undefined);
  });

  it('sets Cache-Control by the time parameter', async () => {
    const cases: [string, string][] = [
      ['&time=2016-01-01', 'no-transform, public, max-age=31556926'],
      ['', 'no-cache, no-store, must-revalidate'],
      ['&time=2015-01-01/', 'no-cache, no-store, must-revalidate'],
      ['&time=2015-01-01//P1Y', 'no-cache, no-store, must-revalidate'],
    ];
    for (const [t, expected] of cases) {
      const res = await fetch(`${base}/v1/elements/count?bboxes=${TOWN}${t}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), expected, t);
    }
    const error = await fetch(`${base}/v1/elements/count?bboxes=${TOWN}&time=x`);
    assert.equal(error.headers.get('cache-control'), 'no-cache, no-store, must-revalidate');
  });

  it('serves CSV as an attachment', async () => {
    const res = await fetch(`${base}/v1/elements/count?bboxes=${TOWN}&format=csv`);
    assert.equal(res.headers.get('content-disposition'), 'attachment;filename=ohsome.csv');
  });

  it('serves /v1/metadata as the reference prints it', async () => {
    const res = await fetch(`${base}/v1/metadata`);
    const text = await res.text();
    assert.match(text, /\n  "timeout" : 100\.0,\n/);
    assert.match(text, /"replicationSequenceNumber" : 0\n/);
  });
});
