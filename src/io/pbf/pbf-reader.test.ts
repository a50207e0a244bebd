/**
 * The PBF reader on hand-built files, for what the real extracts do not exercise: header fields,
 * granularities and offsets, plain Node messages, missing metadata, raw blobs, unknown blob
 * types, negative ids, big relation blocks, early exit and progress.
 */

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { NodeVersion, OsmVersion, RelationVersion } from '../../core/osm.js';
import { openHistory } from '../open-history.js';
import { makeTempDir, readAllVersions } from '../test-helpers.js';
import { MAX_MEMBERS_PER_BATCH } from './materialize.js';
import { concatBytes, encodeBlob, encodeHeaderBlock, encodePbfFile, encodePrimitiveBlock, frame, type TestBlock, type TestHeader } from './pbf-test-files.js';

let tmp: ReturnType<typeof makeTempDir>;
let fileNumber = 0;
before(() => {
  tmp = makeTempDir();
});
after(() => tmp.remove());

function writePbf(header: TestHeader, blocks: TestBlock[], encoding: 'zlib' | 'raw' = 'zlib'): string {
  const path = join(tmp.dir, `test-${fileNumber++}.osh.pbf`);
  writeFileSync(path, encodePbfFile(header, blocks, encoding));
  return path;
}

const info = (version: number, timestamp: number, extra: { visible?: boolean } = {}) => ({
  version,
  timestamp,
  changeset: 100 + version,
  uid: 7,
  userSid: 1,
  ...extra,
});

test('header fields: bbox, generator, source, features, replication', async () => {
  const path = writePbf(
    {
      bbox: { left: 1_412_368_000, right: 1_787_481_000, top: 42_657_170_000, bottom: 42_427_600_000 },
      writingProgram: 'osmium/1.15.0',
      source: 'test',
      optionalFeatures: ['Sort.Type_then_ID'],
      replicationTimestamp: 1_700_000_000,
      replicationSequenceNumber: 5_900_000,
      replicationBaseUrl: 'https://planet.osm.org/replication/minute',
    },
    [],
  );
  const history = await openHistory(path);
  assert.equal(history.format, 'pbf');
  assert.deepStrictEqual(history.header, {
    requiredFeatures: ['OsmSchema-V0.6', 'DenseNodes', 'HistoricalInformation'],
    optionalFeatures: ['Sort.Type_then_ID'],
    bbox: [1.412368, 42.4276, 1.787481, 42.65717],
    generator: 'osmium/1.15.0',
    source: 'test',
    replicationTimestamp: 1_700_000_000,
    replicationSequenceNumber: 5_900_000,
    replicationBaseUrl: 'https://planet.osm.org/replication/minute',
  });
  await history.close();
});

test('dense nodes: delta coding, metadata, tags, visible flags, deleted locations', async () => {
  const path = writePbf({}, [
    {
      strings: ['', 'alice', 'amenity', 'bench', 'name', 'Zürich ✓'],
      groups: [
        {
          dense: [
            {
              id: 10,
              lat: 490_000_000,
              lon: 80_000_000,
              tags: [
                [2, 3],
                [4, 5],
              ],
              info: info(1, 1_577_836_800, { visible: true }),
            },
            { id: 10, lat: 2_147_483_647, lon: 2_147_483_647, info: info(2, 1_593_561_600, { visible: false }) },
            { id: 12, lat: -335_000_000, lon: -700_000_000, info: info(1, 1_593_561_601, { visible: true }) },
          ],
        },
      ],
    },
  ]);
  const records = await readAllVersions(path);
  const base = { type: 'node', changeset: 0, uid: 7, user: 'alice' } as const;
  assert.deepStrictEqual(records, [
    {
      ...base,
      id: 10,
      version: 1,
      timestamp: 1_577_836_800,
      changeset: 101,
      visible: true,
      tags: ['amenity', 'bench', 'name', 'Zürich ✓'],
      lon: 80_000_000,
      lat: 490_000_000,
    },
    { ...base, id: 10, version: 2, timestamp: 1_593_561_600, changeset: 102, visible: false, tags: [], lon: 0, lat: 0 },
    { ...base, id: 12, version: 1, timestamp: 1_593_561_601, changeset: 101, visible: true, tags: [], lon: -700_000_000, lat: -335_000_000 },
  ]);
});

