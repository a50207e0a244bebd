/**
 * Sends the fuzzer's requests (requests.ts) to a running server and judges the answers. A run
 * fails on
 *
 * - any 5xx (except 503 with Retry-After: load shedding, issue 17 part 2),
 * - a request without a complete answer: no answer within `hangMs` (a hang), a connection closed
 *   without an answer, or a transfer cut off (except where a `timeout` parameter or the client's own
 *   hang-up explains it),
 * - a trivial request (GET /v1/metadata and /v2-rc/health, sent every `probeEveryMs` by a side probe
 *   on its own connections and thread, probe-worker.ts) waiting longer than `trivialLimitMs`,
 * - the server's resident memory (/proc/<pid>/status) beyond `rssBudget`,
 * - the server process exiting.
 */
import { Agent, request as httpRequest } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fuzzRequest, hostileCount, type FuzzRequest } from './requests.js';
import { memoryOf } from './server-process.js';
import { Worker } from 'node:worker_threads';
import type { ProbeResult, ProbeWorkerData } from './probe-worker.js';

export interface FuzzOptions {
  /** The server, `http://host:port`. */
  url: string;
  /** Its process id (memory from /proc). */
  pid: number;
  /** Resolves when the server process exits. */
  exited?: Promise<unknown>;
  seed: number;
  /** Requests from … from+requests-1 (the first ones of a run, from 0, are the hostile catalogue). */
  requests: number;
  /** The first request's index (default 0). */
  from?: number;
  /** Only these request indices (a replay). */
  only?: number[];
  concurrency: number;
  /** The server's time limit (its `--timeout`, and the v2 limits): a transfer cut after it is by design. */
  serverLimitSeconds: number;
  /** No complete answer after this long is a hang. */
  hangMs: number;
  trivialLimitMs: number;
  probeEveryMs: number;
  rssBudget: number;
  /** Stop sending new requests once this many failures are found (default: never). */
  maxFailures?: number;
  /** Stop sending new requests after this long (the report says how many were sent). */
  maxMs?: number;
  /** Called every `progressEvery` requests. */
  onProgress?: (done: number, report: FuzzReport) => void;
  progressEvery?: number;
  /** Called with each failure as it is found. */
  onFailure?: (f: Failure) => void;
}

export type Outcome = '1xx' | '2xx' | '3xx' | '4xx' | '5xx' | 'shed-503' | 'timeout-504' | 'hang' | 'no-answer' | 'cut' | 'disconnected';

export interface Failure {
  index: number;
  kind: string;
  what: string;
  method: string;
  /** The path and query, shortened. */
  target: string;
  /** The beginning of the answer's body, when there was one. */
  answer?: string;
}

export interface FuzzReport {
  seed: number;
  sent: number;
  byOutcome: Record<string, number>;
  byStatus: Record<string, number>;
  failures: Failure[];
  /** 5xx answers (503 with Retry-After not counted), hangs. */
  fiveXx: number;
  hangs: number;
  probes: number;
  /** Trivial requests that waited too long or failed (only the first three are listed as failures). */
  slowTrivial: number;
  maxTrivialWaitMs: number;
  /** Longest stall of the fuzzer's own event loop (a slow probe is the server's fault only when this is small). */
  clientMaxLagMs: number;
  peakRssBytes: number;
  rssOverBudget: boolean;
  serverExited: boolean;
  ms: number;
}

interface Answer {
  outcome: Outcome;
  status?: number;
  ms: number;
  error?: string;
  head?: string;
}

const HEAD_BYTES = 300;

/**
 * Sends one request; never rejects. A request that fails before any answer on a kept-alive socket
 * the server had just closed as idle (`req.reusedSocket` with ECONNRESET or EPIPE: the keep-alive
 * race Node's documentation describes under `request.reusedSocket`) is sent once more on a new
 * connection, as HTTP clients do; a reset on a fresh connection is the server's and counts.
 */
