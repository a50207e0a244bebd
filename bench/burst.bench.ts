/**
 * bench:burst — many people asking for the same answer at once, with the answer cache on (issue 21
 * part 5): a dashboard view opened by a room of people, or every viewer's refresh right after an
 * update made a new store generation, whose answers nobody has asked for yet. Two builds (`--before
 * DIR` and this checkout, or `--after DIR`) serve the same store (`--db`, default: the merged
 * four-country history imported afresh) from their own processes with the same flags
 * (`--serve-args`), and alternate:
 *
 * - **burst**, `--rounds` times (default 9): `--clients` clients (default 32) ask at once for an
 *   answer nobody asked before (contributions/count (d) of bench/cases.ts, its time range ending a
 *   month earlier each round). A client answered 503 waits its `Retry-After` and asks again, as
 *   clients do. Per round: the time until every client has its answer, the server's CPU seconds,
 *   and the 503s on the way.
 * - **cached under load**, `--seconds` long (default 20): the same number of clients keep the server
 *   busy with answers nobody asked before (elements/count (a) over a box of its own for every
 *   request), while a probe asks every 100 ms for an answer it was given before: the probe's
 *   latencies and statuses.
 *
 *   npm run build && node dist/bench/burst.bench.js --before DIR [--after DIR] [--db FILE]
 *     [--clients 32] [--rounds 9] [--seconds 20] [--serve-args "--queue 16"]
 *
 * Writes its section `burst` of bench/RESULTS.md.
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FOUR_COUNTRIES } from '../src/testing/test-data.js';
import { V1_CASES } from './cases.js';
import { machineDescription, median, percentile, processCpuSeconds, replaceResultsSection, startServe } from './support.js';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string', default: '.' },
    db: { type: 'string' },
    clients: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '9' },
    seconds: { type: 'string', default: '20' },
    'serve-args': { type: 'string', default: '' },
  },
});
if (!values.before) throw new Error('--before DIR: the checkout (built) to compare with');
const CLIENTS = Number(values.clients);
const ROUNDS = Number(values.rounds);
const SECONDS = Number(values.seconds);

const contributions = V1_CASES.find((c) => c.id === 'd')!;
const elements = V1_CASES.find((c) => c.id === 'a')!;

/** (d) with its time range ending `round` months before 2017-01-01: an answer of its own per round. */
function burstUrl(round: number): string {
  const end = new Date(Date.UTC(2017, -round, 1)).toISOString().slice(0, 10);
  return `${contributions.path}?${new URLSearchParams({ ...contributions.params, time: `2008-01-01/${end}/P1M` })}`;
}

/** (a) over its box moved east by `k` × 1 µ°: an answer of its own for every k (nearly the same work). */
function uncachedUrl(k: number): string {
  const [xmin, ymin, xmax, ymax] = elements.params.bboxes.split(',').map(Number);
  const bboxes = [xmin + k * 1e-6, ymin, xmax + k * 1e-6, ymax].join(',');
  return `${elements.path}?${new URLSearchParams({ ...elements.params, bboxes })}`;
}
const CACHED_URL = `${elements.path}?${new URLSearchParams(elements.params)}`;

interface Answer {
  status: number;
  ms: number;
  retryAfter: number;
}

async function ask(base: string, url: string): Promise<Answer> {
  const t = performance.now();
  const res = await fetch(base + url, { signal: AbortSignal.timeout(300_000) });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - t, retryAfter: Number(res.headers.get('retry-after') ?? 1) };
}

/** Asks until answered 200, waiting each 503's Retry-After (at most 1 s); the 503s on the way. */
async function askUntilAnswered(base: string, url: string): Promise<number> {
  let refused = 0;
  for (;;) {
    const a = await ask(base, url);
    if (a.status === 200) return refused;
    if (a.status !== 503) throw new Error(`${url}: HTTP ${a.status}`);
    refused++;
    await new Promise((ok) => setTimeout(ok, Math.min(1, a.retryAfter) * 1000));
  }
}

interface Side {
  name: 'before' | 'after';
  dir: string;
  commit: string;
  base: string;
  child: ChildProcess;
  bursts: { ms: number; cpu: number; refused: number }[];
}

async function burst(side: Side, round: number): Promise<void> {
  const url = burstUrl(round);
  const cpu0 = processCpuSeconds(side.child.pid!) ?? Number.NaN;
  const t = performance.now();
  const refused = await Promise.all(Array.from({ length: CLIENTS }, () => askUntilAnswered(side.base, url)));
  const ms = performance.now() - t;
  const cpu = (processCpuSeconds(side.child.pid!) ?? Number.NaN) - cpu0;
  side.bursts.push({ ms, cpu, refused: refused.reduce((a, b) => a + b, 0) });
}

interface UnderLoad {
  probe: number[];
  probeStatuses: Map<number, number>;
  busyAnswered: number;
  busyRefused: number;
  seconds: number;
}