test('dense nodes without a visible array are all visible; without DenseInfo they have default metadata', async () => {
  const path = writePbf({}, [
    { strings: ['', 'bob'], groups: [{ dense: [{ id: 1, lat: 1, lon: 2, info: info(3, 1000) }] }] },
    { strings: [''], groups: [{ dense: [{ id: 2, lat: 3, lon: 4 }] }] },
  ]);
  const [a, b] = (await readAllVersions(path)) as NodeVersion[];
  assert.equal(a!.visible, true);
  assert.equal(a!.user, 'bob');
  assert.deepStrictEqual(b, { type: 'node', id: 2, version: 0, timestamp: 0, changeset: 0, uid: -1, user: '', visible: true, tags: [], lon: 4, lat: 3 });
});

test('granularity, lat/lon offsets and date granularity are applied as osmium does (truncating)', async () => {
  const path = writePbf({}, [
    {
      strings: ['', 'u'],
      granularity: 1000,
      latOffset: 550,
      lonOffset: -250,
      dateGranularity: 500,
      groups: [
        { dense: [{ id: 1, lat: 4_900_001, lon: -800_002, info: info(1, 3_000_000_003) }] },
        { nodes: [{ id: 2, lat: 4_900_001, lon: -800_002, info: info(1, 3_000_000_003) }] },
        { dense: [{ id: 3, lat: -7, lon: 7, info: info(1, 3_000_000_003) }] },
      ],
    },
  ]);
  // Expected values are what `osmium cat -f opl` (1.15) prints for this file.
  // lat: (4_900_001 × 1000 + 550) / 100 = 49_000_015.5 → 49_000_015; lon: (−800_002_000 − 250) / 100 → −8_000_022
  // n3: lat (−7000 + 550) / 100 = −64.5 → −64 and lon (7000 − 250) / 100 = 67.5 → 67: truncated toward zero
  // timestamp: 3_000_000_003 × 500 / 1000 = 1_500_000_001.5 → 1_500_000_001 (2017-07-14T02:40:01Z)
  const records = (await readAllVersions(path)) as NodeVersion[];
  assert.deepStrictEqual(
    records.map((r) => [r.id, r.lon, r.lat, r.timestamp]),
    [
      [1, -8_000_022, 49_000_015, 1_500_000_001],
      [2, -8_000_022, 49_000_015, 1_500_000_001],
      [3, 67, -64, 1_500_000_001],
    ],
  );
});

test('plain Node messages, including a deleted one without a location', async () => {
  const path = writePbf({}, [
    {
      strings: ['', 'carol', 'highway', 'stop'],
      groups: [
        {
          nodes: [
            { id: 5, lat: 100, lon: 200, keys: [2], vals: [3], info: info(1, 1000) },
            { id: 5, info: info(2, 2000, { visible: false }) },
          ],
        },
      ],
    },
  ]);
  const records = await readAllVersions(path);
  assert.deepStrictEqual(
    records.map((r) => [r.id, r.version, r.visible, r.tags, (r as NodeVersion).lon, (r as NodeVersion).lat, r.user]),
    [
      [5, 1, true, ['highway', 'stop'], 200, 100, 'carol'],
      [5, 2, false, [], 0, 0, 'carol'],
    ],
  );
});

