/**
 * The XML reader: attribute defaults, header, compression, batching, and text that crosses
 * chunk boundaries.
 */

import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import type { NodeVersion } from '../../core/osm.js';
import { openHistory } from '../open-history.js';
import { DATA_DIR, makeTempDir, readAllVersions, TESTDATA_DIR } from '../test-helpers.js';
import { BATCH_SIZE } from './xml-history.js';

const HANDMADE_XML = join(DATA_DIR, 'testcases/handmade/history-small.osh');

let tmp: ReturnType<typeof makeTempDir>;
before(() => {
  tmp = makeTempDir();
});
after(() => tmp.remove());

function write(name: string, content: Uint8Array | string): string {
  const path = join(tmp.dir, name);
  writeFileSync(path, content);
  return path;
}

test('header from <osm> and <bounds>; missing attributes take their defaults', async () => {
  const path = write(
    'defaults.osh',
    `<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6" generator="handwritten">
  <bounds minlat="42.4276" minlon="1.412368" maxlat="42.65717" maxlon="1.787481"/>
  <node id="1" lat="-33.5" lon="151.25"/>
  <node id="2" version="3" timestamp="2010-06-01T12:00:00Z" visible="false"/>
  <way id="1" version="1" user="A &amp; B" uid="42" changeset="9"><nd ref="1"/><nd ref="2"/><tag k="name" v="&quot;x&quot; &lt;y&gt;"/></way>
  <relation id="1" version="1"><member type="node" ref="1" role="stop"/><member type="way" ref="1"/></relation>
</osm>
`,
  );
  const history = await openHistory(path);
  assert.equal(history.format, 'xml');
  assert.deepStrictEqual(history.header, {
    requiredFeatures: [],
    optionalFeatures: [],
    generator: 'handwritten',
    bbox: [1.412368, 42.4276, 1.787481, 42.65717],
  });
  const records = [];
  for await (const batch of history.batches()) records.push(...batch);
  const none = { version: 0, timestamp: 0, changeset: 0, uid: -1, user: '', visible: true, tags: [] };
  assert.deepStrictEqual(records, [
    { type: 'node', id: 1, ...none, lon: 1_512_500_000, lat: -335_000_000 },
    { type: 'node', id: 2, ...none, version: 3, timestamp: Date.UTC(2010, 5, 1, 12) / 1000, visible: false, lon: 0, lat: 0 },
    { type: 'way', id: 1, ...none, version: 1, changeset: 9, uid: 42, user: 'A & B', tags: ['name', '"x" <y>'], refs: [1, 2] },
    {
      type: 'relation',
      id: 1,
      ...none,
      version: 1,
      members: [
        { type: 'node', ref: 1, role: 'stop' },
        { type: 'way', ref: 1, role: '' },
      ],
    },
  ]);
});

test('coordinates are rounded to 1e-7 degrees', async () => {
  const path = write('coords.osh', '<osm version="0.6"><node id="1" lat="49.0015" lon="8.0015"/><node id="2" lat="-0.00000005" lon="179.99999995"/></osm>');
  const [a, b] = (await readAllVersions(path)) as NodeVersion[];
  assert.deepStrictEqual([a!.lat, a!.lon], [490_015_000, 80_015_000]);
  assert.deepStrictEqual([b!.lat, b!.lon], [-0, 1_800_000_000]); // Math.round(-0.5) is -0
});

test('.gz and .bz2 give the same records as the plain file', async () => {
  const plain = await readAllVersions(HANDMADE_XML);
  const gz = write('handmade.osh.gz', gzipSync(readFileSync(HANDMADE_XML)));
  assert.deepStrictEqual(await readAllVersions(gz), plain);
  assert.deepStrictEqual(await readAllVersions(join(TESTDATA_DIR, 'history-small.osh.bz2')), plain);
});

test(`batches of ${BATCH_SIZE}, multi-byte text split across read chunks`, async () => {
  const count = 25_000;
  const user = 'Zürich-Straße-✓-日本';
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<osm version="0.6">'];
  for (let id = 1; id <= count; id++) {
    lines.push(
      `  <node id="${id}" version="1" timestamp="2020-01-01T00:00:00Z" uid="5" user="${user}" changeset="1" lat="1" lon="2"><tag k="name" v="${user}"/></node>`,
    );
  }
  lines.push('</osm>');
  const path = write('many.osh', lines.join('\n'));
  for (const file of [path, write('many.osh.gz', gzipSync(readFileSync(path)))]) {
    const history = await openHistory(file);
    const sizes: number[] = [];
    let ok = 0;
    for await (const batch of history.batches()) {
      sizes.push(batch.length);
      for (const v of batch) if (v.user === user && v.tags[1] === user) ok++;
    }
    assert.equal(ok, count);
    assert.deepStrictEqual(sizes, [BATCH_SIZE, BATCH_SIZE, BATCH_SIZE, count - 3 * BATCH_SIZE]);
    const { bytesRead, bytesTotal } = history.progress();
    assert.equal(bytesRead, bytesTotal);
  }
});
