/**
 * bench:ab — is a change slower over HTTP? Two builds of maphist (a "before" checkout and this one)
 * each import the merged four-country history and serve it as their own process; the same requests
 * (bench/cases.ts: v1 (a)–(e), v2 (a)–(b), one extraction of each version) then go to both servers **interleaved**, one round at a
 * time with the order alternating, so that the machine's drift (other work, CPU frequency, cache)
 * lands on both sides alike. Two runs of `bench:v1` one after the other differ by up to 9 % on this
 * machine; paired rounds bring the spread of a build against itself to a few percent.
 *
 *   npm run build && node dist/bench/ab.bench.js --before <checkout, built> [--rounds N] [--input FILE] [--only ids] [--raw]
 *
 * `--only "v1 (c),v2 (b)"`: those cases only (the contributions by kind, v1 (f)–(i), and (c), (d) over
 * an empty box, v1 (c0) and (d0), what a request costs whatever its rows, are run only so).
 * `--raw`: each round also runs the case's raw work (bench/cases.ts `runRaw`, in this process on the
 * after side's store), and the table has each side's median ratio to it (issue 21's figure, read in
 * the same rounds, so the machine's drift cancels). The raw work runs on stock DuckDB, whose allocator
 * gives freed pages back after 1 s, while `maphist serve` keeps them 10 s (src/cli/duckdb-allocator.ts):
 * for a like-for-like ratio run the bench under the server's setting, which both servers inherit,
 * `DUCKDB_JE_MALLOC_CONF=narenas:1,dirty_decay_ms:10000,muzzy_decay_ms:10000` (bench/RESULTS.md, session 29).
 *
 * Prints, per case: the median ms of each side, the median of the per-round ratios after/before,
 * and whether both answered the same numbers. Writes its section of bench/RESULTS.md.
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FOUR_COUNTRIES } from '../src/testing/test-data.js';
import { EXTRACTION_CASES, runRaw, V1_CASES, V1_FLOOR_CASES, V1_KIND_CASES, V2_CASES } from './cases.js';
import { openStore } from '../src/store/open-store.js';
import { machineDescription, median, noAnswerCache, replaceResultsSection, startServe } from './support.js';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string', default: '.' },
    rounds: { type: 'string', default: '40' },
    input: { type: 'string', default: FOUR_COUNTRIES },
    only: { type: 'string' },
    raw: { type: 'boolean', default: false },
  },
});
if (!values.before) {
  console.error('usage: node dist/bench/ab.bench.js --before <checkout> [--after <checkout>] [--rounds N] [--input FILE]');
  process.exit(2);
}
const ROUNDS = Number(values.rounds);
const INPUT = resolve(values.input);

interface Side {
  name: 'before' | 'after';
  dir: string;
  commit: string;
  base: string;
  importSeconds: number;
  child: ChildProcess;
}

interface Request {
  id: string;
  what: string;
  send(base: string): Promise<string>;
  /** The raw work of the same answer, on a connection's `query`. */
  raw?: (query: (sql: string) => Promise<Record<string, unknown>[]>) => Promise<unknown>;
}

const ONLY = values.only?.split(',').map((x) => x.trim());

