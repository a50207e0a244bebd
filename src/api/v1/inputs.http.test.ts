/**
 * Issue 22's new v1 inputs on the bundled sample (Andorra):
 * - boundaries by relation id (`bpolys=relation/<id>`): the answer equals the one for the relation's
 *   polygon pasted as GeoJSON bpolys, the polygon taken independently by osmium (`osmium
 *   time-filter` at the request's last timestamp, `getid -r`, `export`), on aggregation and
 *   extraction routes; and the errors (unknown, absent at that time, not areal, malformed);
 * - JSON bodies: the form's answer on extraction routes (the aggregation routes and every error
 *   case: golden.test.ts), and the JSON body's own errors.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { importToTemp, type ImportedDb } from '../../store/test-support.js';
import { REPO_ROOT } from '../../testing/test-data.js';
import { createDuckDbServer as createServer } from '../../testing/server.js';

const HAS_OSMIUM = spawnSync('osmium', ['--version']).status === 0;
const SAMPLE = join(REPO_ROOT, 'sample', 'andorra.osh.pbf');

/** Parishes of Andorra (boundary relations, admin_level 7 and 8) with their polygons on 2016-01-01. */
const VELLA = 2804753;
const ESCALDES = 2804756;
const VELLA_TOWN = 3657693;
/** Canejan: a boundary relation whose member ways the extract cut (its geometry is a GeometryCollection). */
const CUT = 339496;

interface Feature {
  type: 'Feature';
  id: string;
  properties: Record<string, unknown>;
  geometry: { type: string; coordinates: unknown };
}

/** osmium's polygons of relations at a time: snapshot, the relations with their members, areas exported. */
function osmiumPolygons(dir: string, time: string, relations: number[]): Map<number, Feature['geometry']> {
  const snap = join(dir, `snap-${time.slice(0, 10)}.osm.pbf`);
  const rels = join(dir, `rels-${time.slice(0, 10)}.osm.pbf`);
  const out = join(dir, `rels-${time.slice(0, 10)}.geojson`);
  execFileSync('osmium', ['time-filter', '-O', SAMPLE, time, '-o', snap]);
  execFileSync('osmium', ['getid', '-O', '-r', snap, ...relations.map((r) => `r${r}`), '-o', rels]);
  execFileSync('osmium', ['export', '-O', rels, '-f', 'geojson', '--geometry-types=polygon', '-a', 'type,id', '-o', out]);
  const fc = JSON.parse(readFileSync(out, 'utf8')) as { features: Feature[] };
  const polygons = new Map<number, Feature['geometry']>();
  for (const f of fc.features) if (f.properties['@type'] === 'relation') polygons.set(Number(f.properties['@id']), f.geometry);
  return polygons;
}

function collection(features: [id: string, geometry: Feature['geometry']][]): string {
  return JSON.stringify({ type: 'FeatureCollection', features: features.map(([id, geometry]) => ({ type: 'Feature', id, properties: {}, geometry })) });
}

/** The answer without what differs between two requests for the same thing: the echoed URL and timings. */
function comparable(text: string): string {
  return text
    .replace(/,\n\s*"requestUrl" : "(?:[^"\\]|\\.)*"/g, '')
    .replace(/"executionTime" : \d+/g, '"executionTime" : 0')
    .replace(/"timestamp" : "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+"/g, '"timestamp" : "<now>"');
}

