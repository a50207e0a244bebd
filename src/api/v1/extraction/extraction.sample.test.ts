/**
 * Extraction on the bundled sample (sample/andorra.osh.pbf): golden files, snapshot ids against
 * `osmium time-filter`, consistency with the aggregations (count, length, area), streaming
 * behaviour (gzip, order, disconnect, failures mid-stream), and the parameter rules. Every 200
 * answer is validated against the GeoJSON schema (test-support.ts).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { type ExtractionEngine } from '../../../engines/common/extraction.js';
import { createDuckDbExtractionEngine } from '../../../engines/duckdb/extraction.js';
import { areaOf, lengthOf } from '../../../geometry/measures.js';
import type { Geometry } from '../../../geometry/types.js';
import type { ExtractedFeature } from '../../../query/extraction.js';
import { importToTemp, type ImportedDb } from '../../../store/test-support.js';
import { createDuckDbServer as createServer } from '../../../testing/server.js';
import { assertValidGeoJson, extract, postExtract, type Feature } from './test-support.js';

const SAMPLE = join(process.cwd(), 'sample', 'andorra.osh.pbf');
const GOLDEN = join(process.cwd(), 'src', 'api', 'v1', 'extraction', 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const TOWN = '1.515,42.500,1.540,42.515';
const TYPES = ['node', 'way', 'relation'];

/** The golden requests: small areas, every family and geometry type, the properties combinations. */
const GOLDEN_CASES: { name: string; path: string; params: Record<string, string> }[] = [
  {
    name: 'elements-geometry-buildings-tags-metadata',
    path: '/elements/geometry',
    params: { bboxes: '1.520,42.505,1.525,42.510', filter: 'building=*', time: '2016-01-01', properties: 'tags,metadata' },
  },
  {
    name: 'elements-bbox-two-timestamps',
    path: '/elements/bbox',
    params: { bboxes: '1.520,42.505,1.523,42.508', filter: 'building=*', time: '2012-01-01,2016-01-01' },
  },
  {
    name: 'elements-centroid-amenity-nodes',
    path: '/elements/centroid',
    params: { bboxes: TOWN, filter: 'type:node and amenity=*', time: '2016-01-01', properties: 'tags' },
  },
  {
    name: 'elements-geometry-highway-unclipped',
    path: '/elements/geometry',
    params: { bboxes: '1.530,42.505,1.532,42.507', filter: 'highway=*', time: '2016-01-01', properties: 'unclipped,tags' },
  },
  {
    name: 'elements-geometry-highway-clipped-metadata',
    path: '/elements/geometry',
    params: { bboxes: '1.530,42.505,1.532,42.507', filter: 'highway=*', time: '2016-01-01', showMetadata: 'true' },
  },
  {
    name: 'elements-geometry-bpolys',
    path: '/elements/geometry',
    params: { bpolys: '1.530,42.505,1.532,42.505,1.531,42.507,1.530,42.505', filter: 'highway=*', time: '2016-01-01' },
  },
  {
    name: 'fullhistory-geometry-highway-primary',
    path: '/elementsFullHistory/geometry',
    params: { bboxes: '1.530,42.505,1.532,42.507', filter: 'highway=primary', time: '2012-01-01,2016-01-01', properties: 'metadata' },
  },
  {
    name: 'fullhistory-centroid-buildings-tags',
    path: '/elementsFullHistory/centroid',
    params: { bboxes: '1.520,42.505,1.523,42.508', filter: 'building=*', time: '2010-01-01,2016-01-01', properties: 'tags' },
  },
  {
    name: 'contributions-geometry-buildings-metadata',
    path: '/contributions/geometry',
    params: { bboxes: '1.520,42.505,1.525,42.510', filter: 'building=*', time: '2014-01-01,2016-01-01', properties: 'metadata,tags' },
  },
  {
    name: 'contributions-bbox-types',
    path: '/contributions/bbox',
    params: { bboxes: '1.520,42.505,1.525,42.510', filter: 'highway=*', time: '2010-01-01,2016-01-01', properties: 'contributionTypes' },
  },
  {
    name: 'contributions-latest-geometry',
    path: '/contributions/latest/geometry',
    params: { bboxes: '1.520,42.505,1.525,42.510', filter: 'building=*', time: '2010-01-01,2016-01-01', properties: 'contributionTypes,tags' },
  },
  {
    name: 'contributions-latest-centroid-unclipped',
    path: '/contributions/latest/centroid',
    params: { bboxes: '1.530,42.505,1.532,42.507', filter: 'highway=*', time: '2010-01-01,2016-01-01', clipGeometry: 'false' },
  },
];

