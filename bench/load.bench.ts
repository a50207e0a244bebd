/**
 * bench:load — many clients at once. One build of maphist (this checkout, or `--checkout DIR`)
 * serves a store (`--db`, default: the merged four-country history imported afresh) from its own
 * process; N clients (default 32, then 128) each send requests for S seconds (default 60), one at a
 * time, from a mixed set: the requests of bench/cases.ts (v1 (a)–(e), v2 (a)–(b), the two
 * extractions) and the trivial `/v1/metadata` and `/v2-rc/health`, every client starting at its own
 * place in the list. A client answered 503 waits its `Retry-After` (at most 1 s) before its next request.
 * Besides the clients, a probe asks `/v2-rc/health` every 200 ms: its largest wait is the
 * "trivial max" (together with the trivial requests of the mix).
 *
 *   npm run build && node dist/bench/load.bench.js [--checkout DIR] [--db FILE] [--clients 32,128]
 *     [--seconds 60] [--label after] [--serve-args "--memory-limit 4GB"] [--set all|v1]
 *     [--node-args="--cpu-prof --cpu-prof-dir=DIR"]
 *
 * `--set v1`: the v1 aggregations (a)–(e) and the trivial requests only (issue 21's concurrency
 * measure). Prints per client count: requests answered 200 per second, p50 and p99 of their
 * latency, errors (anything but 200 and 503, and failed connections), 503s, and the p99 and largest
 * latency of a trivial request; with one client among the counts, each other count's heavy
 * throughput and p99 as multiples of the one client's throughput and of the mean of its slowest
 * request. Also per client count: the cores the server process kept busy (its CPU time from
 * /proc/PID/stat over the run's wall time) and the bench's own (its clients parse every answer, on
 * the same cores): with one client the server's share bounds what more clients can add, since the
 * machine has `availableParallelism()` cores and no more. Writes its section `load-<label>` of
 * bench/RESULTS.md. `--node-args`: Node's own flags for the server process (a CPU profile of the
 * server under load, written when the bench stops it: `scripts/cpuprofile-summary.mjs DIR`).
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FOUR_COUNTRIES } from '../src/testing/test-data.js';
import { EXTRACTION_CASES, V1_CASES, V2_CASES } from './cases.js';
import { machineDescription, noAnswerCache, percentile, processCpuSeconds, replaceResultsSection, startServe } from './support.js';

const { values } = parseArgs({
  options: {
    checkout: { type: 'string', default: '.' },
    db: { type: 'string' },
    clients: { type: 'string', default: '32,128' },
    seconds: { type: 'string', default: '60' },
    label: { type: 'string', default: 'after' },
    'serve-args': { type: 'string', default: '' },
    'node-args': { type: 'string', default: '' },
    set: { type: 'string', default: 'all' },
  },
});
if (values.set !== 'all' && values.set !== 'v1') throw new Error('--set takes all or v1');
const CLIENTS = values.clients!.split(',').map(Number);
const SECONDS = Number(values.seconds);

interface Req {
  id: string;
  trivial: boolean;
  url: string;
  init?: RequestInit;
}

const ALL_REQUESTS: Req[] = [
  ...V1_CASES.map((c) => ({ id: `v1 (${c.id})`, trivial: false, url: `${c.path}?${new URLSearchParams(c.params)}` })),
  ...V2_CASES.map((c) => ({
    id: `v2 (${c.id})`,
    trivial: false,
    url: c.path,
    init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(c.body) },
  })),
  ...EXTRACTION_CASES.map((c) => ({ id: c.id, trivial: false, url: c.url })),
  { id: 'v1 metadata', trivial: true, url: '/v1/metadata' },
  { id: 'v2 health', trivial: true, url: '/v2-rc/health' },
];
const REQUESTS = values.set === 'v1' ? ALL_REQUESTS.filter((r) => r.trivial || r.id.startsWith('v1 (')) : ALL_REQUESTS;

interface Outcome {
  id: string;
  ms: number;
  status: number;
  trivial: boolean;
  retryAfter?: number;
  /** Why a request failed without a status. */
  failure?: string;
}