describe('v1 issue 22 inputs (sample/andorra.osh.pbf)', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let base: string;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'maphist-inputs-'));
    db = await importToTemp(SAMPLE);
    app = await createServer(db.store, { timeoutSeconds: 100 });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await app.close();
    db.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = async (path: string, params: Record<string, string>) => {
    const res = await fetch(`${base}/v1${path}?${new URLSearchParams(params)}`);
    return { status: res.status, body: await res.text() };
  };
  const postForm = async (path: string, params: Record<string, string>) => {
    const res = await fetch(`${base}/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params).toString(),
    });
    return { status: res.status, body: await res.text() };
  };
  const postJson = async (path: string, body: unknown, contentType = 'application/json') => {
    const res = await fetch(`${base}/v1${path}`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, contentType: res.headers.get('content-type'), body: await res.text() };
  };

  describe('boundaries by relation id', { skip: !HAS_OSMIUM && 'osmium is not installed' }, () => {
    // [route, parameters without the boundary]; the last timestamp of each is 2016-01-01.
    const CASES: [string, Record<string, string>][] = [
      ['/elements/count/groupBy/boundary', { time: '2012-01-01/2016-01-01/P1Y', filter: 'building=*' }],
      ['/elements/area/groupBy/boundary', { time: '2014-01-01,2016-01-01', filter: 'landuse=* and geometry:polygon' }],
      [
        '/elements/length/groupBy/boundary/groupBy/tag',
        { time: '2016-01-01', filter: 'type:way and highway=*', groupByKey: 'highway', groupByValues: 'residential,service,track' },
      ],
      ['/elements/perimeter/density/groupBy/boundary', { time: '2016-01-01', filter: 'building=*' }],
      ['/elements/count', { time: '2016-01-01', filter: 'amenity=*' }],
      ['/users/count/groupBy/boundary', { time: '2013-01-01/2016-01-01/P1Y', filter: 'building=*' }],
      ['/contributions/count/groupBy/boundary', { time: '2014-01-01,2015-01-01,2016-01-01', filter: 'highway=*' }],
      ['/contributions/latest/count', { time: '2014-01-01,2016-01-01', filter: 'building=*' }],
      ['/elements/geometry', { time: '2016-01-01', filter: 'building=* and type:way', properties: 'tags' }],
      ['/elements/centroid', { time: '2016-01-01', filter: 'amenity=*' }],
      ['/elementsFullHistory/geometry', { time: '2015-06-01,2016-01-01', filter: 'shop=*' }],
      ['/contributions/geometry', { time: '2015-01-01,2016-01-01', filter: 'building=*', properties: 'metadata' }],
    ];
    let pasted: string;
    let pastedOne: string;
    let polygons: Map<number, Feature['geometry']>;
    before(() => {
      polygons = osmiumPolygons(dir, '2016-01-01T00:00:00Z', [VELLA, ESCALDES, VELLA_TOWN]);
      assert.deepEqual([...polygons.keys()].sort(), [VELLA, ESCALDES, VELLA_TOWN].sort(), 'osmium assembles the three parishes');
      pasted = collection([
        ['vella', polygons.get(VELLA)!],
        [`relation/${ESCALDES}`, polygons.get(ESCALDES)!],
        ['town', polygons.get(VELLA_TOWN)!],
      ]);
      pastedOne = collection([[`relation/${VELLA}`, polygons.get(VELLA)!]]);
    });

    for (const [path, params] of CASES) {
      it(`${path}: relations give the answer of their osmium polygons pasted as bpolys`, async () => {
        const byRelation = await get(path, { ...params, bpolys: `vella:relation/${VELLA}|relation/${ESCALDES}|town:relation/${VELLA_TOWN}` });
        const byPolygon = await get(path, { ...params, bpolys: pasted });
        assert.equal(byRelation.status, 200, byRelation.body);
        assert.equal(byPolygon.status, 200, byPolygon.body);
        assert.equal(comparable(byRelation.body), comparable(byPolygon.body));
        // The answer has something in it (a comparison of two empty answers proves nothing).
        assert.match(byRelation.body, /"value" : [1-9]|"type" : "Feature"/);
      });
    }

    it('one relation without an id is `relation/<id>`; POST form and JSON body give the same answer', async () => {
      const params = { time: '2016-01-01', filter: 'building=*', format: 'csv' };
      const path = '/elements/count/groupBy/boundary';
      const expected = comparable((await get(path, { ...params, bpolys: pastedOne })).body);
      assert.match(expected, /relation\/2804753/);
      const form = await postForm(path, { ...params, bpolys: `relation/${VELLA}` });
      assert.equal(comparable(form.body).replace(/^# Request URL: .*\n/m, ''), expected.replace(/^# Request URL: .*\n/m, ''));
      const json = await postJson(path, { ...params, bpolys: [`relation/${VELLA}`] });
      assert.equal(json.status, 200, json.body);
      assert.equal(json.body, form.body);
    });

    it("the polygon is the relation's at the last timestamp: another time, another polygon (osmium's at that time)", async () => {
      // Andorra la Vella (admin_level 8) changed its boundary between 2015-07-01 and 2016-01-01.
      const rows = await db.query<{ n: bigint }>(
        `SELECT count(DISTINCT geometry)::BIGINT AS n FROM states WHERE type = 2 AND id = ${VELLA_TOWN}
         AND valid_from < ${Date.parse('2016-01-01') / 1000} AND valid_to > ${Date.parse('2015-07-01') / 1000}`,
      );
      assert.ok(Number(rows[0]!.n) >= 2, 'the relation has two geometries in the range');
      const earlier = osmiumPolygons(dir, '2015-07-01T00:00:00Z', [VELLA_TOWN]).get(VELLA_TOWN)!;
      const params = { filter: 'geometry:polygon', time: '2014-01-01,2015-07-01' };
      const byRelation = await get('/elements/area', { ...params, bpolys: `relation/${VELLA_TOWN}` });
      const byEarlier = await get('/elements/area', { ...params, bpolys: collection([['x', earlier]]) });
      const byLater = await get('/elements/area', { ...params, bpolys: collection([['x', polygons.get(VELLA_TOWN)!]]) });
      assert.equal(byRelation.status, 200, byRelation.body);
      assert.equal(comparable(byRelation.body), comparable(byEarlier.body));
      assert.notEqual(comparable(byRelation.body), comparable(byLater.body));
    });

    it("every route's JSON body example in /v1/openapi.json (relations as bpolys) answers 200", async () => {
      const doc = (await (await fetch(`${base}/v1/openapi.json`)).json()) as {
        paths: Record<string, { post?: { requestBody: { content: Record<string, { example?: unknown }> } } }>;
      };
      let posted = 0;
      for (const [path, item] of Object.entries(doc.paths)) {
        const example = item.post?.requestBody.content['application/json']?.example;
        if (example === undefined) continue;
        const res = await postJson(path, example);
        assert.equal(res.status, 200, `${path} ${JSON.stringify(example)}: ${res.body.slice(0, 400)}`);
        posted++;
      }
      assert.ok(posted >= 70, String(posted));
    });

    const error = async (bpolys: string, time = '2016-01-01') => {
      const res = await get('/elements/count', { bpolys, time });
      const body = JSON.parse(res.body) as { status: number; message: string; attribution: unknown };
      assert.equal(body.status, res.status);
      assert.ok(body.attribution);
      return body;
    };

    it('an unknown relation: 404 BOUNDARY_RELATION_NOT_FOUND', async () => {
      const e = await error(`relation/${VELLA}|missing:relation/1`);
      assert.equal(e.status, 404);
      assert.equal(e.message, "Relation 1 (boundary 'missing') is not in the data. Give the id of a boundary or multipolygon relation the data holds.");
    });

    it('a relation that did not exist at the last timestamp: 404', async () => {
      const e = await error(`relation/${VELLA}`, '2008-01-01');
      assert.equal(e.status, 404);
      assert.match(e.message, /^Relation 2804753 \(boundary 'relation\/2804753'\) did not exist at 2008-01-01T00:00:00Z, the request's last timestamp/);
    });

    it('a relation without a polygon at that time: 400 BOUNDARY_RELATION_NOT_AREAL', async () => {
      const e = await error(`relation/${CUT}`);
      assert.equal(e.status, 400);
      assert.match(
        e.message,
        /^Relation 339496 \(boundary 'relation\/339496'\) has no polygon at 2016-01-01T00:00:00Z \(version \d+\): its geometry is a GeometryCollection/,
      );
      const route = await db.query<{ id: bigint }>(
        `SELECT id FROM contributions WHERE type = 'relation' AND tags['type'] = 'route' AND NOT deleted AND valid_from <= TIMESTAMP '2016-01-01' AND (valid_to IS NULL OR valid_to > TIMESTAMP '2016-01-01') LIMIT 1`,
      );
      const r = await error(`relation/${route[0]!.id}`);
      assert.equal(r.status, 400);
      assert.match(r.message, /has no polygon at .*: its geometry is a (?:MultiLineString|LineString|GeometryCollection)/);
    });

    it('malformed or mixed relation lists and repeated ids: 400 BOUNDARY_INVALID', async () => {
      const mixed = await error(`relation/${VELLA}|1.5,42.5,1.6,42.5,1.55,42.55,1.5,42.5`);
      assert.equal(mixed.status, 400);
      assert.match(mixed.message, /^The bpolys parameter names relations, so every boundary object in it must be one/);
      assert.equal((await error('relation/x')).status, 400);
      const repeated = await error(`relation/${VELLA}|relation/${VELLA}`);
      assert.equal(repeated.status, 400);
      assert.match(repeated.message, /The boundary ids must be unique, but 'relation\/2804753' is given more than once/);
    });
  });

  describe('JSON bodies', () => {
    const TOWN = '1.515,42.500,1.540,42.515';

    for (const [path, params] of [
      ['/elements/geometry', { bboxes: TOWN, time: '2016-01-01', filter: 'building=*', properties: 'tags,metadata', showMetadata: 'true' }],
      ['/elements/bbox', { bboxes: `a:${TOWN}|b:1.52,42.505,1.53,42.51`, time: '2015-01-01', filter: 'highway=*' }],
      ['/contributions/latest/centroid', { bcircles: '1.5218,42.5063,500', time: '2014-01-01,2016-01-01', filter: 'amenity=*' }],
      ['/elementsFullHistory/geometry', { bboxes: TOWN, time: '2015-01-01,2016-01-01', filter: 'shop=*', clipGeometry: 'false' }],
    ] as [string, Record<string, string>][]) {
      it(`${path}: a JSON body gives the form body's answer`, async () => {
        const form = await postForm(path, params);
        assert.equal(form.status, 200, form.body);
        assert.match(form.body, /"type" : "Feature"/);
        const json = await postJson(path, { ...params, time: params.time!.split(','), ...(params.showMetadata ? { showMetadata: true } : {}) });
        assert.equal(json.status, 200, json.body);
        assert.equal(json.contentType, 'application/geo+json; charset=utf-8');
        assert.equal(comparable(json.body), comparable(form.body));
      });
    }

    it('a bpolys GeoJSON object, numbers and arrays of numbers answer as their text', async () => {
      const polygon = {
        type: 'Polygon',
        coordinates: [
          [
            [1.5, 42.5],
            [1.56, 42.5],
            [1.53, 42.55],
            [1.5, 42.5],
          ],
        ],
      };
      const fc = { type: 'FeatureCollection', features: [{ type: 'Feature', id: 7, properties: {}, geometry: polygon }] };
      const form = await postForm('/elements/count/groupBy/boundary', { bpolys: JSON.stringify(fc), time: '2016-01-01', timeout: '50' });
      const json = await postJson('/elements/count/groupBy/boundary', { bpolys: fc, time: '2016-01-01', timeout: 50 });
      assert.equal(form.status, 200);
      assert.equal(json.body, form.body);
      const boxesForm = await postForm('/elements/count/groupBy/boundary', { bboxes: `${TOWN}|1.52,42.505,1.53,42.51`, time: '2016-01-01' });
      const boxesJson = await postJson('/elements/count/groupBy/boundary', {
        bboxes: [
          [1.515, 42.5, 1.54, 42.515],
          [1.52, 42.505, 1.53, 42.51],
        ],
        time: '2016-01-01',
      });
      assert.equal(boxesForm.status, 200);
      assert.equal(comparable(boxesJson.body), comparable(boxesForm.body.replace('1.515,42.500,1.540,42.515', '1.515,42.5,1.54,42.515')));
    });

    const refused = async (body: string, contentType = 'application/json') => {
      const res = await postJson('/elements/count', body, contentType);
      assert.match(res.contentType ?? '', /^application\/json/);
      const parsed = JSON.parse(res.body) as { status: number; message: string; attribution: unknown; requestUrl: string };
      assert.equal(parsed.status, res.status);
      assert.ok(parsed.attribution);
      assert.equal(parsed.requestUrl, `${base}/v1/elements/count`);
      return parsed;
    };

    it('malformed JSON, and JSON that is not an object of strings, numbers, booleans and arrays: 400 with the v1 error body', async () => {
      const broken = await refused(`{"bboxes": "${TOWN}", "time": `);
      assert.equal(broken.status, 400);
      assert.match(broken.message, /^The JSON body could not be read: .+\. Send one JSON object whose keys are the parameter names\.$/);
      for (const [body, what] of [
        ['[1, 2]', 'an array'],
        ['"bboxes"', 'the string "bboxes"'],
        ['null', 'the null null'],
        [`{"bboxes": "${TOWN}", "time": null}`, "the value of 'time' is null"],
        [`{"bboxes": "${TOWN}", "filter": {"building": "*"}}`, 'the value of \'filter\' is {"building":"*"}'],
        [`{"bboxes": "${TOWN}", "time": [["2016-01-01"]]}`, 'element 1 of \'time\' is ["2016-01-01"]'],
        [`{"bboxes": [[1.515, "42.5", 1.54, 42.515]]}`, "element 1 of 'bboxes'"],
      ]) {
        const e = await refused(body!);
        assert.equal(e.status, 400, body);
        assert.ok(e.message.includes(what!), `${body}: ${e.message}`);
      }
      // Not UTF-8.
      const res = await fetch(`${base}/v1/elements/count`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new Uint8Array([0x7b, 0xff, 0x7d]),
      });
      assert.equal(res.status, 400);
      assert.equal(((await res.json()) as { message: string }).message, 'The JSON body is not valid UTF-8. Send text encoded as UTF-8.');
    });

    it('an empty JSON body or object is a request without parameters; an unknown key is an unknown parameter', async () => {
      assert.match((await refused('')).message, /^The query did not specify any parameter/);
      assert.match((await refused('{}')).message, /^The query did not specify any parameter/);
      const unknown = await refused(`{"bbox": "${TOWN}"}`);
      assert.equal(unknown.status, 400);
      assert.match(unknown.message, /^Unknown parameter 'bbox' for this resource\. Did you mean/);
    });

    it('a JSON body over the size limit is refused by its Content-Length before it is read: 413', async () => {
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(`${base}/v1/elements/count`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': String(20 * 1024 * 1024 + 1) },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        req.on('error', reject);
        req.write('{"bboxes": "');
      });
      assert.equal(status, 413);
    });
  });
});