async function cachedUnderLoad(side: Side): Promise<UnderLoad> {
  if ((await ask(side.base, CACHED_URL)).status !== 200) throw new Error(`${side.name}: ${CACHED_URL} not answered`);
  const end = performance.now() + SECONDS * 1000;
  let k = 1;
  let busyAnswered = 0;
  let busyRefused = 0;
  const client = async () => {
    while (performance.now() < end) {
      const a = await ask(side.base, uncachedUrl(k++));
      if (a.status === 200) busyAnswered++;
      else if (a.status === 503) {
        busyRefused++;
        await new Promise((ok) => setTimeout(ok, Math.min(1, a.retryAfter) * 1000));
      } else throw new Error(`${side.name}: HTTP ${a.status} under load`);
    }
  };
  const probe: number[] = [];
  const probeStatuses = new Map<number, number>();
  const prober = async () => {
    // Once the clients have filled the slots and the queue.
    await new Promise((ok) => setTimeout(ok, 500));
    while (performance.now() < end) {
      const a = await ask(side.base, CACHED_URL);
      probe.push(a.ms);
      probeStatuses.set(a.status, (probeStatuses.get(a.status) ?? 0) + 1);
      await new Promise((ok) => setTimeout(ok, 100));
    }
  };
  const t = performance.now();
  await Promise.all([...Array.from({ length: CLIENTS }, client), prober()]);
  return { probe, probeStatuses, busyAnswered, busyRefused, seconds: (performance.now() - t) / 1000 };
}

const work = mkdtempSync(join(tmpdir(), 'maphist-burst-'));
const sides: Side[] = [];
try {
  const afterDir = resolve(values.after!);
  const db = values.db ? resolve(values.db) : join(work, 'burst.duckdb');
  if (!values.db) execFileSync(process.execPath, [join(afterDir, 'dist/src/cli/main.js'), 'import', FOUR_COUNTRIES, '--db', db], { stdio: 'ignore' });
  const extra = values['serve-args']!.split(' ').filter((s) => s.length > 0);
  for (const [name, dir] of [
    ['before', resolve(values.before)],
    ['after', afterDir],
  ] as const) {
    const { child, base } = await startServe(dir, ['--db', db, '--no-api-keys', ...extra]);
    const commit = execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD']).toString().trim();
    sides.push({ name, dir, commit, base, child, bursts: [] });
  }
  // Warm-up: a burst of another time range on each.
  for (const side of sides) await askUntilAnswered(side.base, burstUrl(ROUNDS + 1));
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which build goes first.
    for (const side of round % 2 ? [...sides].reverse() : sides) await burst(side, round);
  }
  const loads = new Map<Side['name'], UnderLoad>();
  for (const side of sides) loads.set(side.name, await cachedUnderLoad(side));

  const burstRows = sides.map((s) => {
    const ms = s.bursts.map((b) => b.ms);
    return `| ${s.name} \`${s.commit}\` | ${median(ms).toFixed(0)} | ${Math.min(...ms).toFixed(0)}–${Math.max(...ms).toFixed(0)} | ${median(s.bursts.map((b) => b.cpu)).toFixed(2)} | ${median(s.bursts.map((b) => b.refused))} |`;
  });
  const loadRows = sides.map((s) => {
    const l = loads.get(s.name)!;
    const statuses = [...l.probeStatuses].map(([status, n]) => `${n} × ${status}`).join(', ');
    return `| ${s.name} \`${s.commit}\` | ${percentile(l.probe, 50).toFixed(0)} | ${percentile(l.probe, 99).toFixed(0)} | ${Math.max(...l.probe).toFixed(0)} | ${statuses} | ${(l.busyAnswered / l.seconds).toFixed(1)} | ${l.busyRefused} |`;
  });
  const [before, after] = sides;
  const ratio = median(before.bursts.map((b) => b.ms)) / median(after.bursts.map((b) => b.ms));
  const la = loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');
  const body = `## Many people asking for the same answer (\`node dist/bench/burst.bench.js\`)

Machine: ${machineDescription()}; load average ${la} at the end. Store: ${values.db ? db : `${FOUR_COUNTRIES.split('/').pop()} imported afresh`}; \`serve --no-api-keys${extra.length ? ` ${extra.join(' ')}` : ''}\` (the answer cache on).

Burst: ${CLIENTS} clients ask at once for an answer nobody asked before (contributions/count (d) of bench/cases.ts, its time range
ending a month earlier each round), a 503 answered by waiting its Retry-After and asking again; ${ROUNDS} rounds, the builds
alternating. "all answered": from the first request until every client has its answer; "server CPU s": the server process's CPU
seconds in that time; "503s": refusals on the way (median per round).

| build | all answered ms (median) | range | server CPU s | 503s |
| --- | ---: | ---: | ---: | ---: |
${burstRows.join('\n')}

The burst is answered ${ratio.toFixed(1)}× sooner after than before.

Cached under load: ${CLIENTS} clients keep the server busy for ${SECONDS} s with answers nobody asked before (elements/count (a), a box of
its own per request), while a probe asks every 100 ms for an answer it was given before.

| build | probe p50 ms | probe p99 ms | probe max ms | probe answers | busy clients' 200/s | busy clients' 503s |
| --- | ---: | ---: | ---: | --- | ---: | ---: |
${loadRows.join('\n')}
`;
  console.log(body);
  replaceResultsSection('burst', body);
} finally {
  for (const side of sides) side.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  rmSync(work, { recursive: true, force: true });
}
