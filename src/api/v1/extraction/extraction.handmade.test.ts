/**
 * Extraction on the handmade history (testdata/testcases/handmade): full-history features
 * against the expected snapshot states, contributions against the expected per-element changes,
 * latest contributions, and the deletion rules (geometry null, no tags).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { epoch, importToTemp, TEST_DATA, type ImportedDb } from '../../../store/test-support.js';
import { inV1 } from '../../../testing/handmade.js';
import { createDuckDbServer as createServer } from '../../../testing/server.js';
import { extract, postExtract, type Feature } from './test-support.js';

const DIR = join(TEST_DATA, 'testcases', 'handmade');
const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8'));
const WORLD = '-180,-90,180,90';
const short = (f: Feature) => {
  const [type, id] = String(f.properties['@osmId']).split('/');
  return `${type[0]}${id}`;
};

describe('extraction on the handmade history', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let base: string;
  let range: string;
  before(async () => {
    db = await importToTemp(join(DIR, 'history-small.osh.pbf'));
    app = await createServer(db.store, { timeoutSeconds: 100 });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    range = `${db.store.metadata.firstTimestamp},${db.store.metadata.lastTimestamp}`;
  });
  after(async () => {
    await app.close();
    db.dispose();
  });

  it('full history: the features valid at each expected snapshot time are its visible versions', async () => {
    const r = await extract(base, '/elementsFullHistory/geometry', { bboxes: WORLD, time: range, properties: 'metadata,tags' });
    assert.equal(r.status, 200);
    const [t1, t2] = range.split(',').map(epoch);
    for (const f of r.features) {
      const from = epoch(String(f.properties['@validFrom']));
      const to = epoch(String(f.properties['@validTo']));
      assert.ok(t1 <= from && from < to && to <= t2, JSON.stringify(f.properties));
      assert.ok(f.geometry !== null);
    }
    for (const snap of expected.snapshots as { t: string; visible: string[] }[]) {
      const t = epoch(snap.t);
      if (t < t1 || t >= t2) continue;
      const live = r.features.filter((f) => epoch(String(f.properties['@validFrom'])) <= t && t < epoch(String(f.properties['@validTo'])));
      const got = live.map((f) => `${short(f)}v${f.properties['@version']}`).sort();
      // expected.json lists every element; version 1 extracts no never-tagged node (handmade.ts).
      assert.deepEqual(got, snap.visible.filter(inV1).sort(), snap.t);
      // …and the snapshot extraction at that time agrees.
      const s = await extract(base, '/elements/bbox', { bboxes: WORLD, time: snap.t, properties: 'metadata' });
      assert.deepEqual(s.features.map((f) => `${short(f)}v${f.properties['@version']}`).sort(), got, `snapshot ${snap.t}`);
    }
  });

  it('full history: states are ordered by type, id, time and cover each element without overlap', async () => {
    const r = await postExtract(base, '/elementsFullHistory/centroid', { bboxes: WORLD, time: range });
    const typeRank = { node: 0, way: 1, relation: 2 } as Record<string, number>;
    const key = (f: Feature) => {
      const [type, id] = String(f.properties['@osmId']).split('/');
      return [typeRank[type], Number(id), epoch(String(f.properties['@validFrom']))];
    };
    for (let i = 1; i < r.features.length; i++) {
      const a = key(r.features[i - 1]);
      const b = key(r.features[i]);
      assert.ok(a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] < b[2]))), `order at ${i}`);
      if (a[0] === b[0] && a[1] === b[1]) assert.ok(epoch(String(r.features[i - 1].properties['@validTo'])) <= b[2]);
    }
    for (const f of r.features) assert.equal(f.geometry?.type, 'Point');
  });

  it('contributions: each element gets exactly its expected changes', async () => {
    // [t1, t2): a contribution exactly at t2 belongs to the next interval, as in /contributions/count
    const start = db.store.metadata.firstTimestamp;
    const end = db.store.metadata.lastTimestamp;
    const r = await extract(base, '/contributions/geometry', { bboxes: WORLD, time: `${start},${end}`, properties: 'metadata,tags' });
    assert.equal(r.status, 200);
    const words: Record<string, string> = {
      '@creation': 'creation',
      '@deletion': 'deletion',
      '@tagChange': 'tag_change',
      '@geometryChange': 'geometry_change',
    };
    for (const [element, list] of Object.entries(expected.contributions_by_element as Record<string, [string, string][]>)) {
      const mine = r.features.filter((f) => short(f) === element);
      // A never-tagged node (n3) has no contribution in version 1.
      const inRange = list.filter(([ts]) => inV1(element) && epoch(ts) >= epoch(start) && epoch(ts) < epoch(end));
      const want = inRange.map(([ts, what]) => [epoch(ts), what.split(' ')[0]]);
      const got = mine.map((f) => [
        epoch(String(f.properties['@timestamp'])),
        Object.keys(words)
          .filter((k) => f.properties[k] === true)
          .map((k) => words[k])
          .join('+'),
      ]);
      // tag and geometry changes may combine; the expected annotation names the main one
      assert.equal(got.length, want.length, `${element}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
      got.forEach(([ts, kinds], i) => {
        assert.equal(ts, want[i][0], element);
        assert.ok(String(kinds).split('+').includes(String(want[i][1])), `${element} ${kinds} vs ${want[i][1]}`);
      });
      for (const f of mine) {
        if (f.properties['@deletion'] === true) {
          assert.equal(f.geometry, null);
          assert.deepEqual(
            Object.keys(f.properties).filter((k) => !k.startsWith('@')),
            [],
            'a deletion has no tags',
          );
        } else assert.notEqual(f.geometry, null);
        assert.equal(f.properties['@osmType'], { n: 'node', w: 'way', r: 'relation' }[element[0]]);
      }
    }
  });

  it('contributions: a member-induced change carries the way version and its changeset, the contribution changeset of the member', async () => {
    const r = await extract(base, '/contributions/geometry', { bboxes: WORLD, time: range, filter: 'id:way/10', properties: 'metadata' });
    const g = r.features.find((f) => f.properties['@geometryChange'] === true && f.properties['@tagChange'] !== true);
    assert.ok(g, 'the geometry change of w10 by n3 v2');
    assert.equal(g.properties['@version'], 1);
    assert.notEqual(g.properties['@changesetId'], g.properties['@contributionChangesetId']);
  });

  it('latest contributions: only the last contribution of each element', async () => {
    const all = await extract(base, '/contributions/geometry', { bboxes: WORLD, time: range, properties: 'contributionTypes' });
    const latest = await extract(base, '/contributions/latest/geometry', { bboxes: WORLD, time: range, properties: 'contributionTypes' });
    const last = new Map<string, Feature>();
    for (const f of all.features) last.set(String(f.properties['@osmId']), f);
    assert.deepEqual(latest.features, [...last.values()]);
    // amenity nodes: one latest (n5's re-creation), as in expected.json's count example
    const a = await extract(base, '/contributions/latest/centroid', { bboxes: WORLD, time: range, filter: 'type:node and amenity=*' });
    assert.equal(a.features.length, 1);
    // contributionTypes alone: the flags and the identity, version and changeset contributions always
    // carry (the spec's property table), no tags
    for (const f of latest.features) {
      assert.equal(typeof f.properties['@version'], 'number');
      assert.deepEqual(
        Object.keys(f.properties).filter((k) => !k.startsWith('@')),
        [],
      );
    }
  });

  it('the time rules: exactly two timestamps for full history and contributions, t1,t2 or t1/t2', async () => {
    for (const path of ['/elementsFullHistory/geometry', '/contributions/bbox', '/contributions/latest/centroid']) {
      const comma = await extract(base, path, { bboxes: WORLD, time: '2020-02-01,2020-09-01' });
      const slash = await extract(base, path, { bboxes: WORLD, time: '2020-02-01/2020-09-01' });
      assert.equal(slash.status, 200, `${path} slash form`);
      assert.deepEqual(slash.features, comma.features, `${path}: the slash form is the comma form`);
      for (const time of ['2020-02-01', '2020-02-01/2020-03-01/P1M', '2020-02-01,2020-03-01,2020-04-01']) {
        const r = await extract(base, path, { bboxes: WORLD, time });
        assert.equal(r.status, 400, `${path} ${time}`);
        assert.match(JSON.parse(r.text).message, /timestamps/);
      }
    }
  });
});
