/**
 * `npm run bench:import`: import of the 4-country history (end to end: read, build, write,
 * finalize), against `osmium cat -f opl` of the same file as the baseline, measured in the same run.
 * Prints machine, versions, data size, medians and ratios, and rewrites its section of bench/RESULTS.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importHistory } from '../src/store/import-history.js';
import { machineDescription, median, replaceResultsSection } from './support.js';

const input = process.argv[2] ?? join('..', 'shared', 'data', 'history', 'oshdb-4countries-merged.osh.pbf');
const runs = Number(process.env.BENCH_RUNS ?? 3);

function timeOsmium(): number | undefined {
  const t0 = performance.now();
  const r = spawnSync('osmium', ['cat', '-f', 'opl', '-o', '/dev/null', '--overwrite', input]);
  if (r.status !== 0) return undefined;
  return (performance.now() - t0) / 1000;
}

async function timeImport(): Promise<{ seconds: number; versions: number; rows: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'maphist-bench-'));
  try {
    const r = await importHistory({ input, db: join(dir, 'bench.duckdb') });
    return { seconds: r.seconds, versions: r.versions, rows: r.rows };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const imports: { seconds: number; versions: number; rows: number }[] = [];
const osmium: number[] = [];
for (let i = 0; i < runs; i++) {
  imports.push(await timeImport());
  const o = timeOsmium();
  if (o !== undefined) osmium.push(o);
}
const importMedian = median(imports.map((r) => r.seconds));
const osmiumMedian = osmium.length ? median(osmium) : undefined;
const { versions, rows } = imports[0];
const peakRss = process.resourceUsage().maxRSS / 1024;
const lines = [
  `- machine: ${machineDescription()}`,
  `- input: \`${input}\` (${(statSync(input).size / 1e6).toFixed(1)} MB, ${versions.toLocaleString('en')} versions → ${rows.toLocaleString('en')} rows)`,
  `- runs: ${runs}; import median **${importMedian.toFixed(2)} s = ${Math.round(versions / importMedian).toLocaleString('en')} versions/s** (target ≥ 300,000)`,
  `- peak RSS of the benchmark process: ${peakRss.toFixed(0)} MB`,
  osmiumMedian === undefined
    ? '- baseline `osmium cat -f opl`: osmium not installed'
    : `- baseline \`osmium cat -f opl\` median ${osmiumMedian.toFixed(2)} s (${Math.round(versions / osmiumMedian).toLocaleString('en')} versions/s); ratio import/osmium = ${(importMedian / osmiumMedian).toFixed(1)}×`,
];
console.log(lines.join('\n'));
replaceResultsSection('import', `## Import (\`npm run bench:import\`)\n\n${lines.join('\n')}\n`);
