/**
 * `npm run bench:extract:rss -- <store.duckdb>`: server memory while streaming a large GeoJSON
 * extraction. Starts `maphist serve` on the store as a child process, streams
 * /v1/elements/geometry for every node of the whole world at the store's last timestamp, counts
 * features until FEATURES (default 1,000,000) have arrived, samples the server's RSS every 500 ms
 * from /proc, then disconnects; then the same request once more on the same server. Target: RSS
 * growth under 200 MB. Also reported: the growth from the 10,000th feature on, which leaves out
 * what a fresh server's first request sets up once (DuckDB's streaming instance filling its
 * 64 MB buffer pool). FILTER: another filter than `type:node` (its results go to their own
 * section of bench/RESULTS.md).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { machineDescription, replaceResultsSection } from './support.js';

const db = process.argv[2] ?? 'bench/out/synth-x48.duckdb';
const wanted = Number(process.env.FEATURES ?? 1_000_000);
const filter = process.env.FILTER ?? 'type:node';
/** RSS is also read once this many features have arrived: the growth from there is the stream's own. */
const STREAMING_FROM = 10_000;
const port = 18000 + Math.floor(Math.random() * 1000);

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

const server = spawn(process.execPath, ['dist/src/cli/main.js', 'serve', '--db', db, '--port', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
await new Promise<void>((resolve) => server.stdout!.on('data', (d: Buffer) => d.toString().includes('serving') && resolve()));
// SERVER_LOG=1: the server's log on stderr.
if (process.env.SERVER_LOG) server.stdout!.on('data', (d: Buffer) => process.stderr.write(d));
const pid = server.pid!;
const base = `http://127.0.0.1:${port}`;
const meta = (await (await fetch(`${base}/v1/metadata`)).json()) as { extractRegion: { temporalExtent: { toTimestamp: string } } };
const time = meta.extractRegion.temporalExtent.toTimestamp;

/** Streams the extraction until `wanted` features arrived, then disconnects; RSS sampled every 500 ms. */
async function streamOnce(): Promise<{ before: number; streaming: number; peak: number; features: number; bytes: number; seconds: number }> {
  const before = rssMb(pid);
  let streaming = 0;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 500);
  const controller = new AbortController();
  const started = performance.now();
  const res = await fetch(`${base}/v1/elements/geometry?bboxes=-180,-90,180,90&time=${time}&filter=${encodeURIComponent(filter)}`, {
    signal: controller.signal,
  });
  if (res.status !== 200) throw new Error(`the extraction answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
  let features = 0;
  let bytes = 0;
  const reader = res.body!.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      bytes += value.length;
      const text = Buffer.from(value).toString('latin1');
      for (let i = text.indexOf('"Feature"'); i >= 0; i = text.indexOf('"Feature"', i + 9)) features++;
      if (streaming === 0 && features >= STREAMING_FROM) streaming = rssMb(pid);
      if (features >= wanted) break;
    }
  } finally {
    controller.abort();
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssMb(pid));
  return { before, streaming, peak, features, bytes, seconds };
}

// First on the fresh server, then the same request again: the second run shows whether memory
// stays flat once DuckDB's streaming instance has loaded the table's metadata and filled its pool
// (and that the first, ended by a disconnect, left the instance's memory free).
let cold: Awaited<ReturnType<typeof streamOnce>>;
let warm: typeof cold;
try {
  cold = await streamOnce();
  await new Promise((r) => setTimeout(r, 2000));
  warm = await streamOnce();
} finally {
  server.kill('SIGTERM');
}

const run = (r: typeof cold) =>
  `streamed ${r.features.toLocaleString('en')} features (${(r.bytes / 1e6).toFixed(0)} MB) in ${r.seconds.toFixed(1)} s (${Math.round(r.features / r.seconds).toLocaleString('en')} features/s), then disconnected; RSS ${r.before.toFixed(0)} MB before, ${r.peak.toFixed(0)} MB peak: growth **${(r.peak - r.before).toFixed(0)} MB**; from the ${STREAMING_FROM.toLocaleString('en')}th feature on ${r.streaming ? `${(r.peak - r.streaming).toFixed(0)} MB` : 'n/a (fewer features)'}`;
const lines = [
  `- machine: ${machineDescription()}`,
  `- store: \`${db}\`; request: /v1/elements/geometry, whole world, filter \`${filter}\`, at ${time}`,
  `- fresh server: ${run(cold)} (target < 200 MB)`,
  `- the same request again on that server: ${run(warm)}`,
];
console.log(lines.join('\n'));
const section = filter === 'type:node' ? 'extract-rss' : `extract-rss-${filter.replace(/[^a-z0-9]+/gi, '-')}`;
replaceResultsSection(
  section,
  `## Server memory while streaming an extraction (\`npm run bench:extract:rss\`${filter === 'type:node' ? '' : `, FILTER=${filter}`})\n\n${lines.join('\n')}\n`,
);
process.exit(0);