const ALL_REQUESTS: Request[] = [
  ...[...V1_CASES, ...V1_KIND_CASES, ...V1_FLOOR_CASES].map((c) => ({
    ...(c.sql !== undefined ? { raw: (query: (sql: string) => Promise<Record<string, unknown>[]>) => runRaw(c, query) } : {}),
    id: `v1 (${c.id})`,
    what: c.what,
    async send(base: string) {
      const res = await fetch(`${base}${c.path}?${new URLSearchParams(c.params).toString()}`);
      return checked(res, `v1 (${c.id})`);
    },
  })),
  ...V2_CASES.map((c) => ({
    id: `v2 (${c.id})`,
    what: c.what,
    raw: (query: (sql: string) => Promise<Record<string, unknown>[]>) => query(c.sql),
    async send(base: string) {
      const res = await fetch(`${base}${c.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(c.body),
      });
      return checked(res, `v2 (${c.id})`);
    },
  })),
  ...EXTRACTION_CASES.map((c) => ({
    id: c.id,
    what: c.what,
    async send(base: string) {
      return checked(await fetch(`${base}${c.url}`), c.id);
    },
  })),
];
/** Run only when named in `--only`. */
const NAMED_ONLY = new Set([...V1_KIND_CASES, ...V1_FLOOR_CASES].map((c) => `v1 (${c.id})`));
const REQUESTS = ALL_REQUESTS.filter((r) => (ONLY ? ONLY.includes(r.id) : !NAMED_ONLY.has(r.id)));

/** The answer's body, read to its end: JSON as text, anything else (GeoParquet) as its size. */
async function checked(res: Response, id: string): Promise<string> {
  const json = (res.headers.get('content-type') ?? '').includes('json');
  const body = json ? await res.text() : `${(await res.arrayBuffer()).byteLength} bytes`;
  if (res.status !== 200) throw new Error(`${id}: HTTP ${res.status} ${body.slice(0, 300)}`);
  return body;
}

/** The numbers of an answer, without what names the build (apiVersion, metadata). */
function numbersOf(text: string): string {
  if (!text.startsWith('{')) return text;
  const body = JSON.parse(text) as Record<string, unknown>;
  delete body.apiVersion;
  delete body.metadata;
  return JSON.stringify(body);
}

async function startSide(name: Side['name'], dir: string, work: string): Promise<Side> {
  const cli = join(resolve(dir), 'dist/src/cli/main.js');
  const db = join(work, `${name}.duckdb`);
  const t = performance.now();
  execFileSync(process.execPath, [cli, 'import', INPUT, '--db', db], { stdio: 'ignore' });
  const importSeconds = (performance.now() - t) / 1000;
  const commit = execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD']).toString().trim();
  const { child, base } = await startServe(dir, ['--db', db, '--no-api-keys', ...noAnswerCache(dir)]);
  return { name, dir, commit, base, importSeconds, child };
}

async function timed(f: () => Promise<string>): Promise<[number, string]> {
  const t = performance.now();
  const text = await f();
  return [performance.now() - t, text];
}

const work = mkdtempSync(join(tmpdir(), 'maphist-ab-'));
const sides: Side[] = [];
try {
  sides.push(await startSide('before', values.before, work));
  sides.push(await startSide('after', values.after!, work));
  const [before, after] = sides;
  const rawStore = values.raw ? await openStore(join(work, 'after.duckdb')) : undefined;
  const rawCon = rawStore ? await rawStore.connect() : undefined;
  const query = async (sql: string) => (await rawCon!.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
  const rows: string[] = [];
  for (const r of REQUESTS) {
    const answers = new Map<string, string>();
    for (const s of sides) for (let i = 0; i < 3; i++) answers.set(s.name, numbersOf(await r.send(s.base)));
    const withRaw = rawCon !== undefined && r.raw !== undefined;
    if (withRaw) await r.raw!(query);
    const ms: Record<Side['name'] | 'raw', number[]> = { before: [], after: [], raw: [] };
    const ratios: number[] = [];
    const toRaw: Record<Side['name'], number[]> = { before: [], after: [] };
    for (let k = 0; k < ROUNDS; k++) {
      const order = k % 2 ? [after, before] : [before, after];
      const got: Partial<Record<Side['name'], number>> = {};
      for (const s of order) [got[s.name]] = await timed(() => r.send(s.base));
      ms.before.push(got.before!);
      ms.after.push(got.after!);
      ratios.push(got.after! / got.before!);
      if (withRaw) {
        const t = performance.now();
        await r.raw!(query);
        const rawMs = performance.now() - t;
        ms.raw.push(rawMs);
        toRaw.before.push(got.before! / rawMs);
        toRaw.after.push(got.after! / rawMs);
      }
    }
    const same = answers.get('before') === answers.get('after') ? 'yes' : 'no';
    const rawCells = values.raw
      ? withRaw
        ? [median(ms.raw).toFixed(1), `${median(toRaw.before).toFixed(2)}×`, `${median(toRaw.after).toFixed(2)}×`]
        : ['—', '—', '—']
      : [];
    const row = [r.id, r.what, median(ms.before).toFixed(1), median(ms.after).toFixed(1), median(ratios).toFixed(3), same, ...rawCells];
    console.log(row.join(' | '));
    rows.push(`| ${row.join(' | ')} |`);
  }
  const la = loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');
  replaceResultsSection(
    'ab',
    `## Before and after over HTTP, interleaved (\`node dist/bench/ab.bench.js --before <checkout>\`)

Machine: ${machineDescription()}; load average ${la} at the end.

before = \`${before.commit}\` (imported in ${before.importSeconds.toFixed(1)} s), after = \`${after.commit}\`
(imported in ${after.importSeconds.toFixed(1)} s); input \`${INPUT.split('/').pop()}\`. Each build serves its own
store from its own process; every round sends the request to both, the order alternating, ${ROUNDS} rounds
after 3 warm-ups each. "ratio": the median of the rounds' after/before ratios. "same": both answered the
same numbers.${
      values.raw
        ? ` "raw ms": the case's raw work (bench/cases.ts \`runRaw\`) run in the benchmark's process on the after
side's store in each round; "before/raw", "after/raw": the medians of the rounds' ratios of each side to it.`
        : ''
    }

| case | request | before ms | after ms | ratio | same |${values.raw ? ' raw ms | before/raw | after/raw |' : ''}
| --- | --- | ---: | ---: | ---: | --- |${values.raw ? ' ---: | ---: | ---: |' : ''}
${rows.join('\n')}

`,
  );
  rawCon?.closeSync();
  rawStore?.close();
} finally {
  for (const s of sides) s.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  rmSync(work, { recursive: true, force: true });
}
