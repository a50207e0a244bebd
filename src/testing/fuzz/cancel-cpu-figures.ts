/**
 * `node dist/src/testing/fuzz/cancel-cpu-figures.js [--db PATH]`: the CPU seconds a real server
 * spends after the client hangs up and after a one-second time limit, per route kind (cancel-cpu.ts),
 * on the Andorra sample (imported into a temporary folder unless --db is given). Prints a Markdown table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { HISTORY_DIR } from '../test-data.js';
import { cancelAndMeasure, HEAVY, idle } from './cancel-cpu.js';
import { importInto, startServer } from './server-process.js';

const { values } = parseArgs({ options: { db: { type: 'string' } } });
let dir: string | undefined;
let db = values.db;
if (db === undefined) {
  dir = mkdtempSync(join(tmpdir(), 'maphist-cpu-'));
  db = join(dir, 'andorra.duckdb');
  await importInto(join(HISTORY_DIR, 'andorra.osh.pbf'), db);
}
console.log('| route kind | cause | CPU-s in the 1st second after | CPU-s in the 2nd second after | answer |');
console.log('|---|---|---|---|---|');
for (const mode of ['disconnect', 'timeout'] as const) {
  const server = await startServer(db, mode === 'timeout' ? ['--timeout', '1', '--stats-timeout', '1', '--extraction-timeout', '1'] : []);
  try {
    for (const h of HEAVY) {
      await idle(server);
      try {
        const w = await cancelAndMeasure(server, h, mode);
        const answer = mode === 'timeout' ? `${w.status}${w.complete ? '' : ', cut off'}` : '—';
        console.log(
          `| ${h.name} | ${mode === 'timeout' ? 'time limit 1 s' : 'client hangs up'} | ${w.firstSecond.toFixed(2)} | ${w.secondSecond.toFixed(2)} | ${answer} |`,
        );
      } catch (e) {
        console.log(`| ${h.name} | ${mode} | — | — | ${(e as Error).message.split('\n')[0]} |`);
      }
    }
  } finally {
    await server.stop();
  }
}
if (dir) rmSync(dir, { recursive: true, force: true });