async function send(base: string, r: Req): Promise<Outcome> {
  const t = performance.now();
  try {
    const res = await fetch(base + r.url, { ...r.init, signal: AbortSignal.timeout(300_000) });
    await res.arrayBuffer();
    const retryAfter = res.status === 503 ? Number(res.headers.get('retry-after') ?? 1) : undefined;
    return { id: r.id, ms: performance.now() - t, status: res.status, trivial: r.trivial, retryAfter };
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return { id: r.id, ms: performance.now() - t, status: 0, trivial: r.trivial, failure: `${r.id}: ${cause?.code ?? cause?.message ?? (e as Error).message}` };
  }
}

/** Per client count: the statuses other than 200 (0: the connection failed or timed out). */
const otherStatuses: string[] = [];

/** The CPU seconds of this process (the clients), user + system. */
function ownCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

interface Run {
  row: string[];
  /** Cores the server kept busy during the run (CPU seconds over wall seconds). */
  serverCores: number | undefined;
  heavyPerSecond: number;
  heavyP99: number;
  /** The mean latency of the slowest heavy request (by its id). */
  slowestMean: { id: string; ms: number };
}

async function run(base: string, clients: number, serverPid: number): Promise<Run> {
  const end = performance.now() + SECONDS * 1000;
  const outcomes: Outcome[] = [];
  const client = async (k: number) => {
    for (let i = k; performance.now() < end; i++) {
      const o = await send(base, REQUESTS[i % REQUESTS.length]);
      outcomes.push(o);
      if (o.retryAfter !== undefined) await new Promise((ok) => setTimeout(ok, Math.min(1, o.retryAfter!) * 1000));
    }
  };
  const probes: number[] = [];
  const probe = async () => {
    while (performance.now() < end) {
      probes.push((await send(base, REQUESTS[REQUESTS.length - 1])).ms);
      await new Promise((ok) => setTimeout(ok, 200));
    }
  };
  const t = performance.now();
  const serverCpu0 = processCpuSeconds(serverPid);
  const ownCpu0 = ownCpuSeconds();
  await Promise.all([...Array.from({ length: clients }, (_, k) => client(k)), probe()]);
  const seconds = (performance.now() - t) / 1000;
  const serverCpu1 = processCpuSeconds(serverPid);
  const serverCores = serverCpu0 === undefined || serverCpu1 === undefined ? undefined : (serverCpu1 - serverCpu0) / seconds;
  const benchCores = (ownCpuSeconds() - ownCpu0) / seconds;
  const ok = outcomes.filter((o) => o.status === 200);
  const heavyOk = ok.filter((o) => !o.trivial).map((o) => o.ms);
  const errors = outcomes.filter((o) => o.status !== 200 && o.status !== 503).length;
  const refused = outcomes.filter((o) => o.status === 503).length;
  const counts = new Map<number, number>();
  for (const o of outcomes) if (o.status !== 200) counts.set(o.status, (counts.get(o.status) ?? 0) + 1);
  const failures = new Map<string, number>();
  for (const o of outcomes) if (o.failure) failures.set(o.failure, (failures.get(o.failure) ?? 0) + 1);
  const why = [...failures].map(([f, n]) => `${n} × ${f}`).join(', ');
  otherStatuses.push(`${clients} clients: ${[...counts].map(([s, n]) => `${n} × ${s}`).join(', ') || 'none'}${why ? ` (status 0: ${why})` : ''}`);
  const trivial = [...probes, ...outcomes.filter((o) => o.trivial).map((o) => o.ms)];
  const byId = new Map<string, number[]>();
  for (const o of outcomes) if (o.status === 200 && !o.trivial) byId.set(o.id, [...(byId.get(o.id) ?? []), o.ms]);
  const means = [...byId].map(([id, ms]) => ({ id, ms: ms.reduce((a, b) => a + b, 0) / ms.length }));
  const slowestMean = means.reduce((a, b) => (b.ms > a.ms ? b : a), { id: '', ms: 0 });
  const row = [
    String(clients),
    seconds.toFixed(0),
    String(outcomes.length),
    (ok.length / seconds).toFixed(1),
    (heavyOk.length / seconds).toFixed(1),
    percentile(heavyOk, 50).toFixed(0),
    percentile(heavyOk, 99).toFixed(0),
    String(errors),
    String(refused),
    percentile(trivial, 99).toFixed(0),
    Math.max(...trivial).toFixed(0),
    serverCores === undefined ? '–' : serverCores.toFixed(2),
    benchCores.toFixed(2),
  ];
  return { row, serverCores, heavyPerSecond: heavyOk.length / seconds, heavyP99: percentile(heavyOk, 99), slowestMean };
}