export function send(
  url: URL,
  r: Pick<FuzzRequest, 'method' | 'path' | 'headers' | 'body' | 'disconnectAfterMs'>,
  agent: Agent,
  hangMs: number,
  retried = false,
): Promise<Answer> {
  const started = performance.now();
  return new Promise<Answer>((resolve) => {
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const done = (a: Omit<Answer, 'ms'>) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      resolve({ ...a, ms: performance.now() - started });
    };
    const headers: Record<string, string | number> = { ...r.headers };
    if (r.body !== undefined) headers['content-length'] = r.body.length;
    let req: ReturnType<typeof httpRequest>;
    try {
      req = httpRequest({ host: url.hostname, port: url.port, method: r.method, path: r.path, headers, agent });
    } catch (e) {
      // The client refuses to send it (e.g. an invalid character in the path): not the server's business.
      done({ outcome: '4xx', status: 0, error: `client refused: ${(e as Error).message}` });
      return;
    }
    let status: number | undefined;
    timers.push(
      setTimeout(() => {
        done({ outcome: 'hang', status, error: `no complete answer after ${hangMs} ms` });
        req.destroy();
      }, hangMs),
    );
    if (r.disconnectAfterMs !== undefined) {
      timers.push(
        setTimeout(() => {
          done({ outcome: 'disconnected', status });
          req.destroy();
        }, r.disconnectAfterMs),
      );
    }
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      let head = '';
      res.on('data', (chunk: Buffer) => {
        if (head.length < HEAD_BYTES) head += chunk.subarray(0, HEAD_BYTES - head.length).toString('utf8');
      });
      res.on('end', () => {
        const s = status!;
        const cls = `${Math.floor(s / 100)}xx` as Outcome;
        if (s === 503 && res.headers['retry-after'] !== undefined) done({ outcome: 'shed-503', status: s, head });
        // Version 2's answer to its time limit (QUERY_TIMEOUT): the request was refused after work, by design.
        else if (s === 504 && /QueryTimeoutError/.test(head)) done({ outcome: 'timeout-504', status: s, head });
        else done({ outcome: cls, status: s, head });
      });
      res.on('error', (e) => done({ outcome: 'cut', status, error: e.message, head }));
      res.on('aborted', () => done({ outcome: 'cut', status, error: 'aborted', head }));
    });
    req.on('error', (e) => {
      const code = (e as NodeJS.ErrnoException).code ?? '';
      if (!settled && !retried && status === undefined && req.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE')) {
        settled = true;
        for (const t of timers) clearTimeout(t);
        send(url, r, agent, hangMs, true).then(resolve);
        return;
      }
      done({ outcome: status === undefined ? 'no-answer' : 'cut', status, error: `${code} ${e.message}` });
    });
    req.end(r.body);
  });
}

function judge(r: FuzzRequest, a: Answer, serverLimitMs: number): string | undefined {
  switch (a.outcome) {
    case '5xx':
      return `${a.status}`;
    case 'hang':
      return 'hang';
    case 'no-answer':
      return `no answer (${a.error})`;
    case 'cut': {
      // A v1 time limit reached after the first byte cuts the transfer off: by design (the
      // parameter in the query, a form or multipart body, or a JSON body).
      const text = `${r.path}&${r.body?.subarray(0, 100_000).toString('latin1') ?? ''}`;
      if (/[?&]timeout=|name="timeout"|"timeout"\s*:/.test(text)) return undefined;
      // So does the server's own time limit.
      if (a.ms >= serverLimitMs * 0.95) return undefined;
      return `transfer cut after ${a.status} (${a.error})`;
    }
    default:
      return undefined;
  }
}

const shorten = (s: string, n = 240) => (s.length <= n ? s : `${s.slice(0, n)}… (${s.length} chars)`);

