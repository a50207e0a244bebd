/**
 * `npm run bench:update`: `maphist update` against a full re-import (issue 18, "Measure"). The
 * 4-country history is split near its end (src/testing/split-history.ts) so that the last minute,
 * hour, day, week and 30 days of its edits become one change file each; the rest is imported, and the change is
 * applied with `maphist update` in a process of its own (time and peak RSS from its summary line),
 * on a fresh copy of the store each run: in place (one transaction on the file, the default) and
 * with `--copy` (a copy renamed over the file: what a server holding the file gets, and how every
 * update was made before in-place updates). Also the real minutely diff of testdata/changes (elements
 * the store mostly does not have), and a full `maphist import` of the whole history as the
 * baseline. Rewrites its section of bench/RESULTS.md.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importHistory } from '../src/store/import-history.js';
import { queryStore } from '../src/store/test-support.js';
import { splitHistory } from '../src/testing/split-history.js';
import { FOUR_COUNTRIES, REPO_ROOT, TEST_DATA } from '../src/testing/test-data.js';
import { machineDescription, median, replaceResultsSection } from './support.js';

const input = process.argv[2] ?? FOUR_COUNTRIES;
const runs = Number(process.env.BENCH_RUNS ?? 3);
const MAIN = join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js');

interface Run {
  seconds: number;
  rss: number;
  line: string;
}

function maphist(...args: string[]): Run {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8' });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`maphist ${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  const rss = Number(/peak RSS (\d+) MB/.exec(r.stdout)?.[1] ?? NaN);
  return { seconds, rss, line: r.stdout.trim() };
}

const dir = mkdtempSync(join(tmpdir(), 'maphist-bench-update-'));
try {
  const full = join(dir, 'full.duckdb');
  await importHistory({ input, db: full });
  const [{ value }] = await queryStore<{ value: string }>(full, "SELECT value FROM meta WHERE key = 'lastTimestamp'");
  const last = Date.parse(JSON.parse(value) as string) / 1000;
  const lines: string[] = [];
  lines.push(`- machine: ${machineDescription()}`);
  lines.push(
    `- input: \`${input.replace(`${REPO_ROOT}`, '')}\` (${(statSync(input).size / 1e6).toFixed(1)} MB), last edit ${JSON.parse(value)}; runs: ${runs} (medians)`,
  );

  const reimport: Run[] = [];
  for (let i = 0; i < runs; i++) reimport.push(maphist('import', input, '--db', join(dir, 'reimport.duckdb')));
  const reimportSeconds = median(reimport.map((r) => r.seconds));
  lines.push(
    `- full re-import of the whole history (\`maphist import\`, process wall time): **${reimportSeconds.toFixed(2)} s**, peak RSS ${median(reimport.map((r) => r.rss))} MB; store ${(statSync(full).size / 1e6).toFixed(0)} MB`,
  );
  lines.push('');
  lines.push(
    '| change | versions | rebuilt n / w / r | rows replaced → added | update in place (process wall) | of which the update itself | peak RSS | with `--copy` (process wall) | of which copying | in place vs re-import |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');

  const cases: { name: string; from: number; file?: string }[] = [
    { name: 'last minute', from: last - 60 },
    { name: 'last hour', from: last - 3600 },
    { name: 'last day', from: last - 86400 },
    { name: 'last week', from: last - 7 * 86400 },
    { name: 'last 30 days', from: last - 30 * 86400 },
    { name: 'real minutely diff 000466354 (other elements)', from: NaN, file: join(TEST_DATA, 'changes', '000466354.osc.gz') },
  ];
  for (const c of cases) {
    let base = full;
    let change = c.file;
    if (change === undefined) {
      const hist = join(dir, 'part.osh.pbf');
      change = join(dir, 'change.osc.gz');
      await splitHistory({ input, history: hist, changes: [change], cuts: [c.from] });
      base = join(dir, 'part.duckdb');
      await importHistory({ input: hist, db: base });
    }
    const measure = (...flags: string[]): Run[] => {
      const results: Run[] = [];
      for (let i = 0; i < runs; i++) {
        const db = join(dir, 'run.duckdb');
        copyFileSync(base, db);
        results.push(maphist('update', '--db', db, ...flags, change));
        rmSync(db);
      }
      return results;
    };
    const inPlace = measure();
    const copied = measure('--copy');
    const m = /: (\d+) new versions of .* rebuilt (\d+) nodes, (\d+) ways, (\d+) relations: (\d+) rows replaced by (\d+), ([\d.]+) s \(in place\)/.exec(
      inPlace[0]!.line,
    );
    const own = median(inPlace.map((r) => Number(/, ([\d.]+) s \(in place\)/.exec(r.line)?.[1])));
    const seconds = median(inPlace.map((r) => r.seconds));
    const copies = copied.map((r) => Number(/the copy ([\d.]+) s\)/.exec(r.line)?.[1]));
    lines.push(
      `| ${c.name} | ${m?.[1]} | ${m?.[2]} / ${m?.[3]} / ${m?.[4]} | ${m?.[5]} → ${m?.[6]} | ${seconds.toFixed(2)} s | ${own.toFixed(2)} s | ${median(inPlace.map((r) => r.rss))} MB | ${median(copied.map((r) => r.seconds)).toFixed(2)} s | ${median(copies).toFixed(2)} s | ${((100 * seconds) / reimportSeconds).toFixed(0)} % |`,
    );
    console.log(lines.at(-1));
  }
  const body = `${lines.join('\n')}\n`;
  console.log(body);
  replaceResultsSection('update', body);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
