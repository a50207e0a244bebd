/**
 * `checkChangesetDump`, the check `maphist import --changesets` runs before the history import:
 * it accepts the hand-written dump (testdata/changesets/) in every compression, refuses what is not a
 * dump with the reader's own codes, and stops at the first changeset, so a dump cut off further on
 * passes it (the load then fails, atomically: src/store/changesets.test.ts).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMaphistError } from '../../core/errors.js';
import { TEST_DATA, TESTCASES_DIR } from '../../testing/test-data.js';
import { checkChangesetDump, readChangesets } from './open-changesets.js';

const DUMP = join(TEST_DATA, 'changesets', 'handmade-changesets.osm');

async function failsWith(p: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  await assert.rejects(p, (e) => isMaphistError(e) && e.code === code && (message === undefined || message.test(e.message)));
}

async function readAll(path: string): Promise<number> {
  let n = 0;
  for await (const batch of readChangesets(path)) n += batch.length;
  return n;
}

describe('checkChangesetDump', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'maphist-check-changesets-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('accepts the dump, plain, gzip and bzip2', async () => {
    for (const suffix of ['', '.gz', '.bz2']) await checkChangesetDump(`${DUMP}${suffix}`);
  });

  it('refuses a missing file, a directory, a PBF, a history in XML and another XML document', async () => {
    await failsWith(checkChangesetDump(join(dir, 'nope.osm.bz2')), 'INPUT_NOT_FOUND', /does not exist/);
    await failsWith(checkChangesetDump(dir), 'INPUT_NOT_FOUND', /directory/);
    await failsWith(checkChangesetDump(join(TESTCASES_DIR, 'handmade', 'history-small.osh.pbf')), 'INPUT_NOT_OSM', /PBF/);
    await failsWith(checkChangesetDump(join(TESTCASES_DIR, 'handmade', 'history-small.osh')), 'INPUT_NOT_OSM', /map data \(<node>\)/);
    const gpx = join(dir, 'track.gpx');
    writeFileSync(gpx, '<?xml version="1.0"?>\n<gpx version="1.1"><trk/></gpx>\n');
    await failsWith(checkChangesetDump(gpx), 'INPUT_NOT_OSM', /root element is <gpx>/);
  });

  it('a dump cut off after its first changeset passes the check, and the reader then fails with INPUT_TRUNCATED', async () => {
    const text = readFileSync(DUMP, 'utf8');
    const cut = join(dir, 'cut.osm');
    writeFileSync(cut, text.slice(0, text.indexOf('<changeset id="7"') + 20));
    await checkChangesetDump(cut);
    await failsWith(readAll(cut), 'INPUT_TRUNCATED');
    assert.equal(await readAll(DUMP), 13);
  });

  it('a small file with no changeset is read to its end: cut off it fails, complete it passes', async () => {
    const head = '<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="x">\n <bound box="-90,-180,90,180" origin="x"/>\n';
    const cut = join(dir, 'empty-cut.osm');
    writeFileSync(cut, head);
    await failsWith(checkChangesetDump(cut), 'INPUT_TRUNCATED');
    const empty = join(dir, 'empty.osm');
    writeFileSync(empty, `${head}</osm>\n`);
    await checkChangesetDump(empty);
    assert.equal(await readAll(empty), 0);
  });
});
