/**
 * bench:follow — request latency of a server while it follows a replication source (issue 18
 * part 4), against the same load on the same data without updates. The Andorra history is split
 * at 2016-06-01 (src/testing/split-history.ts) and its later edits cut into change files of
 * `--days` days (default 10) published as a local replication directory; the history part is
 * imported into two stores. Server A serves one with `--replication DIR --replication-interval 1
 * --replication-max-sequences 1` (it keeps applying sequences one at a time, swapping generations);
 * server B the other, without. The same
 * clients (default 4, each one request at a time from the list below, times inside the first
 * part's data so every answer is a 200) run for `--seconds` (default 60) against B, then A.
 *
 *   npm run build && node dist/bench/follow.bench.js [--seconds 60] [--clients 4] [--days 10]
 *
 * Prints p50/p99 per server, the requests answered, failures, and how many generations A swapped in.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { importInto, startServer, type ServerProcess } from '../src/testing/fuzz/server-process.js';
import { writeReplicationDir } from '../src/testing/replication-dir.js';
import { splitHistory } from '../src/testing/split-history.js';
import { HISTORY_DIR } from '../src/testing/test-data.js';
import { machineDescription } from './support.js';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '60' }, clients: { type: 'string', default: '4' }, days: { type: 'string', default: '10' } },
});
const SECONDS = Number(values.seconds);
const CLIENTS = Number(values.clients);
const DAYS = Number(values.days);
const B = '1.41,42.42,1.79,42.66';
const REQUESTS = [
  `/v1/elements/count?bboxes=${B}&time=2010-01-01/2016-05-01/P1M`,
  `/v1/elements/length/groupBy/type?bboxes=${B}&time=2012-01-01/2016-05-01/P3M&filter=highway=*`,
  `/v1/contributions/count?bboxes=${B}&time=2012-01-01/2016-05-01/P1M`,
  `/v1/users/count?bboxes=${B}&time=2012-01-01/2016-05-01/P1Y`,
  '/v1/metadata',
  '/v2-rc/health',
];

const epoch = (iso: string) => Date.parse(iso) / 1000;
const iso = (t: number) => new Date(t * 1000).toISOString().replace('.000Z', 'Z');

async function load(server: ServerProcess): Promise<{ ms: number[]; failures: number }> {
  const ms: number[] = [];
  let failures = 0;
  const end = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = c; Date.now() < end; i++) {
        const t0 = performance.now();
        try {
          const r = await fetch(`${server.url}${REQUESTS[i % REQUESTS.length]}`);
          await r.arrayBuffer();
          if (r.status === 200) ms.push(performance.now() - t0);
          else failures++;
        } catch {
          failures++;
        }
      }
    }),
  );
  return { ms: ms.sort((a, b) => a - b), failures };
}

const quantile = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? Number.NaN;

const dir = mkdtempSync(join(tmpdir(), 'maphist-follow-bench-'));
try {
  const start = epoch('2016-06-01T00:00:00Z');
  const dataEnd = epoch('2017-02-20T00:00:00Z');
  const cuts: number[] = [];
  for (let t = start; t < dataEnd; t += DAYS * 86400) cuts.push(t);
  const changes = cuts.map((_, i) => join(dir, `change-${i}.osc.gz`));
  const history = join(dir, 'history.osh.pbf');
  const split = await splitHistory({ input: join(HISTORY_DIR, 'andorra.osh.pbf'), history, changes, cuts });
  const followed = join(dir, 'followed.duckdb');
  const still = join(dir, 'still.duckdb');
  await importInto(history, followed);
  await importInto(history, still);
  const replication = join(dir, 'replication');
  writeReplicationDir(replication, [
    { sequence: 99, timestamp: start - 7 * 86400 },
    ...changes.map((file, i) => ({ sequence: 100 + i, timestamp: cuts[i + 1] ?? dataEnd, change: { file } })),
  ]);
  console.log(machineDescription());
  console.log(
    `data: andorra.osh.pbf split at ${iso(start)}: ${split.historyVersions} versions imported, ${changes.length} change files of ${DAYS} days (${split.changeVersions.reduce((a, b) => a + b, 0)} versions) as sequences 100–${99 + changes.length}`,
  );
  const rows: string[] = [];
  for (const [label, db, args] of [
    ['without updates', still, []],
    [
      'following (an update every second, one sequence each)',
      followed,
      ['--replication', replication, '--replication-interval', '1', '--replication-max-sequences', '1'],
    ],
  ] as const) {
    const server = await startServer(db, [...args]);
    try {
      const r = await load(server);
      const generations = (server.stderrTail().match(/serving generation \d+/g) ?? []).length;
      // What the follower said last (its updates' summaries, or why one failed).
      for (const line of server
        .stderrTail()
        .split('\n')
        .filter((l) => l.startsWith('replication:'))
        .slice(-3))
        console.log(`  ${label}: ${line}`);
      const metadata = (await (await fetch(`${server.url}/v1/metadata`)).json()) as { extractRegion: { replicationSequenceNumber: number } };
      rows.push(
        `| ${label} | ${r.ms.length} | ${r.failures} | ${quantile(r.ms, 0.5).toFixed(0)} | ${quantile(r.ms, 0.99).toFixed(0)} | ${generations} | ${metadata.extractRegion.replicationSequenceNumber} |`,
      );
    } finally {
      await server.stop();
    }
  }
  console.log(`${CLIENTS} clients, ${SECONDS} s each\n`);
  console.log('| server | requests answered 200 | failures | p50 ms | p99 ms | generations swapped in | sequence at the end |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) console.log(r);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
