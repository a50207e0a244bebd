/**
 * Extraction answers read as the Python client ohsome-py reads them (ohsome-py-parsing.ts): every
 * extraction family over real HTTP, POSTed as a form as the client sends it, turned into the
 * client's GeoDataFrame, indexed by `@osmId`. A server started with `neutralNames` (the spec's
 * `@mapId`) is read the same way and breaks the client, which shows the check can fail.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { importToTemp, type ImportedDb } from '../../../store/test-support.js';
import { createDuckDbServer as createServer } from '../../../testing/server.js';
import { asGeoDataFrame, ClientParseError, locate } from './ohsome-py-parsing.js';

const SAMPLE = join(process.cwd(), 'sample', 'andorra.osh.pbf');
const TOWN = '1.515,42.500,1.540,42.515';
const ID = /^(node|way|relation)\/[1-9][0-9]*$/;

/** ohsome-py's `requests.post(url, data=params)`: a form body. */
async function post(base: string, path: string, params: Record<string, string>): Promise<{ status: number; text: string }> {
  const res = await fetch(`${base}/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  return { status: res.status, text: await res.text() };
}

const CASES: { path: string; params: Record<string, string>; index: string[] }[] = [
  {
    path: '/elements/geometry',
    params: { bboxes: TOWN, time: '2016-01-01', filter: 'building=*', properties: 'tags,metadata' },
    index: ['@osmId', '@snapshotTimestamp'],
  },
  {
    path: '/elementsFullHistory/centroid',
    params: { bboxes: TOWN, time: '2012-01-01,2016-01-01', filter: 'highway=*' },
    index: ['@osmId', '@validFrom', '@validTo'],
  },
  {
    path: '/contributions/geometry',
    params: { bboxes: TOWN, time: '2014-01-01,2016-01-01', filter: 'building=*', properties: 'tags' },
    index: ['@osmId', '@timestamp'],
  },
  { path: '/contributions/latest/bbox', params: { bboxes: TOWN, time: '2010-01-01,2017-01-01', filter: 'highway=*' }, index: ['@osmId', '@timestamp'] },
];

describe('extraction answers as ohsome-py reads them', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let neutral: FastifyInstance;
  let base: string;
  let neutralBase: string;
  before(async () => {
    db = await importToTemp(SAMPLE);
    app = await createServer(db.store, { timeoutSeconds: 100 });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    neutral = await createServer(db.store, { timeoutSeconds: 100, neutralNames: true });
    neutralBase = await neutral.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await app.close();
    await neutral.close();
    db.dispose();
  });

  it('the metadata the client reads at start-up: temporal extent without its Z is a Python ISO datetime', async () => {
    const metadata = (await (await fetch(`${base}/v1/metadata`)).json()) as {
      apiVersion: string;
      extractRegion: { temporalExtent: { fromTimestamp: string; toTimestamp: string } };
    };
    assert.equal(typeof metadata.apiVersion, 'string');
    for (const t of [metadata.extractRegion.temporalExtent.fromTimestamp, metadata.extractRegion.temporalExtent.toTimestamp]) {
      assert.match(t.replace(/Z$/, ''), /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/); // datetime.fromisoformat(t.strip("Z"))
    }
  });

  for (const c of CASES) {
    it(`${c.path}: a GeoDataFrame indexed by ${c.index.join(', ')}`, async () => {
      const answer = await post(base, c.path, c.params);
      assert.equal(answer.status, 200, answer.text.slice(0, 300));
      const frame = asGeoDataFrame(answer.text);
      assert.ok(frame.rows.length > 0, 'the case should not be empty');
      assert.deepEqual(frame.index, c.index);
      for (const row of frame.rows) {
        assert.match(String(row['@osmId']), ID);
        for (const column of c.index.slice(1)) assert.ok(Number.isFinite(row[column]), `${column} of ${String(row['@osmId'])}`);
        if (row['@osmType'] !== undefined) assert.equal(row['@osmType'], String(row['@osmId']).split('/')[0]);
      }
      const first = String(frame.rows[0]['@osmId']);
      assert.ok(locate(frame, first).length >= 1);
      if (c.path.startsWith('/contributions'))
        assert.ok(
          frame.rows.every((r) => typeof r['@osmType'] === 'string'),
          'contributions carry @osmType',
        );
      if (c.params.properties?.includes('tags'))
        assert.ok(
          frame.rows.some((r) => Object.keys(r['@other_tags'] as object).length > 0),
          'tags go to @other_tags',
        );
    });
  }

  it('a server writing the neutral @mapId breaks the client: no @osmId level to select by', async () => {
    const answer = await post(neutralBase, CASES[0].path, CASES[0].params);
    assert.equal(answer.status, 200);
    const frame = asGeoDataFrame(answer.text);
    assert.deepEqual(frame.index, ['@snapshotTimestamp']);
    assert.match(String(frame.rows[0]['@mapId']), ID);
    assert.throws(() => locate(frame, String(frame.rows[0]['@mapId'])), ClientParseError);
  });

  it('the port fails where the client fails: an unparsable time, a feature without properties', () => {
    const feature = (properties: unknown) => JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: null, properties }] });
    assert.throws(() => asGeoDataFrame(feature({ '@osmId': 'node/1', '@timestamp': 'yesterday' })), ClientParseError);
    assert.throws(() => asGeoDataFrame(feature(null)), ClientParseError);
    assert.throws(() => asGeoDataFrame('{"result": []}'), ClientParseError);
    assert.deepEqual(asGeoDataFrame(feature({ '@osmId': 'node/1', '@timestamp': '2016-01-01T00:00:00Z', name: 'x' })).rows[0]['@other_tags'], { name: 'x' });
  });
});