test('ways and relations: refs and member ids delta-coded, member types and roles', async () => {
  const path = writePbf(
    {},
    [
      { strings: ['', 'u', 'highway', 'path'], groups: [{ ways: [{ id: 7, refs: [30, 10, 20, 30], keys: [2], vals: [3], info: info(1, 1000) }] }] },
      {
        strings: ['', 'u', 'outer', 'inner', 'type', 'multipolygon', ''],
        groups: [{ relations: [{ id: 9, memids: [7, 8, 3], types: [1, 1, 0], roles: [2, 3, 6], keys: [4], vals: [5], info: info(4, 2000) }] }],
      },
    ],
    'raw',
  );
  const [way, relation] = await readAllVersions(path);
  assert.deepStrictEqual(way, {
    type: 'way',
    id: 7,
    version: 1,
    timestamp: 1000,
    changeset: 101,
    uid: 7,
    user: 'u',
    visible: true,
    tags: ['highway', 'path'],
    refs: [30, 10, 20, 30],
  });
  assert.deepStrictEqual(relation, {
    type: 'relation',
    id: 9,
    version: 4,
    timestamp: 2000,
    changeset: 104,
    uid: 7,
    user: 'u',
    visible: true,
    tags: ['type', 'multipolygon'],
    members: [
      { type: 'way', ref: 7, role: 'outer' },
      { type: 'way', ref: 8, role: 'inner' },
      { type: 'node', ref: 3, role: '' },
    ],
  });
});

test('ids <= 0 sort before positive ids, by absolute value (osmium order)', async () => {
  const path = writePbf({}, [{ strings: ['', 'u'], groups: [{ dense: [-1, -2, 1, 2].map((id) => ({ id, lat: 0, lon: 0, info: info(1, 1) })) }] }]);
  assert.deepStrictEqual(
    (await readAllVersions(path)).map((r) => r.id),
    [-1, -2, 1, 2],
  );
});

test('unknown blob types are skipped', async () => {
  const data = (id: number) =>
    frame('OSMData', encodeBlob(encodePrimitiveBlock({ strings: ['', 'u'], groups: [{ dense: [{ id, lat: 0, lon: 0, info: info(1, 1) }] }] })));
  const path = join(tmp.dir, 'with-unknown-blob.osh.pbf');
  writeFileSync(
    path,
    concatBytes([frame('OSMHeader', encodeBlob(encodeHeaderBlock({}))), data(1), frame('OSMFuture', encodeBlob(Uint8Array.from([1, 2, 3]))), data(2)]),
  );
  assert.deepStrictEqual(
    (await readAllVersions(path)).map((r) => r.id),
    [1, 2],
  );
});

test('a block with more members than one batch holds is delivered in several batches, in order', async () => {
  const memberCount = 7000;
  const relations = Array.from({ length: 10 }, (_, i) => ({
    id: 100 + i,
    memids: Array.from({ length: memberCount }, (_, m) => m + 1),
    types: new Array<number>(memberCount).fill(0),
    roles: new Array<number>(memberCount).fill(0),
    info: info(1, 1000),
  }));
  const path = writePbf({}, [{ strings: ['', 'u'], groups: [{ relations }] }]);
  const history = await openHistory(path, { workers: 1 });
  const batchSizes: number[] = [];
  const ids: number[] = [];
  for await (const batch of history.batches()) {
    batchSizes.push(batch.length);
    const members = batch.reduce((n, r) => n + (r as RelationVersion).members.length, 0);
    assert.ok(batch.length === 1 || members <= MAX_MEMBERS_PER_BATCH, `a batch of ${members} members`);
    for (const r of batch) {
      ids.push(r.id);
      assert.equal((r as RelationVersion).members.length, memberCount);
      assert.equal((r as RelationVersion).members[memberCount - 1]!.ref, memberCount);
    }
  }
  assert.deepStrictEqual(
    ids,
    relations.map((r) => r.id),
  );
  assert.ok(batchSizes.length >= 4, `batches: ${batchSizes.join(',')}`);
});

