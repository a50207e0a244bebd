/**
 * Replication sources over a local directory (a path and a file:// URL) and over HTTP from a real
 * local server (node:http serving the same directory; failures are answered by that server).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { isMaphistError, type ErrorCode } from '../../core/errors.js';
import { writeReplicationDir } from '../../testing/replication-dir.js';
import { serveDirectory, type StaticServer } from '../../testing/static-server.js';
import { TEST_DATA } from '../../testing/test-data.js';
import { openReplicationSource, type ReplicationSource } from './source.js';

const REAL = join(TEST_DATA, 'changes', '000466354.osc.gz');
const T0 = Date.parse('2013-08-04T20:13:02Z') / 1000;
const FAST = { retries: 2, retryDelayMs: 10, timeoutMs: 2000 };

async function rejects(p: Promise<unknown>, code: ErrorCode, message: RegExp): Promise<void> {
  await assert.rejects(p, (e) => isMaphistError(e) && e.code === code && message.test(e.message));
}

describe('replication sources', () => {
  let dir: string;
  let root: string;
  let server: StaticServer;
  /** Paths the server answers with a status (a count of times, then the file), or stalls on. */
  const failing = new Map<string, { status: number; times: number }>();
  const stalling = new Set<string>();

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'maphist-replication-source-'));
    dir = join(root, 'minute');
    writeReplicationDir(dir, [
      { sequence: 466353, timestamp: T0 - 60 },
      { sequence: 466354, timestamp: T0, change: { file: REAL } },
      { sequence: 466355, timestamp: T0 + 60, state: false },
      { sequence: 466356, timestamp: T0 + 120, change: false },
    ]);
    writeFileSync(join(dir, '000', '466', '353.osc.gz'), '<html>Internal error</html>');
    server = await serveDirectory(dir, (path, _req, res) => {
      const f = failing.get(path);
      if (f && f.times > 0) {
        f.times--;
        res.writeHead(f.status).end('failing');
        return true;
      }
      if (stalling.has(path)) {
        res.writeHead(200, { 'content-length': 1000 });
        res.write('sequenceNumber=1'); // and never the rest
        return true;
      }
      return false;
    });
  });
  after(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  const kinds: [string, () => Promise<ReplicationSource>][] = [
    ['a directory', () => openReplicationSource(dir)],
    ['a file:// URL', () => openReplicationSource(pathToFileURL(dir).href)],
    ['HTTP', () => openReplicationSource(server.url, FAST)],
    ['HTTP without the trailing slash', () => openReplicationSource(server.url.replace(/\/$/, ''), FAST)],
  ];
  for (const [name, open] of kinds) {
    it(`reads states and change files from ${name}; a missing one is undefined`, async () => {
      const source = await open();
      assert.deepEqual(await source.latestState(), { sequence: 466356, timestamp: T0 + 120 });
      assert.deepEqual(await source.stateOf(466354), { sequence: 466354, timestamp: T0 });
      assert.equal(await source.stateOf(466355), undefined);
      assert.equal(await source.stateOf(1), undefined);
      const gz = await source.changeFile(466354);
      assert.deepEqual(Buffer.from(gz!), readFileSync(REAL));
      assert.match(gunzipSync(gz!).toString('utf8', 0, 200), /<osmChange version="0.6"/);
      assert.equal(await source.changeFile(466356), undefined);
      await rejects(source.changeFile(466353), 'REPLICATION_INVALID', /353\.osc\.gz is not a gzip file/);
      assert.deepEqual(source.fetched, { states: 4, changes: 3 });
    });
  }

  it('retries a 503 and a 500 with backoff, then reads the file', async () => {
    failing.set('/state.txt', { status: 503, times: 2 });
    failing.set('/000/466/354.state.txt', { status: 500, times: 1 });
    const source = await openReplicationSource(server.url, FAST);
    const start = server.requests.length;
    assert.equal((await source.latestState()).sequence, 466356);
    assert.equal((await source.stateOf(466354))?.sequence, 466354);
    assert.deepEqual(server.requests.slice(start), ['/state.txt', '/state.txt', '/state.txt', '/000/466/354.state.txt', '/000/466/354.state.txt']);
  });

  it('fails clearly after its retries, at once on a 403, and on a stalled answer after its time-out', async () => {
    const source = await openReplicationSource(server.url, FAST);
    failing.set('/000/466/354.state.txt', { status: 502, times: 10 });
    let start = server.requests.length;
    await rejects(
      source.stateOf(466354),
      'REPLICATION_SOURCE_FAILED',
      /^Cannot read http:.*\/000\/466\/354\.state\.txt: HTTP 502 Bad Gateway \(3 attempts\)\. Check the URL/,
    );
    assert.equal(server.requests.length - start, 3);
    failing.set('/000/466/354.state.txt', { status: 403, times: 10 });
    start = server.requests.length;
    await rejects(source.stateOf(466354), 'REPLICATION_SOURCE_FAILED', /HTTP 403 Forbidden \(1 attempt\)/);
    assert.equal(server.requests.length - start, 1);
    failing.delete('/000/466/354.state.txt');
    stalling.add('/state.txt');
    try {
      const impatient = await openReplicationSource(server.url, { ...FAST, timeoutMs: 300 });
      await rejects(impatient.latestState(), 'REPLICATION_SOURCE_FAILED', /state\.txt: no complete answer within 0\.3 s \(3 attempts\)/);
    } finally {
      stalling.delete('/state.txt');
    }
  });

  it('fails clearly on a server that is not there, and stops at once when cancelled', async () => {
    const closed = await serveDirectory(dir);
    await closed.close();
    const source = await openReplicationSource(closed.url, { retries: 1, retryDelayMs: 10, timeoutMs: 2000 });
    await rejects(source.latestState(), 'REPLICATION_SOURCE_FAILED', /ECONNREFUSED.*\(2 attempts\)/);
    const abort = new AbortController();
    const slow = await openReplicationSource(closed.url, { retries: 5, retryDelayMs: 60_000, signal: abort.signal });
    const pending = slow.latestState();
    setTimeout(() => abort.abort(new Error('stop')), 50);
    await assert.rejects(pending, /^Error: stop$/);
  });

  it('refuses a source without a root state, a directory that does not exist, and a scheme it does not read', async () => {
    await rejects((await openReplicationSource(root)).latestState(), 'REPLICATION_SOURCE_FAILED', /state\.txt does not exist: .* is not a replication source/);
    await rejects((await openReplicationSource(`${server.url}nothing/`, FAST)).latestState(), 'REPLICATION_SOURCE_FAILED', /not a replication source/);
    await rejects(openReplicationSource(join(root, 'none')), 'REPLICATION_SOURCE_FAILED', /does not exist or is not a directory/);
    await rejects(openReplicationSource('ftp://example.org/minute/'), 'REPLICATION_SOURCE_FAILED', /http\(s\):\/\/ or file:\/\/ URL or a directory/);
  });

  it('refuses a state file that names another sequence', async () => {
    const other = join(root, 'other');
    writeReplicationDir(other, [{ sequence: 5, timestamp: T0 }]);
    writeFileSync(join(other, '000', '000', '005.state.txt'), 'sequenceNumber=6\ntimestamp=2013-08-04T20\\:13\\:02Z\n');
    await rejects((await openReplicationSource(other)).stateOf(5), 'REPLICATION_INVALID', /005\.state\.txt gives sequence 6, not 5/);
  });

  it('reads changeset replication (state.yaml, .osm.gz)', async () => {
    const cs = join(root, 'changesets');
    writeReplicationDir(cs, [{ sequence: 6079424, timestamp: T0 + 0.25, change: { text: '<osm version="0.6"/>' } }], { kind: 'changesets' });
    assert.match(readFileSync(join(cs, 'state.yaml'), 'utf8'), /^---\nlast_run: 2013-08-04 20:13:02\.250000000 Z\nsequence: 6079424\n$/);
    const source = await openReplicationSource(cs, { kind: 'changesets' });
    assert.deepEqual(await source.latestState(), { sequence: 6079424, timestamp: T0 + 0.25 });
    assert.deepEqual(await source.stateOf(6079424), { sequence: 6079424, timestamp: T0 + 0.25 });
    assert.equal(gunzipSync((await source.changeFile(6079424))!).toString(), '<osm version="0.6"/>');
  });
});