function lengthSum(features: Feature[]): number {
  return features.reduce((s, f) => s + lengthOf(f.geometry as unknown as Geometry), 0);
}
function areaSum(features: Feature[]): number {
  return features.reduce((s, f) => s + areaOf(f.geometry as unknown as Geometry), 0);
}

describe('extraction on the sample', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let base: string;
  before(async () => {
    db = await importToTemp(SAMPLE);
    app = await createServer(db.store, { timeoutSeconds: 100 });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await app.close();
    db.dispose();
  });

  for (const c of GOLDEN_CASES) {
    it(`golden: ${c.name} (GET and POST)`, async () => {
      const get = await extract(base, c.path, c.params);
      assert.equal(get.status, 200, get.text);
      assert.equal(get.headers.get('content-type'), 'application/geo+json; charset=utf-8');
      assert.ok(get.features.length > 0, 'a golden case should not be empty');
      const text = get.text.split(base).join('http://localhost');
      const file = join(GOLDEN, `${c.name}.geojson`);
      if (UPDATE || !existsSync(file)) {
        mkdirSync(GOLDEN, { recursive: true });
        writeFileSync(file, text);
      }
      assert.equal(text, readFileSync(file, 'utf8'));
      const post = await postExtract(base, c.path, c.params);
      assert.equal(post.text.replace(/,\n\s*"requestUrl" : "[^"]*"/, ''), get.text.replace(/,\n\s*"requestUrl" : "[^"]*"/, ''));
    });
  }

  it('snapshots of the whole sample at three dates have the ids of osmium time-filter', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'maphist-osmium-'));
    try {
      const m = db.store.metadata;
      const whole = (m.spatialExtent.coordinates[0] as number[][])
        .reduce((b, [x, y]) => [Math.min(b[0], x), Math.min(b[1], y), Math.max(b[2], x), Math.max(b[3], y)], [Infinity, Infinity, -Infinity, -Infinity])
        .map((v, i) => (i < 2 ? v - 0.01 : v + 0.01)); // a margin: points on the area's edge are outside it
      // Version 1 extracts only the nodes that carried a tag in some version: their ids from osmium's
      // listing of every version (the OPL tags field is `T` followed by the tags, empty when none).
      const all = join(dir, 'all-nodes.opl');
      execFileSync('/usr/bin/osmium', ['cat', SAMPLE, '-t', 'node', '-f', 'opl', '-o', all, '--overwrite']);
      const everTagged = new Set<string>();
      for (const line of readFileSync(all, 'utf8').split('\n')) {
        if (line !== '' && !/ T( |$)/.test(line)) everTagged.add(`node/${line.slice(1, line.indexOf(' '))}`);
      }
      assert.ok(everTagged.size > 10_000 && everTagged.size < 100_000, `${everTagged.size} ever-tagged nodes`);
      for (const date of ['2010-01-01T00:00:00Z', '2014-06-01T00:00:00Z', '2017-01-01T00:00:00Z']) {
        const out = join(dir, `${date.slice(0, 10)}.opl`);
        execFileSync('/usr/bin/osmium', ['time-filter', SAMPLE, date, '-o', out, '-f', 'opl', '--overwrite']);
        const osmium = { node: new Set<string>(), way: new Set<string>(), highway: new Set<string>(), building: new Set<string>() };
        for (const line of readFileSync(out, 'utf8').split('\n')) {
          if (line === '') continue;
          const t = line[0];
          const id = line.slice(1, line.indexOf(' '));
          const tags = / T([^ ]*)/.exec(line)?.[1] ?? '';
          const keys = tags === '' ? [] : tags.split(',').map((kv) => kv.slice(0, kv.indexOf('=')));
          if (t === 'n' && everTagged.has(`node/${id}`)) osmium.node.add(`node/${id}`);
          if (t === 'w') osmium.way.add(`way/${id}`);
          if (t === 'w' && keys.includes('highway')) osmium.highway.add(`way/${id}`);
          if (t === 'w' && keys.includes('building')) osmium.building.add(`way/${id}`);
        }
        const ids = async (filter: string) => {
          const r = await extract(base, '/elements/centroid', { bboxes: whole.join(','), time: date, filter });
          assert.equal(r.status, 200);
          return new Set(r.features.map((f) => String(f.properties['@osmId'])));
        };
        // Every ever-tagged node has a location; ways that have a geometry (osmium keeps ways whose nodes the extract cut).
        assert.deepEqual([...(await ids('type:node'))].sort(), [...osmium.node].sort(), `nodes ${date}`);
        for (const [name, filter] of [
          ['highway', 'type:way and highway=*'],
          ['building', 'type:way and building=*'],
        ] as const) {
          const mine = await ids(filter);
          const want = osmium[name];
          for (const id of mine) assert.ok(want.has(id), `${id} not in osmium (${name}, ${date})`);
          const missing = [...want].filter((id) => !mine.has(id));
          // A way osmium keeps but without a geometry in the store (all its nodes cut off) is the only allowed difference.
          for (const id of missing) {
            const rows = await db.query<{ n: bigint }>(
              `SELECT count(*) AS n FROM states WHERE type = 1 AND id = ${id.split('/')[1]} AND geometry IS NOT NULL AND NOT deleted`,
            );
            assert.equal(Number(rows[0].n), 0, `${id} missing from the extraction (${name}, ${date})`);
          }
          assert.ok(missing.length <= want.size / 100, `${name} ${date}: ${missing.length} missing`);
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('consistency: feature count = elements/count, clipped lengths and areas = elements/length and /area', async () => {
    const agg = async (path: string, params: Record<string, string>) => {
      const res = await fetch(`${base}/v1${path}?${new URLSearchParams(params)}`);
      const j = (await res.json()) as { result: { value: number }[] };
      return j.result[0].value;
    };
    const areas: Record<string, string>[] = [
      { bboxes: TOWN },
      { bboxes: '1.45,42.45,1.60,42.60' },
      { bboxes: 'a:1.52,42.50,1.53,42.51|b:1.535,42.505,1.545,42.515' },
      { bpolys: '1.50,42.49,1.56,42.49,1.53,42.53,1.50,42.49' },
    ];
    for (const area of areas) {
      for (const filter of ['highway=*', 'building=*', 'waterway=* or natural=water', 'type:node']) {
        for (const time of ['2012-01-01', '2017-01-01']) {
          const params = { ...area, filter, time };
          const r = await extract(base, '/elements/geometry', params);
          const what = JSON.stringify(params);
          assert.equal(r.features.length, await agg('/elements/count', params), `count ${what}`);
          const len = await agg('/elements/length', params);
          assert.ok(Math.abs(lengthSum(r.features) - len) <= Math.max(0.02, len * 1e-6), `length ${what}: ${lengthSum(r.features)} vs ${len}`);
          const area2 = await agg('/elements/area', params);
          assert.ok(Math.abs(areaSum(r.features) - area2) <= Math.max(0.02, area2 * 1e-5), `area ${what}: ${areaSum(r.features)} vs ${area2}`);
        }
      }
    }
  });

  it('value patterns (`~`, a v1 extension): every extraction family selects what the aggregations count', async () => {
    const count = async (path: string, params: Record<string, string>) => {
      const j = (await (await fetch(`${base}/v1${path}?${new URLSearchParams(params)}`)).json()) as { result: { value: number }[] };
      return j.result.reduce((s, r) => s + r.value, 0);
    };
    for (const filter of ['name~Carrer*', 'highway=* and name~*de*', 'not name~*a and building=*']) {
      const params = { bboxes: TOWN, filter, time: '2012-01-01,2016-01-01' };
      const what = JSON.stringify(params);
      const snapshots = await count('/elements/count', params);
      assert.ok(snapshots > 0, `${what} selects something`);
      assert.equal((await extract(base, '/elements/centroid', params)).features.length, snapshots, `elements ${what}`);
      assert.equal(
        (await extract(base, '/contributions/centroid', params)).features.length,
        await count('/contributions/count', params),
        `contributions ${what}`,
      );
      assert.equal(
        (await extract(base, '/contributions/latest/centroid', params)).features.length,
        await count('/contributions/latest/count', params),
        `latest ${what}`,
      );
    }
  });

  it('features come in a stable order: type, id, time', async () => {
    const r = await extract(base, '/elements/centroid', { bboxes: TOWN, time: '2010-01-01,2013-01-01,2016-01-01' });
    const keys = r.features.map((f) => {
      const [t, id] = String(f.properties['@osmId']).split('/');
      return [TYPES.indexOf(t), Number(id), Date.parse(String(f.properties['@snapshotTimestamp']))];
    });
    for (let i = 1; i < keys.length; i++) {
      const [a, b] = [keys[i - 1], keys[i]];
      assert.ok(a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] < b[2]))), `order at ${i}`);
    }
    const again = await extract(base, '/elements/centroid', { bboxes: TOWN, time: '2010-01-01,2013-01-01,2016-01-01' });
    assert.equal(again.text, r.text);
  });

  it('gzip when the client accepts it, identity otherwise', async () => {
    const get = (encoding: string | undefined) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        const u = new URL(`${base}/v1/elements/geometry?${new URLSearchParams({ bboxes: TOWN, time: '2016-01-01', filter: 'building=*' })}`);
        const req = httpRequest(u, { headers: encoding ? { 'accept-encoding': encoding } : {} }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (d: Buffer) => parts.push(d));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      });
    const z = await get('gzip, deflate');
    assert.equal(z.headers['content-encoding'], 'gzip');
    assert.equal(z.headers['transfer-encoding'], 'chunked');
    const plain = await get(undefined);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(gunzipSync(z.body).toString('utf8'), plain.body.toString('utf8'));
    assertValidGeoJson(plain.body.toString('utf8'));
    assert.equal(plain.headers['access-control-allow-origin'], '*');
    assert.match(String(plain.headers['content-disposition']), /attachment/);
  });

  it('validates before the first byte: parameter errors are ordinary error answers', async () => {
    const cases: [string, Record<string, string>, number, RegExp][] = [
      ['/elements/geometry', { bboxes: TOWN, time: '2016-01-01', format: 'json' }, 400, /Unknown parameter 'format'/],
      ['/contributions/geometry', { bboxes: TOWN, time: '2014-01-01,2016-01-01', contributionType: 'creation' }, 400, /Unknown parameter/],
      ['/elements/geometry', { bboxes: TOWN, time: '2016-01-01', properties: 'contributionTypes' }, 400, /properties parameter/],
      ['/contributions/geometry', { bboxes: TOWN, time: '2014-01-01,2016-01-01', properties: 'bogus' }, 400, /contributionTypes/],
      ['/elements/geometry', { bboxes: TOWN, time: '2016-01-01', clipGeometry: 'maybe' }, 400, /clipGeometry/],
      ['/elementsFullHistory/geometry', { bboxes: TOWN, time: '2014-01-01' }, 400, /at least two timestamps/],
      ['/elementsFullHistory/geometry', { bboxes: TOWN, time: '2014-01-01/2016-01-01/P1Y' }, 400, /exactly two/],
      ['/elements/geometry', { bboxes: TOWN, time: '1990-01-01' }, 404, /timeframe/],
      ['/elements/geometry', { bboxes: TOWN, time: '2016-01-01', filter: 'building=' }, 400, /./],
    ];
    for (const [path, params, status, message] of cases) {
      const r = await extract(base, path, params);
      assert.equal(r.status, status, `${path} ${JSON.stringify(params)}: ${r.text}`);
      assert.match(JSON.parse(r.text).message, message);
    }
    const r = await fetch(`${base}/v1/elements/geometry`, { method: 'PUT' });
    assert.equal(r.status, 405);
  });

  it('an empty extraction is a complete, valid document', async () => {
    const r = await extract(base, '/elements/geometry', { bboxes: TOWN, time: '2016-01-01', filter: 'building=nonexistent-value' });
    assert.equal(r.status, 200);
    assert.equal(r.features.length, 0);
    assert.ok(r.text.endsWith(']\n}\n'));
  });

  it('a whole-world extraction passes over elements without any geometry (ways whose nodes are all missing)', async () => {
    // The whole world keeps such states (they count in /elements/count, as the reference counts
    // them); there is nothing to extract for them. They used to fail the stream mid-way.
    // In the sample, such ways (first versions drawn in September 2007) are valid on 2007-09-20.
    const rows = await db.query<{ n: bigint }>(
      `SELECT count(*) AS n FROM states WHERE type = 1 AND geometry IS NULL AND NOT deleted AND valid_from <= ${Date.UTC(2007, 8, 20) / 1000} AND valid_to > ${Date.UTC(2007, 8, 20) / 1000}`,
    );
    assert.ok(Number(rows[0].n) > 0, 'the sample has geometry-less ways on 2007-09-20');
    for (const [path, time] of [
      ['/elements/geometry', '2007-09-20'],
      ['/elementsFullHistory/geometry', '2007-09-01,2007-10-01'],
    ]) {
      const r = await extract(base, path, { bboxes: '-180,-90,180,90', time, filter: 'type:way' });
      assert.equal(r.status, 200, `${path}: ${r.text.slice(0, 200)}`);
      assert.ok(r.features.length > 100, `${path}: ${r.features.length} features`);
      assert.ok(
        r.features.every((f) => f.geometry !== null),
        path,
      );
    }
  });

  describe('streaming failures (an instrumented engine)', () => {
    let engine: ExtractionEngine;
    let mini: FastifyInstance;
    let miniBase: string;
    let mode: { repeat: number; failAfter?: number; delayMs?: number } = { repeat: 1 };
    const stats = { yielded: 0, closed: false };
    before(async () => {
      engine = await createDuckDbExtractionEngine(db.store);
      const instrumented: ExtractionEngine = {
        async *extract(q) {
          stats.yielded = 0;
          stats.closed = false;
          try {
            for (let k = 0; k < mode.repeat; k++) {
              for await (const f of engine.extract(q)) {
                if (mode.failAfter !== undefined && stats.yielded >= mode.failAfter) throw new Error('injected failure');
                if (mode.delayMs) await new Promise((r) => setTimeout(r, mode.delayMs));
                stats.yielded++;
                yield f as ExtractedFeature;
              }
            }
          } finally {
            stats.closed = true;
          }
        },
      };
      mini = await createServer(db.store, { timeoutSeconds: 100, replace: { extraction: async () => instrumented } });
      miniBase = await mini.listen({ port: 0, host: '127.0.0.1' });
    });
    after(async () => {
      await mini.close();
    });
    const big = { bboxes: '1.40,42.40,1.80,42.70', time: '2016-01-01', filter: 'building=*', properties: 'tags,metadata' };
    const waitFor = async (cond: () => boolean, ms = 5000) => {
      const t0 = Date.now();
      while (!cond() && Date.now() - t0 < ms) await new Promise((r) => setTimeout(r, 10));
      return cond();
    };

    for (const gzip of [false, true]) {
      it(`a client that disconnects mid-stream stops the query${gzip ? ' (gzip)' : ''}`, async () => {
        mode = { repeat: 50 };
        const total = (await extract(base, '/elements/geometry', big)).features.length * 50;
        await new Promise<void>((resolve, reject) => {
          const headers = gzip ? { 'accept-encoding': 'gzip' } : {};
          const req = httpRequest(new URL(`${miniBase}/v1/elements/geometry?${new URLSearchParams(big)}`), { headers }, (res) => {
            // Read nothing more after the first bytes, so the server's buffers fill before the disconnect.
            res.once('data', () => {
              res.pause();
              setTimeout(() => {
                req.destroy();
                resolve();
              }, 200);
            });
          });
          req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
          req.end();
        });
        assert.ok(await waitFor(() => stats.closed), 'the feature iterator (and its DuckDB statement) is closed');
        assert.ok(stats.yielded < total / 2, `${stats.yielded} of ${total} features produced`);
      });
    }

    it('a failure mid-stream aborts the connection instead of finishing the document', async () => {
      mode = { repeat: 1, failAfter: 500 };
      const res = await fetch(`${miniBase}/v1/elements/geometry?${new URLSearchParams(big)}`);
      assert.equal(res.status, 200);
      await assert.rejects(res.text());
      assert.ok(await waitFor(() => stats.closed));
    });

    it('a failure before the first feature is an ordinary 500', async () => {
      mode = { repeat: 1, failAfter: 0 };
      const res = await fetch(`${miniBase}/v1/elements/geometry?${new URLSearchParams(big)}`);
      assert.equal(res.status, 500);
      assert.equal(JSON.parse(await res.text()).error, 'Internal Server Error');
    });

    it('the time limit striking mid-stream aborts the connection; before the first byte it is a 413', async () => {
      // ~10,000 buildings at 1 ms each outlast a 1.5 s limit; the first feature comes well before it.
      mode = { repeat: 1, delayMs: 1 };
      const res = await fetch(`${miniBase}/v1/elements/geometry?${new URLSearchParams({ ...big, timeout: '1.5' })}`);
      assert.equal(res.status, 200);
      await assert.rejects(res.text());
      assert.ok(await waitFor(() => stats.closed));
      mode = { repeat: 1 };
      const early = await fetch(`${miniBase}/v1/elements/geometry?${new URLSearchParams({ ...big, timeout: '0' })}`);
      assert.equal(early.status, 413);
    });
  });
});
