import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { FileHeader, NodeVersion, OsmVersion, RelationVersion, WayVersion } from '../../core/osm.js';
import { openHistory } from '../open-history.js';
import { createPbfWriter } from './index.js';
import { listPbfBlocks } from './test-support/list-pbf-blocks.js';
import { readOsmXml } from './test-support/read-osm-xml.js';
import { HISTORY_DIR, TESTCASES_DIR } from '../../testing/test-data.js';

const OSMIUM = '/usr/bin/osmium';
const skipWithoutOsmium = existsSync(OSMIUM) ? false : 'osmium-tool is not installed';
const HANDMADE = join(TESTCASES_DIR, 'handmade', 'history-small.osh');
const skipWithoutHandmade = existsSync(HANDMADE) ? skipWithoutOsmium : 'handmade test case not found';

const REAL_HISTORY = join(HISTORY_DIR, 'equatorial-guinea.osh.pbf');
const skipWithoutRealHistory = existsSync(REAL_HISTORY) ? skipWithoutOsmium : 'real history file not found';

const workDir = mkdtempSync(join(tmpdir(), 'pbf-writer-test-'));
after(() => rmSync(workDir, { recursive: true, force: true }));

const HEADER: FileHeader = { requiredFeatures: [], optionalFeatures: [] };

async function writeAll(path: string, versions: Iterable<OsmVersion>, header: FileHeader = HEADER): Promise<void> {
  const writer = createPbfWriter(path, header);
  for (const v of versions) {
    const wait = writer.write(v);
    if (wait) await wait;
  }
  await writer.close();
}

