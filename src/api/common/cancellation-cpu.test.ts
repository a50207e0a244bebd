/**
 * Cancellation that stops the work, measured by CPU time (issue 17 part 3): a real `maphist serve`
 * process over the Andorra sample gets a heavy request of each kind (a v1 aggregation, a v1
 * extraction, a v2 statistic, a v2 extraction); once the server is visibly busy with it the client
 * hangs up, or a tiny time limit expires; then the server's CPU time (utime + stime of
 * /proc/<pid>/stat, every thread, DuckDB's included) must fall to idle: under 0.2 CPU-seconds in the
 * second that begins one second after the hang-up or the limit. Each request is first checked to be
 * heavy: still unanswered after the server has spent 0.3 CPU-seconds on it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HISTORY_DIR } from '../../testing/test-data.js';
import { cancelAndMeasure, HEAVY, idle } from '../../testing/fuzz/cancel-cpu.js';
import { importInto, startServer, type ServerProcess } from '../../testing/fuzz/server-process.js';

describe('cancellation stops the work: CPU time of a real server process', { skip: process.platform !== 'linux' && 'reads /proc' }, () => {
  let dir: string;
  let db: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'maphist-cpu-'));
    db = join(dir, 'andorra.duckdb');
    await importInto(join(HISTORY_DIR, 'andorra.osh.pbf'), db);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('the client hangs up', () => {
    let server: ServerProcess;
    before(async () => (server = await startServer(db)));
    after(() => server?.stop());
    for (const h of HEAVY) {
      it(`${h.name}: the server's CPU use falls to idle within a second`, async () => {
        await idle(server);
        const w = await cancelAndMeasure(server, h, 'disconnect');
        assert.ok(w.secondSecond < 0.2, `${h.name}: ${w.secondSecond.toFixed(2)} CPU-seconds in the second after the first one after the hang-up`);
      });
    }
  });

  describe('a time limit of one second expires', () => {
    let server: ServerProcess;
    before(async () => (server = await startServer(db, ['--timeout', '1', '--stats-timeout', '1', '--extraction-timeout', '1'])));
    after(() => server?.stop());
    for (const h of HEAVY) {
      it(`${h.name}: the server's CPU use falls to idle within a second`, async () => {
        await idle(server);
        const w = await cancelAndMeasure(server, h, 'timeout');
        assert.ok(!w.complete || w.status !== 200, `${h.name}: answered completely within the time limit: not heavy enough for this test`);
        assert.ok(w.secondSecond < 0.2, `${h.name}: ${w.secondSecond.toFixed(2)} CPU-seconds in the second after the first one after the time limit`);
      });
    }
  });
});