test("a relation's versions share the members that did not change, within a block and from block to block", async () => {
  // strings: 1 user, 2 outer, 3 inner, 4 the empty role
  const strings = ['', 'u', 'outer', 'inner', ''];
  const relation = (id: number, version: number, memids: number[], roles: number[]) => ({
    id,
    memids,
    types: memids.map(() => 1),
    roles,
    info: info(version, 1000 * version),
  });
  const path = writePbf({}, [
    {
      strings,
      groups: [
        {
          relations: [
            relation(9, 1, [1, 2, 3], [2, 2, 3]),
            relation(9, 2, [1, 2, 3], [2, 2, 3]), // unchanged: the same array
            relation(9, 3, [1, 5, 2, 3], [2, 2, 2, 3]), // 5 inserted: 1 before it, 2 and 3 after it shared
            relation(9, 4, [1, 5, 2, 3], [2, 2, 2, 2]), // the last member's role changed
          ],
        },
      ],
    },
    // The next block: version 5 as version 4; relation 10 has version 5's members but is another relation.
    { strings, groups: [{ relations: [relation(9, 5, [1, 5, 2, 3], [2, 2, 2, 2]), relation(10, 1, [1, 5, 2, 3], [2, 2, 2, 2])] }] },
  ]);
  const versions = (await readAllVersions(path, { workers: 1 })) as RelationVersion[];
  const members = versions.map((v) => v.members.map((m) => `${m.type} ${m.ref} ${m.role}`).join(', '));
  assert.deepStrictEqual(members, [
    'way 1 outer, way 2 outer, way 3 inner',
    'way 1 outer, way 2 outer, way 3 inner',
    'way 1 outer, way 5 outer, way 2 outer, way 3 inner',
    'way 1 outer, way 5 outer, way 2 outer, way 3 outer',
    'way 1 outer, way 5 outer, way 2 outer, way 3 outer',
    'way 1 outer, way 5 outer, way 2 outer, way 3 outer',
  ]);
  const [v1, v2, v3, v4, v5, other] = versions as [RelationVersion, RelationVersion, RelationVersion, RelationVersion, RelationVersion, RelationVersion];
  assert.equal(v2.members, v1.members);
  assert.deepStrictEqual(
    v3.members.map((m) => v1.members.indexOf(m)),
    [0, -1, 1, 2],
  );
  assert.deepStrictEqual(
    v4.members.map((m) => v3.members.indexOf(m)),
    [0, 1, 2, -1],
  );
  assert.equal(v5.members, v4.members);
  assert.ok(other.members.every((m) => !v5.members.includes(m)));
});

test('leaving the loop early releases the reader (no hanging worker), and close() is idempotent', async () => {
  const blocks: TestBlock[] = Array.from({ length: 20 }, (_, b) => ({
    strings: ['', 'u'],
    groups: [{ dense: Array.from({ length: 100 }, (_, i) => ({ id: b * 1000 + i + 1, lat: 0, lon: 0, info: info(1, 1) })) }],
  }));
  const path = writePbf({}, blocks);
  const history = await openHistory(path, { workers: 2 });
  let seen: OsmVersion[] = [];
  for await (const batch of history.batches()) {
    seen = batch;
    break;
  }
  assert.equal(seen.length, 100);
  await history.close();
  await history.close();
});

test('progress() counts compressed bytes up to the file size', async () => {
  const blocks: TestBlock[] = Array.from({ length: 5 }, (_, b) => ({
    strings: ['', 'u'],
    groups: [{ dense: Array.from({ length: 50 }, (_, i) => ({ id: b * 1000 + i + 1, lat: 0, lon: 0, info: info(1, 1) })) }],
  }));
  const path = writePbf({}, blocks);
  const history = await openHistory(path, { workers: 1 });
  const seen: number[] = [history.progress().bytesRead];
  for await (const _ of history.batches()) seen.push(history.progress().bytesRead);
  const { bytesRead, bytesTotal } = history.progress();
  assert.equal(bytesRead, bytesTotal);
  assert.ok(
    seen.every((b, i) => i === 0 || b > seen[i - 1]!),
    `not increasing: ${seen.join(',')}`,
  );
  assert.ok(seen[0]! > 0 && seen[seen.length - 1]! < bytesTotal + 1);
});