function osmium(...args: string[]): string {
  return execFileSync(OSMIUM, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

describe('createPbfWriter', () => {
  it('writes the handmade history so that osmium reads the same as from the reference PBF', { skip: skipWithoutHandmade }, async () => {
    const versions = readOsmXml(readFileSync(HANDMADE, 'utf8'));
    assert.equal(versions.length, 28);
    const out = join(workDir, 'handmade.osh.pbf');
    await writeAll(out, versions, { ...HEADER, bbox: [8, 49, 8.012, 49.012] });

    assert.equal(osmium('cat', '-f', 'opl', out), osmium('cat', '-f', 'opl', `${HANDMADE}.pbf`));

    const info = osmium('fileinfo', '-e', out);
    assert.match(info, /With history: yes/);
    assert.match(info, /Bounding boxes:\s+\(8,49,8\.012,49\.012\)/);
    assert.match(info, /generator=maphist/);
    assert.match(info, /Number of nodes: 20\n/);
    assert.match(info, /Number of ways: 6\n/);
    assert.match(info, /Number of relations: 2\n/);
    assert.match(info, /Objects ordered \(by type and id\): yes/);
  });

  it('copies a real history file (project reader → writer) so that osmium reads the same content', { skip: skipWithoutRealHistory }, async () => {
    const history = await openHistory(REAL_HISTORY);
    const out = join(workDir, 'copy.osh.pbf');
    const writer = createPbfWriter(out, history.header);
    try {
      for await (const batch of history.batches()) {
        for (const v of batch) {
          const wait = writer.write(v);
          if (wait) await wait;
        }
      }
    } finally {
      await history.close();
      await writer.close();
    }
    assert.ok(osmium('cat', '-f', 'opl', out) === osmium('cat', '-f', 'opl', REAL_HISTORY), 'osmium OPL of copy and original differ');
    assert.match(osmium('fileinfo', '-e', out), /Number of nodes: 207010\n[\s\S]*Number of ways: 19252\n[\s\S]*Number of relations: 908\n/);
  });

  it('round-trips many versions over several blocks, with odd strings and 64-bit ids, through osmium', { skip: skipWithoutOsmium }, async () => {
    const versions = syntheticHistory();
    const out = join(workDir, 'synthetic.osh.pbf');
    await writeAll(out, versions);

    const readBack = readOsmXml(osmium('cat', '-f', 'osh', out));
    assert.equal(readBack.length, versions.length);
    assert.deepEqual(readBack, versions);
  });

  it('writes blocks of at most 8000 versions of one type, granularity 100 and date granularity 1000', async () => {
    const versions = syntheticHistory();
    const out = join(workDir, 'blocks.osh.pbf');
    await writeAll(out, versions);

    const [header, ...data] = listPbfBlocks(out);
    assert.equal(header!.blobType, 'OSMHeader');
    assert.deepEqual(header!.requiredFeatures, ['OsmSchema-V0.6', 'DenseNodes', 'HistoricalInformation']);
    assert.equal(header!.writingProgram, 'maphist');
    assert.deepEqual(
      data.map((b) => [b.denseNodes, b.ways, b.relations]),
      [
        [8000, 0, 0],
        [8000, 0, 0],
        [4000, 0, 0],
        [0, 8000, 0],
        [0, 1000, 0],
        [0, 0, 300],
      ],
    );
    for (const block of data) {
      assert.equal(block.blobType, 'OSMData');
      assert.equal(block.granularity, 100);
      assert.equal(block.dateGranularity, 1000);
    }
  });

  it('refuses versions out of type, id, version order', async () => {
    const writer = createPbfWriter(join(workDir, 'unsorted.osh.pbf'), HEADER);
    const [n1, n2] = syntheticHistory().slice(0, 2) as [NodeVersion, NodeVersion];
    writer.write(n2);
    assert.throws(() => writer.write(n1), /not sorted by type, id, version/);
    assert.throws(() => writer.write(n2), /not sorted/);
    await writer.close();
  });

  it('writes an empty history as a header-only file', { skip: skipWithoutOsmium }, async () => {
    const out = join(workDir, 'empty.osh.pbf');
    await writeAll(out, []);
    assert.equal(osmium('cat', '-f', 'opl', out), '');
    assert.deepEqual(
      listPbfBlocks(out).map((b) => b.blobType),
      ['OSMHeader'],
    );
  });
});

/**
 * 20,000 node versions, 9,000 way versions and 300 relation versions: several blocks per type,
 * ids past 2^32, deletions, strings that need escaping or are not ASCII, empty tag values and roles.
 */
function syntheticHistory(): OsmVersion[] {
  let seed = 42;
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const users = ['alice', 'bob', 'Zoë', '東京ユーザー', 'a&b <c> "d"'];
  const values = ['yes', '', 'Straße', '🚲 parking', "O'Brien & Sons", 'x'.repeat(300)];
  const base = (id: number, version: number, visible: boolean) => {
    const u = random(users.length);
    const tags = visible ? Array.from({ length: random(4) }, (_, i) => [`key${i}`, values[random(values.length)]!]).flat() : [];
    return { id, version, visible, timestamp: 1_100_000_000 + random(400_000_000), changeset: 1 + random(60_000_000), uid: u + 1, user: users[u]!, tags };
  };

  const versions: OsmVersion[] = [];
  for (let n = 0; versions.length < 20_000; n++) {
    const id = n < 5_000 ? n + 1 : 5_000_000_000 + n * 7;
    for (let version = 1; version <= 1 + (n % 3) && versions.length < 20_000; version++) {
      const visible = version < 3;
      const lon = visible ? random(3_600_000_001) - 1_800_000_000 : 0;
      const lat = visible ? random(1_700_000_001) - 850_000_000 : 0;
      versions.push({ ...base(id, version, visible), type: 'node', lon, lat } satisfies NodeVersion);
    }
  }
  for (let w = 0; w < 9_000; w++) {
    const visible = w % 10 !== 9;
    const refs = visible ? Array.from({ length: 2 + random(30) }, () => 1 + random(5_000)) : [];
    versions.push({ ...base(100 + w, 1, visible), type: 'way', refs } satisfies WayVersion);
  }
  for (let r = 0; r < 300; r++) {
    const members: RelationVersion['members'] = Array.from({ length: random(20) }, (_, i) => ({
      type: (['node', 'way', 'relation'] as const)[i % 3]!,
      ref: i % 3 === 0 ? 5_000_000_000 + random(1_000_000) : 1 + random(9_000),
      role: ['', 'outer', 'inner', 'Ünter'][random(4)]!,
    }));
    versions.push({ ...base(7 + r, 1, true), type: 'relation', members } satisfies RelationVersion);
  }
  return versions;
}
