/**
 * DuckDB failing under a query (here: the store closed beneath a running server) comes out of the
 * engine seam (statements.ts) as the catalog's ENGINE_FAILURE, with DuckDB's error as its cause:
 * both API versions answer 500 and log the coded error.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { isMaphistError } from '../core/errors.js';
import { V1_ERROR_STATUS } from './v1/error-status.js';
import { V2_ERROR_STATUS } from './v2/error-status.js';
import { EXIT_CODES } from '../cli/exit-codes.js';
import { importToTemp, type ImportedDb } from '../store/test-support.js';
import { TESTCASES_DIR } from '../testing/test-data.js';
import { createDuckDbServer } from '../testing/server.js';
import { readAllRows, streamRows } from '../engines/duckdb/statements.js';

const FILE = join(TESTCASES_DIR, 'never-tagged', 'history.osh');

function isEngineFailure(e: unknown): true {
  assert.ok(isMaphistError(e), String(e));
  assert.equal(e.code, 'ENGINE_FAILURE');
  assert.ok(e.cause instanceof Error, 'DuckDB error kept as the cause');
  assert.equal(e.message, (e.cause as Error).message, "DuckDB's message");
  return true;
}

describe('engine failures are coded (ENGINE_FAILURE)', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  const log: string[] = [];
  before(async () => {
    db = await importToTemp(FILE);
    const logger = { level: 'error', stream: { write: (line: string) => void log.push(line) } } as unknown as { level: string };
    app = await createDuckDbServer(db.store, { timeoutSeconds: 100, logger });
  });
  after(async () => {
    await app.close();
    db.dispose();
  });

  it('a statement DuckDB refuses: ENGINE_FAILURE from readAllRows and streamRows', async () => {
    await assert.rejects(readAllRows(db.store, 'SELECT no_such_column FROM states', undefined), isEngineFailure);
    await assert.rejects(
      (async () => {
        for await (const _ of streamRows(db.store, 'SELECT no_such_column FROM states')) void _;
      })(),
      isEngineFailure,
    );
  });

  it('an answer before the store goes away, 500 after it, from both API versions, logged with the code', async () => {
    const v1 = () => app.inject({ method: 'GET', url: '/v1/elements/count?bboxes=20,20,20.01,20.01&time=2021-02-01' });
    const v2 = () =>
      app.inject({
        method: 'POST',
        url: '/v2-rc/stats/features/count.json',
        payload: { aoi: [20, 20, 20.01, 20.01], filter: 'type:node', time: { start: '2021-01-01', end: '2021-06-01', interval: 'P1M' } },
      });
    assert.equal((await v1()).statusCode, 200);
    const before = await v2();
    assert.equal(before.statusCode, 200, before.body);
    db.store.close();
    await assert.rejects(readAllRows(db.store, 'SELECT 1', undefined), isEngineFailure);

    const r1 = await v1();
    assert.equal(r1.statusCode, V1_ERROR_STATUS.ENGINE_FAILURE);
    assert.equal(r1.statusCode, 500);
    assert.equal(JSON.parse(r1.body).error, 'Internal Server Error');
    const r2 = await v2();
    assert.equal(r2.statusCode, V2_ERROR_STATUS.ENGINE_FAILURE);
    assert.deepEqual(JSON.parse(r2.body), { detail: 'Internal Server Error' });
    const logged = log.map((l) => JSON.parse(l) as { err?: { code?: string } }).filter((l) => l.err?.code === 'ENGINE_FAILURE');
    assert.equal(logged.length, 2, log.join('\n'));
    assert.equal(EXIT_CODES.ENGINE_FAILURE, 11);
  });
});
