/**
 * The PBF and XML readers give the same records (every field) for the same history, and the
 * PBF reader gives the same records however many worker threads decode it.
 */

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import type { NodeVersion } from '../core/osm.js';
import { DATA_DIR, fingerprint, HAVE_OSMIUM, HISTORY_DIR, makeTempDir, OSMIUM, readAllVersions } from './test-helpers.js';

const HANDMADE = join(DATA_DIR, 'testcases/handmade/history-small.osh');
const DELETED_NODES = join(DATA_DIR, 'testcases/libosmium/deleted_nodes.osh');

test('handmade history: .osh and .osh.pbf give identical records', async () => {
  const fromXml = await readAllVersions(HANDMADE);
  const fromPbf = await readAllVersions(`${HANDMADE}.pbf`);
  assert.equal(fromXml.length, 28);
  assert.deepStrictEqual(fromPbf, fromXml);

  // Spot checks against the file text, so "identical" cannot mean "identically wrong".
  const n3v2 = fromXml.find((v) => v.type === 'node' && v.id === 3 && v.version === 2) as NodeVersion;
  assert.deepStrictEqual(n3v2, {
    type: 'node',
    id: 3,
    version: 2,
    timestamp: Date.UTC(2020, 2, 1) / 1000,
    changeset: 3,
    uid: 1,
    user: 'alice',
    visible: true,
    tags: [],
    lon: 80015000,
    lat: 490015000,
  });
  const n5v3 = fromXml.find((v) => v.id === 5 && v.version === 3) as NodeVersion;
  assert.equal(n5v3.visible, false);
  assert.equal(n5v3.lon, 0);
  assert.equal(n5v3.lat, 0);
  const w11v2 = fromXml.find((v) => v.type === 'way' && v.id === 11 && v.version === 2);
  assert.deepStrictEqual(w11v2?.type === 'way' && w11v2.refs, [6, 7, 8]);
  const r20v2 = fromXml.find((v) => v.type === 'relation' && v.version === 2);
  assert.deepStrictEqual(r20v2?.type === 'relation' && [r20v2.members, r20v2.tags], [
    [{ type: 'way', ref: 12, role: 'outer' }],
    ['type', 'multipolygon', 'landuse', 'meadow'],
  ]);
});

test('libosmium deleted_nodes: .osh and .osh.pbf give identical records', async () => {
  const fromXml = await readAllVersions(DELETED_NODES);
  const fromPbf = await readAllVersions(`${DELETED_NODES}.pbf`);
  assert.deepStrictEqual(fromPbf, fromXml);
  const common = { version: 1, timestamp: Date.UTC(2015, 8, 17, 11, 52) / 1000, changeset: 1, uid: 1, user: 'user_1', tags: [] };
  assert.deepStrictEqual(fromXml, [
    { type: 'node', id: 1, ...common, visible: false, lon: 0, lat: 0 },
    { type: 'node', id: 2, ...common, visible: true, lon: 10000000, lat: 10000000 },
  ]);
});

test('the PBF reader gives the same records with 0, 1 and 2 worker threads', async () => {
  const path = join(HISTORY_DIR, 'equatorial-guinea.osh.pbf');
  const inline = await fingerprint(path, { workers: 0 });
  assert.equal(inline.count, 227170);
  assert.deepStrictEqual(await fingerprint(path, { workers: 1 }), inline);
  assert.deepStrictEqual(await fingerprint(path, { workers: 2 }), inline);
});

test("a real history read from PBF equals osmium's XML rendering of it read from XML", {
  skip: HAVE_OSMIUM ? false : 'osmium is not installed',
}, async () => {
  const tmp = makeTempDir();
  try {
    const pbf = join(HISTORY_DIR, 'maldives.osh.pbf');
    const xml = join(tmp.dir, 'maldives.osh.gz');
    execFileSync(OSMIUM, ['cat', pbf, '-o', xml]);
    const fromPbf = await fingerprint(pbf);
    assert.equal(fromPbf.count, 238939 + 35585 + 1339);
    assert.deepStrictEqual(await fingerprint(xml), fromPbf);
  } finally {
    tmp.remove();
  }
});