export async function runFuzz(o: FuzzOptions): Promise<FuzzReport> {
  const url = new URL(o.url);
  hostileCount(); // builds the catalogue (megabytes) before anything is timed
  const started = performance.now();
  const report: FuzzReport = {
    seed: o.seed,
    sent: 0,
    byOutcome: {},
    byStatus: {},
    failures: [],
    fiveXx: 0,
    hangs: 0,
    probes: 0,
    slowTrivial: 0,
    maxTrivialWaitMs: 0,
    clientMaxLagMs: 0,
    peakRssBytes: 0,
    rssOverBudget: false,
    serverExited: false,
    ms: 0,
  };
  const fail = (f: Failure) => {
    report.failures.push(f);
    o.onFailure?.(f);
  };
  let stopping = false;
  void o.exited?.then(() => {
    if (stopping) return;
    report.serverExited = true;
    stopping = true;
  });
  const lag = monitorEventLoopDelay({ resolution: 20 });
  lag.enable();

  // Memory.
  const sampleMemory = () => {
    const m = memoryOf(o.pid);
    if (!m) return;
    report.peakRssBytes = Math.max(report.peakRssBytes, m.peak, m.rss);
    if (m.rss > o.rssBudget && !report.rssOverBudget) {
      report.rssOverBudget = true;
      fail({
        index: -1,
        kind: 'rss',
        what: `server RSS ${(m.rss / 2 ** 30).toFixed(2)} GiB over the budget of ${(o.rssBudget / 2 ** 30).toFixed(2)} GiB`,
        method: '',
        target: '',
      });
    }
  };
  const memoryTimer = setInterval(sampleMemory, 250);

  // The side probe: trivial requests on their own connections, from a thread of its own
  // (probe-worker.ts), so that the fuzzer's own stalls are not counted as the server's.
  // The requests in flight, by index: a slow probe names them (the likely cause of a stall).
  const inFlight = new Map<number, { kind: string; at: number }>();
  const inFlightNow = () => [...inFlight].map(([i, f]) => `#${i} ${f.kind} ${((performance.now() - f.at) / 1000).toFixed(1)} s`).join(', ');
  let lastListedProbe = -Infinity;
  let listedProbes = 0;
  const onProbe = (a: ProbeResult) => {
    report.probes++;
    report.maxTrivialWaitMs = Math.max(report.maxTrivialWaitMs, a.ms);
    if (a.ms > o.trivialLimitMs || a.status !== 200) {
      // A frozen server fails every probe: one per stall is listed (the first probe more than
      // 5 s after the last one listed, at most 50), the rest counted.
      report.slowTrivial++;
      const now = performance.now();
      if (now - lastListedProbe < 5000 || listedProbes >= 50) return;
      lastListedProbe = now;
      listedProbes++;
      fail({
        index: -1,
        kind: 'probe',
        what:
          (a.status === 200 ? `trivial request waited ${Math.round(a.ms)} ms` : `trivial request answered ${a.outcome} ${a.status ?? ''} ${a.error ?? ''}`) +
          ` at ${new Date().toISOString()}; in flight: ${inFlightNow() || 'none'}`,
        method: 'GET',
        target: a.path,
      });
    }
  };
  const probeData: ProbeWorkerData = { url: o.url, everyMs: o.probeEveryMs, timeoutMs: Math.max(o.hangMs, o.trivialLimitMs) };
  const prober = new Worker(new URL('./probe-worker.js', import.meta.url), { workerData: probeData });
  const proberDone = new Promise<void>((resolve) => {
    prober.on('message', (m: ProbeResult | 'done') => (m === 'done' ? resolve() : onProbe(m)));
    prober.on('exit', () => resolve());
  });

  // The requests.
  const agent = new Agent({ keepAlive: true, maxSockets: o.concurrency });
  const indices = o.only ?? Array.from({ length: o.requests }, (_, i) => (o.from ?? 0) + i);
  let next = 0;
  const worker = async () => {
    while (!stopping && next < indices.length) {
      if (o.maxMs !== undefined && performance.now() - started > o.maxMs) break;
      if (o.maxFailures !== undefined && report.failures.length >= o.maxFailures) break;
      const r = fuzzRequest(o.seed, indices[next++]);
      inFlight.set(r.index, { kind: r.kind, at: performance.now() });
      const a = await send(url, r, agent, o.hangMs);
      inFlight.delete(r.index);
      report.sent++;
      report.byOutcome[a.outcome] = (report.byOutcome[a.outcome] ?? 0) + 1;
      if (a.status !== undefined) report.byStatus[a.status] = (report.byStatus[a.status] ?? 0) + 1;
      if (a.outcome === '5xx') report.fiveXx++;
      if (a.outcome === 'hang') report.hangs++;
      const what = judge(r, a, o.serverLimitSeconds * 1000);
      if (what !== undefined) {
        fail({ index: r.index, kind: r.kind, what, method: r.method, target: shorten(r.path), answer: a.head ? shorten(a.head, 200) : undefined });
      }
      if (o.onProgress && report.sent % (o.progressEvery ?? 5000) === 0) o.onProgress(report.sent, report);
    }
  };
  try {
    await Promise.all(Array.from({ length: o.concurrency }, worker));
  } finally {
    stopping = true;
    prober.postMessage('stop');
    await proberDone;
    await prober.terminate();
    sampleMemory();
    clearInterval(memoryTimer);
    lag.disable();
    agent.destroy();
  }
  report.clientMaxLagMs = lag.max / 1e6;
  report.ms = performance.now() - started;
  if (report.serverExited) fail({ index: -1, kind: 'server', what: 'the server process exited', method: '', target: '' });
  return report;
}

const gib = (b: number) => `${(b / 2 ** 30).toFixed(2)} GiB`;

/** The summary: counts, then the failures (at most `maxListed`), each with its replay index. */
export function formatReport(r: FuzzReport, replay: string, maxListed = 40, withTimes = true): string {
  const lines: string[] = [];
  const classes = Object.entries(r.byOutcome)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  lines.push(`seed ${r.seed}: ${r.sent} requests; ${classes}`);
  lines.push(`5xx: ${r.fiveXx}; hangs: ${r.hangs}; failures: ${r.failures.length}`);
  if (withTimes) {
    lines.push(
      `trivial requests: ${r.probes} (${r.slowTrivial} over the limit or failed), longest wait ${Math.round(r.maxTrivialWaitMs)} ms (fuzzer's own longest event-loop stall ${Math.round(r.clientMaxLagMs)} ms)`,
    );
    lines.push(`server peak RSS ${gib(r.peakRssBytes)}; duration ${(r.ms / 1000).toFixed(1)} s`);
  }
  if (r.serverExited) lines.push('THE SERVER PROCESS EXITED');
  const listed = r.failures.slice(0, maxListed);
  for (const f of listed) {
    lines.push(`  #${f.index} ${f.kind}: ${f.what} — ${f.method} ${f.target}${f.answer ? `\n      answer: ${f.answer.replace(/\s+/g, ' ')}` : ''}`);
  }
  if (r.failures.length > listed.length) lines.push(`  … and ${r.failures.length - listed.length} more`);
  const idx = [...new Set(r.failures.filter((f) => f.index >= 0).map((f) => f.index))];
  if (idx.length > 0) lines.push(`replay: ${replay} --seed ${r.seed} --only ${idx.slice(0, 200).join(',')}`);
  return lines.join('\n');
}
