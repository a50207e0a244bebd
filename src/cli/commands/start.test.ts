/**
 * `maphist start` on a database that an older maphist made from the bundled sample: it imports the
 * sample again instead of refusing the old schema (the quick start must keep working after an
 * upgrade), then serves. A database of another history file is never replaced.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { importHistory } from '../../store/import-history.js';
import { openStore } from '../../store/open-store.js';
import { TESTCASES_DIR } from '../../testing/test-data.js';
import { SAMPLE_HISTORY } from '../defaults.js';
import { SCHEMA_VERSION } from '../../store/schema.js';

const MAIN = join(process.cwd(), 'dist', 'src', 'cli', 'main.js');

/** Rewrites the schema version a store says it has, as an older maphist would have written it. */
async function ageStore(db: string): Promise<void> {
  const instance = await DuckDBInstance.create(db);
  const con = await instance.connect();
  await con.run(`UPDATE meta SET value = '${SCHEMA_VERSION - 1}' WHERE key = 'schemaVersion'`);
  con.closeSync();
  instance.closeSync();
}

/** Runs `maphist start` until it serves (resolves with its output) or exits (rejects). */
function startUntilServing(db: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, 'start', '--db', db, '--port', '0', '--no-api-keys'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('maphist serving')) {
        child.kill('SIGTERM');
        resolve(out);
      }
    });
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => reject(new Error(`maphist start exited with ${code}: ${out}`)));
  });
}

describe('maphist start on an older database', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'maphist-start-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the bundled sample in an older schema is imported again, then served', async () => {
    const db = join(dir, 'sample.duckdb');
    await importHistory({ input: SAMPLE_HISTORY, db });
    await ageStore(db);
    await assert.rejects(openStore(db), /schema version/);
    const out = await startUntilServing(db);
    assert.match(out, /older schema: importing .*andorra\.osh\.pbf again/);
    const store = await openStore(db);
    assert.equal(store.metadata.schemaVersion, SCHEMA_VERSION);
    store.close();
  });

  it('another history in an older schema is left alone: start refuses it with exit 7', async () => {
    const db = join(dir, 'handmade.duckdb');
    await importHistory({ input: join(TESTCASES_DIR, 'handmade', 'history-small.osh.pbf'), db });
    await ageStore(db);
    await assert.rejects(startUntilServing(db), /exited with 7: .*schema version/s);
  });
});
