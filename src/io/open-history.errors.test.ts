/**
 * Every way an input can be wrong ends in the right MaphistError code, with a message that says
 * what to do. Errors inside the data come out of batches() after the complete batches before them.
 */

import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { isMaphistError, type ErrorCode } from '../core/errors.js';
import { openHistory } from './open-history.js';
import { concatBytes, encodeBlob, encodeHeaderBlock, encodePbfFile, encodePrimitiveBlock, frame, type TestBlock } from './pbf/pbf-test-files.js';
import { DATA_DIR, HISTORY_DIR, makeTempDir, TESTDATA_DIR } from './test-helpers.js';

const HANDMADE_XML = join(DATA_DIR, 'testcases/handmade/history-small.osh');
const HANDMADE_PBF = `${HANDMADE_XML}.pbf`;

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

/** Opens and reads the whole file; returns the number of versions delivered before the error. */
async function expectError(path: string, code: ErrorCode, messagePattern?: RegExp): Promise<{ delivered: number; message: string }> {
  let delivered = 0;
  try {
    const history = await openHistory(path, { workers: 1 });
    for await (const batch of history.batches()) delivered += batch.length;
  } catch (e) {
    assert.ok(isMaphistError(e), `expected a MaphistError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    if (messagePattern) assert.match(e.message, messagePattern);
    return { delivered, message: e.message };
  }
  assert.fail(`reading ${path} succeeded (${delivered} versions); expected ${code}`);
}

const node = (id: number, version = 1, timestamp = 1_500_000_000) => ({
  id,
  lat: 10,
  lon: 20,
  info: { version, timestamp, changeset: 1, uid: 1, userSid: 1 },
});

describe('INPUT_NOT_FOUND', () => {
  test('a missing file', async () => {
    await expectError(join(tmp.dir, 'no-such-file.osh.pbf'), 'INPUT_NOT_FOUND', /does not exist/);
  });
  test('a directory', async () => {
    const dir = join(tmp.dir, 'a-directory');
    mkdirSync(dir);
    await expectError(dir, 'INPUT_NOT_FOUND', /is a directory/);
  });
});

describe('INPUT_NOT_OSM', () => {
  test('an empty file', async () => {
    await expectError(write('empty.osh', ''), 'INPUT_NOT_OSM', /empty/);
  });
  test('a JSON file', async () => {
    await expectError(write('data.json', '{"type":"FeatureCollection","features":[]}'), 'INPUT_NOT_OSM', /neither OSM PBF nor OSM XML/);
  });
  test('a PNG file named .osh.pbf', async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    await expectError(write('image.osh.pbf', png), 'INPUT_NOT_OSM', /89 50 4e 47/);
  });
  test('XML that is not OSM', async () => {
    await expectError(write('drawing.osh', '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"></svg>\n'), 'INPUT_NOT_OSM', /<svg>/);
  });
  test('gzip-compressed JSON', async () => {
    await expectError(write('data.osh.gz', gzipSync('{"not": "osm"}')), 'INPUT_NOT_OSM');
  });
  test('a PBF file of another kind (first block is not an OSMHeader)', async () => {
    await expectError(write('other.pbf', frame('Something', encodeBlob(new Uint8Array(10), 'raw'))), 'INPUT_NOT_OSM');
  });
});

describe('INPUT_TRUNCATED', () => {
  test('a PBF cut inside its first block header', async () => {
    await expectError(write('cut-10.osh.pbf', readFileSync(HANDMADE_PBF).subarray(0, 10)), 'INPUT_TRUNCATED', /cut off/);
  });
  test('a PBF cut inside its header block', async () => {
    await expectError(write('cut-40.osh.pbf', readFileSync(HANDMADE_PBF).subarray(0, 40)), 'INPUT_TRUNCATED', /cut off/);
  });
  test('a PBF cut inside a data block, after complete blocks', async () => {
    // 1,000,000 bytes of the 4-country file: the blocks before the cut arrive, then the error.
    const bytes = readFileSync(join(HISTORY_DIR, 'oshdb-4countries-merged.osh.pbf')).subarray(0, 1_000_000);
    const { delivered } = await expectError(write('cut-1m.osh.pbf', bytes), 'INPUT_TRUNCATED', /ends in the middle of a OSMData block/);
    assert.ok(delivered > 50_000, `only ${delivered} versions before the error`);
  });
  test('a PBF cut inside the length of the next block', async () => {
    const bytes = readFileSync(HANDMADE_PBF);
    const cut = concatBytes([bytes, Uint8Array.from([0, 0])]);
    await expectError(write('cut-length.osh.pbf', cut), 'INPUT_TRUNCATED', /length of a block header/);
  });
  test('an XML file cut inside an element', async () => {
    const text = readFileSync(HANDMADE_XML, 'utf8');
    const cut = text.slice(0, text.indexOf('<way id="11"') + 30);
    const { delivered } = await expectError(write('cut.osh', cut), 'INPUT_TRUNCATED', /cut off/);
    assert.equal(delivered, 23); // the 20 node versions and w10 v1-v3 are complete; w11 v1 is not
  });
  test('an XML file cut before its root element closes', async () => {
    await expectError(write('no-end.osh', '<?xml version="1.0"?>\n<osm version="0.6">\n'), 'INPUT_TRUNCATED');
  });
  test('a gzip file cut short', async () => {
    const gz = gzipSync(readFileSync(HANDMADE_XML));
    await expectError(write('cut.osh.gz', gz.subarray(0, gz.length - 100)), 'INPUT_TRUNCATED', /gzip/);
  });
  test('a bzip2 file cut short', async () => {
    const bz2 = readFileSync(join(TESTDATA_DIR, 'history-small.osh.bz2'));
    await expectError(write('cut.osh.bz2', bz2.subarray(0, 600)), 'INPUT_TRUNCATED', /bzip2/);
  });
});

describe('INPUT_CORRUPT', () => {
  test('a PBF block whose zlib data is damaged', async () => {
    const bytes = new Uint8Array(readFileSync(HANDMADE_PBF));
    // The handmade file has a header blob and one data blob; damage the middle of the data blob.
    for (let i = 0; i < 40; i++) bytes[bytes.length - 200 + i] ^= 0x5a;
    await expectError(write('damaged.osh.pbf', bytes), 'INPUT_CORRUPT', /damaged/);
  });
  test('a PBF block that inflates but is not a PrimitiveBlock', async () => {
    const garbage = Uint8Array.from({ length: 300 }, (_, i) => (i * 7919) % 251);
    const file = concatBytes([frame('OSMHeader', encodeBlob(encodeHeaderBlock({}))), frame('OSMData', encodeBlob(garbage))]);
    await expectError(write('garbage.osh.pbf', file), 'INPUT_CORRUPT', /block at byte \d+/);
  });
  test('a PBF block whose declared raw_size is wrong', async () => {
    const block = encodePrimitiveBlock({ strings: ['', 'u'], groups: [{ dense: [node(1)] }] });
    const blob = encodeBlob(block);
    blob[1] = (blob[1]! + 1) & 0x7f; // raw_size is the first field; the block is < 128 bytes
    const file = concatBytes([frame('OSMHeader', encodeBlob(encodeHeaderBlock({}))), frame('OSMData', blob)]);
    await expectError(write('raw-size.osh.pbf', file), 'INPUT_CORRUPT', /declared/);
  });
  test('a PBF block referring to a string the table does not have', async () => {
    const file = encodePbfFile({}, [{ strings: ['', 'u'], groups: [{ dense: [{ ...node(1), tags: [[1, 7]] }] }] }]);
    await expectError(write('bad-sid.osh.pbf', file), 'INPUT_CORRUPT', /string 7/);
  });
  test('a bzip2 file with damaged data', async () => {
    const bz2 = new Uint8Array(readFileSync(join(TESTDATA_DIR, 'history-small.osh.bz2')));
    for (let i = 300; i < 340; i++) bz2[i] ^= 0x55;
    await expectError(write('damaged.osh.bz2', bz2), 'INPUT_CORRUPT', /bzip2/);
  });
  test('XML that is not well-formed', async () => {
    await expectError(write('bad.osh', '<osm version="0.6">\n<node id="1" version="1" <tag/></node></osm>\n'), 'INPUT_CORRUPT', /well-formed/);
  });
  test('XML with an invalid timestamp', async () => {
    const xml = '<osm version="0.6"><node id="1" version="1" timestamp="yesterday" lat="1" lon="2"/></osm>';
    await expectError(write('bad-time.osh', xml), 'INPUT_CORRUPT', /timestamp "yesterday"/);
  });
});

describe('INPUT_UNSORTED', () => {
  const xml = (elements: string) => `<?xml version="1.0"?>\n<osm version="0.6">\n${elements}\n</osm>\n`;
  const xmlNode = (id: number, version: number) => `<node id="${id}" version="${version}" timestamp="2020-01-01T00:00:00Z" lat="1" lon="1"/>`;

  test('XML with ids out of order', async () => {
    const { message } = await expectError(write('unsorted-ids.osh', xml(xmlNode(2, 1) + xmlNode(1, 1))), 'INPUT_UNSORTED', /osmium sort/);
    assert.match(message, /node 1 version 1 comes after node 2 version 1/);
  });
  test('XML with versions out of order', async () => {
    await expectError(write('unsorted-versions.osh', xml(xmlNode(1, 2) + xmlNode(1, 1))), 'INPUT_UNSORTED', /osmium sort/);
  });
  test('XML with a way before the nodes', async () => {
    const way = '<way id="1" version="1" timestamp="2020-01-01T00:00:00Z"><nd ref="1"/></way>';
    await expectError(write('way-first.osh', xml(way + xmlNode(1, 1))), 'INPUT_UNSORTED', /node 1 version 1 comes after way 1/);
  });
  test('XML listing a version twice', async () => {
    await expectError(write('duplicate.osh', xml(xmlNode(1, 1) + xmlNode(1, 1))), 'INPUT_UNSORTED', /twice/);
  });
  test('the shared handmade XML with two nodes swapped', async () => {
    const lines = readFileSync(HANDMADE_XML, 'utf8').split('\n');
    const i = lines.findIndex((l) => l.includes('<node id="6"'));
    [lines[i], lines[i + 1]] = [lines[i + 1]!, lines[i]!];
    await expectError(write('swapped.osh', lines.join('\n')), 'INPUT_UNSORTED', /node 6 version 1 comes after node 7 version 1/);
  });
  test('PBF with ids out of order inside a block', async () => {
    const file = encodePbfFile({}, [{ strings: ['', 'u'], groups: [{ dense: [node(5), node(3)] }] }]);
    await expectError(write('unsorted.osh.pbf', file), 'INPUT_UNSORTED', /node 3 version 1 comes after node 5 version 1/);
  });
  test('PBF with ids out of order across blocks', async () => {
    const block = (ids: number[]): TestBlock => ({ strings: ['', 'u'], groups: [{ dense: ids.map((id) => node(id)) }] });
    const file = encodePbfFile({}, [block([1, 2, 3]), block([2, 4])]);
    const { delivered } = await expectError(write('unsorted-blocks.osh.pbf', file), 'INPUT_UNSORTED', /osmium sort/);
    assert.equal(delivered, 3);
  });
});

describe('INPUT_UNSUPPORTED', () => {
  test('a PBF that requires a feature maphist does not read', async () => {
    const file = encodePbfFile({ requiredFeatures: ['OsmSchema-V0.6', 'DenseNodes', 'Sort.Geographic'] }, []);
    await expectError(write('feature.osh.pbf', file), 'INPUT_UNSUPPORTED', /Sort\.Geographic/);
  });
  test('a PBF with zstd-compressed blocks', async () => {
    const block = encodePrimitiveBlock({ strings: ['', 'u'], groups: [{ dense: [node(1)] }] });
    const file = concatBytes([frame('OSMHeader', encodeBlob(encodeHeaderBlock({}))), frame('OSMData', encodeBlob(block, { field: 7 }))]);
    await expectError(write('zstd.osh.pbf', file), 'INPUT_UNSUPPORTED', /zstd-compressed.*osmium cat/);
  });
  test('an OsmChange file', async () => {
    await expectError(write('diff.osc', '<?xml version="1.0"?>\n<osmChange version="0.6"><create/></osmChange>\n'), 'INPUT_UNSUPPORTED', /apply-changes/);
  });
});
