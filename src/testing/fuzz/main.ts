/**
 * `npm run fuzz -- [--db PATH] [--seed N] [--requests N] [--concurrency N] [--rss-budget GiB]
 * [--hang-seconds S] [--trivial-limit-ms MS] [--server-timeout S] [--from I] [--only I,J,…] [--max-seconds S] [--max-failures N]`:
 * imports the four-country sample into a temporary folder (or uses --db), starts a real
 * `maphist serve` process and sends it the seeded requests (runner.ts). Prints the summary; exits
 * with 1 on any failure (5xx, hang, unanswered request, slow trivial request, RSS over budget,
 * server exit), naming the seed and request indices to replay with --only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FOUR_COUNTRIES } from '../test-data.js';
import { formatReport, runFuzz } from './runner.js';
import { importInto, startServer } from './server-process.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    seed: { type: 'string', default: '1' },
    requests: { type: 'string', default: '100000' },
    concurrency: { type: 'string', default: '4' },
    'rss-budget': { type: 'string', default: '4' },
    'hang-seconds': { type: 'string', default: '60' },
    'trivial-limit-ms': { type: 'string', default: '2000' },
    'server-timeout': { type: 'string', default: '30' },
    'max-seconds': { type: 'string' },
    only: { type: 'string' },
    /** Start at this request index (e.g. after the hostile catalogue: the random requests only). */
    from: { type: 'string', default: '0' },
    'max-failures': { type: 'string', default: '1000' },
  },
});

const num = (name: keyof typeof values) => {
  const n = Number(values[name]);
  if (!Number.isFinite(n) || n < 0) {
    console.error(`fuzz: --${name} takes a number`);
    process.exit(2);
  }
  return n;
};

const seed = num('seed');
const only = values.only?.split(',').map(Number);
let dir: string | undefined;
let db = values.db;
if (db === undefined) {
  dir = mkdtempSync(join(tmpdir(), 'maphist-fuzz-'));
  db = join(dir, 'fuzz.duckdb');
  console.log(`importing ${FOUR_COUNTRIES} into ${db} …`);
  await importInto(FOUR_COUNTRIES, db);
}
const limit = String(num('server-timeout'));
const server = await startServer(db, ['--timeout', limit, '--stats-timeout', limit, '--extraction-timeout', limit]);
console.log(
  `server ${server.url} (pid ${server.pid}); seed ${seed}, ${only ? `requests ${only.join(',')}` : `${num('requests')} requests from #${num('from')}`}, concurrency ${num('concurrency')}`,
);
const interrupted = async () => {
  await server.stop(2000);
  if (dir) rmSync(dir, { recursive: true, force: true });
  process.exit(130);
};
process.once('SIGINT', interrupted);
process.once('SIGTERM', interrupted);
let code = 1;
try {
  const report = await runFuzz({
    url: server.url,
    pid: server.pid,
    exited: server.exited,
    seed,
    requests: num('requests'),
    from: num('from'),
    maxFailures: num('max-failures'),
    only,
    concurrency: Math.max(1, num('concurrency')),
    hangMs: num('hang-seconds') * 1000,
    serverLimitSeconds: num('server-timeout'),
    trivialLimitMs: num('trivial-limit-ms'),
    probeEveryMs: 250,
    rssBudget: num('rss-budget') * 2 ** 30,
    maxMs: values['max-seconds'] === undefined ? undefined : num('max-seconds') * 1000,
    progressEvery: 5000,
    onFailure: (f) => console.log(`  failure #${f.index} ${f.kind}: ${f.what} — ${f.method} ${f.target.slice(0, 160)}`),
    onProgress: (done, r) =>
      console.log(
        `  ${done} sent: 5xx ${r.fiveXx}, hangs ${r.hangs}, failures ${r.failures.length}, longest trivial wait ${Math.round(r.maxTrivialWaitMs)} ms`,
      ),
  });
  const replay = `npm run fuzz --${values.db ? ` --db ${values.db}` : ''}`;
  console.log(formatReport(report, replay));
  if (report.failures.length > 0) {
    const tail = server.stderrTail().trim();
    if (tail) console.log(`server standard error (last lines):\n${tail.split('\n').slice(-30).join('\n')}`);
    const warnings = server.warningsTail().trim();
    if (warnings) console.log(`server warnings and errors (last lines):\n${warnings.split('\n').slice(-20).join('\n')}`);
  }
  code = report.failures.length === 0 ? 0 : 1;
} finally {
  await server.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
console.log(code === 0 ? 'fuzz: passed' : 'fuzz: FAILED');
process.exit(code);