const checkout = resolve(values.checkout!);
const cli = join(checkout, 'dist/src/cli/main.js');
const work = mkdtempSync(join(tmpdir(), 'maphist-load-'));
let child: ChildProcess | undefined;
try {
  let db = values.db ? resolve(values.db) : join(work, 'load.duckdb');
  if (!values.db) execFileSync(process.execPath, [cli, 'import', FOUR_COUNTRIES, '--db', db], { stdio: 'ignore' });
  const commit = execFileSync('git', ['-C', checkout, 'rev-parse', '--short', 'HEAD']).toString().trim();
  const extra = values['serve-args']!.split(' ').filter((s) => s.length > 0);
  const nodeArgs = values['node-args']!.split(' ').filter((s) => s.length > 0);
  const server = await startServe(checkout, ['--db', db, '--no-api-keys', '--log-format', 'json', ...noAnswerCache(checkout), ...extra], nodeArgs);
  child = server.child;
  const base = server.base;
  // Warm-up: each request once.
  for (const r of REQUESTS) {
    const o = await send(base, r);
    if (o.status !== 200) throw new Error(`${r.id}: HTTP ${o.status} in the warm-up`);
  }
  const rows: string[] = [];
  const runs = new Map<number, Run>();
  console.log(
    'clients | s | requests | 200/s | heavy 200/s | heavy p50 ms | heavy p99 ms | errors | 503s | trivial p99 ms | trivial max ms | server cores | bench cores',
  );
  for (const n of CLIENTS) {
    const r = await run(base, n, child.pid!);
    runs.set(n, r);
    console.log(r.row.join(' | '), `(${otherStatuses.at(-1)})`);
    rows.push(`| ${r.row.join(' | ')} |`);
  }
  // Against one client: throughput gained, and p99 as a multiple of the slowest request alone.
  const one = runs.get(1);
  const against = one
    ? [...runs]
        .filter(([n]) => n !== 1)
        .map(
          ([n, r]) =>
            `${n} clients: heavy throughput ${(r.heavyPerSecond / one.heavyPerSecond).toFixed(2)}× one client's, heavy p99 ${(r.heavyP99 / one.slowestMean.ms).toFixed(1)}× the one client's mean of its slowest request (${one.slowestMean.id}, ${one.slowestMean.ms.toFixed(0)} ms)`,
        )
    : [];
  // What more clients can add at most: the cores the one client left idle.
  if (one?.serverCores !== undefined) {
    const cores = availableParallelism();
    against.push(
      `one client kept ${one.serverCores.toFixed(2)} of the ${cores} cores busy in the server: more clients can add at most ${(cores / one.serverCores).toFixed(2)}× its throughput unless each request costs less CPU`,
    );
  }
  for (const line of against) console.log(line);
  const la = loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');
  db = db.startsWith(work) ? `${FOUR_COUNTRIES.split('/').pop()} imported afresh` : db;
  replaceResultsSection(
    `load-${values.label}`,
    `## Load, ${values.label} (\`node dist/bench/load.bench.js --label ${values.label}\`)

Machine: ${machineDescription()}; load average ${la} at the end. Build \`${commit}\`, store: ${db}${extra.length ? `, \`serve ${extra.join(' ')}\`` : ''}.
Mixed set: ${values.set === 'v1' ? 'v1 (a)–(e)' : 'v1 (a)–(e), v2 (a)–(b), the two extractions'} (bench/cases.ts), \`/v1/metadata\`, \`/v2-rc/health\`;
each client sends one at a time, a 503 makes it wait its Retry-After (at most 1 s). "heavy": the
non-trivial requests answered 200. "trivial": the latencies of the trivial requests (the mix's and a
probe's every 200 ms). "server cores", "bench cores": CPU seconds over the run's wall time of the
server process and of the bench's (the clients).

| clients | s | requests | 200/s | heavy 200/s | heavy p50 ms | heavy p99 ms | errors | 503s | trivial p99 ms | trivial max ms | server cores | bench cores |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}

Answers other than 200: ${otherStatuses.join('; ')}.
${against.length ? `\n${against.map((l) => `- ${l}`).join('\n')}\n` : ''}
`,
  );
} finally {
  child?.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  rmSync(work, { recursive: true, force: true });
}
