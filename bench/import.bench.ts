/**
 * `npm run bench:import`: import of the 4-country history (end to end: read, build, write,
 * finalize), against `osmium cat -f opl` of the same file as the baseline, measured in the same run.
 * Also measured in the same run, as floors of this design: reading the file alone (decoding in the
 * reader workers, no history built) and writing the finished rows alone (DuckDB sorting the
 * imported `states` table by spatial key into a fresh file and checkpointing it: the finish step
 * without its joins). The finish cannot start before the last version is read, so no import into
 * this layout takes less than their sum. And reading and building the history with no store at
 * all (states dropped): the history builder's own cost. Prints machine, versions, data size,
 * medians and ratios, and rewrites its section of bench/RESULTS.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { buildHistory } from '../src/history/build-history.js';
import type { ElementState } from '../src/history/element-state.js';
import { openHistory } from '../src/io/open-history.js';
import { importHistory } from '../src/store/import-history.js';
import { geometryColumns } from '../src/store/state-row.js';
import { machineDescription, median, replaceResultsSection } from './support.js';
import { FOUR_COUNTRIES } from '../src/testing/test-data.js';

const input = process.argv[2] ?? FOUR_COUNTRIES;
const runs = Number(process.env.BENCH_RUNS ?? 3);
const TARGET = 300_000;

function timeOsmium(): number | undefined {
  const t0 = performance.now();
  const r = spawnSync('osmium', ['cat', '-f', 'opl', '-o', '/dev/null', '--overwrite', input]);
  if (r.status !== 0) return undefined;
  return (performance.now() - t0) / 1000;
}

/** Wall and CPU seconds (the whole process: every thread, DuckDB's included) since `t0` and `cpu`. */
interface Timing {
  seconds: number;
  cpuSeconds: number;
}
function timing(t0: number, cpu: NodeJS.CpuUsage): Timing {
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - t0) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
}

/** One import into `dir`; CPU seconds are the whole process's (main thread, readers, writer). */
async function timeImport(dir: string): Promise<Timing & { versions: number; rows: number; build: number; finish: number }> {
  const t0 = performance.now();
  const cpu = process.cpuUsage();
  const r = await importHistory({ input, db: join(dir, 'bench.duckdb') });
  return { ...timing(t0, cpu), versions: r.versions, rows: r.rows, build: r.phaseSeconds.build, finish: r.phaseSeconds.finish };
}

/** Reading alone: every version decoded (in the reader workers) and handed to the main thread. */
async function timeRead(): Promise<Timing> {
  const t0 = performance.now();
  const cpu = process.cpuUsage();
  const opened = await openHistory(input);
  let versions = 0;
  try {
    for await (const batch of opened.batches()) versions += batch.length;
  } finally {
    await opened.close();
  }
  if (versions === 0) throw new Error('read no versions');
  return timing(t0, cpu);
}

/**
 * Reading and building the history alone: every state with its geometry, its WKB and its measures
 * (`geometryColumns`, as the store writer computes them, once per run of states sharing a
 * geometry), then dropped: no staging rows, no tag sets, no store.
 */
async function timeBuild(dir: string): Promise<Timing> {
  const t0 = performance.now();
  const cpu = process.cpuUsage();
  const opened = await openHistory(input);
  let states = 0;
  let vertices = 0;
  const sink = {
    write(ss: readonly ElementState[]): void {
      let last: ElementState | undefined;
      for (const s of ss) {
        if (!(last && s.geometry !== null && s.geometry === last.geometry && s.wkb === last.wkb && s.deleted === last.deleted)) {
          vertices += geometryColumns(s.geometry, s.wkb, !s.deleted).vertices;
        }
        last = s;
        states++;
      }
    },
  };
  try {
    await buildHistory(opened.batches(), sink, dir);
  } finally {
    await opened.close();
  }
  if (states === 0 || vertices === 0) throw new Error('built no states');
  return timing(t0, cpu);
}

/** Writing alone: the imported rows sorted by spatial key into a fresh file, as the finish step does (same memory limit), and checkpointed. */
async function timeWrite(store: string, dir: string): Promise<Timing> {
  const instance = await DuckDBInstance.create(join(dir, 'write-floor.duckdb'), { memory_limit: '1536MB', temp_directory: join(dir, 'write-floor-tmp') });
  const con = await instance.connect();
  try {
    await con.run(`ATTACH '${store}' AS src (READ_ONLY)`);
    const t0 = performance.now();
    const cpu = process.cpuUsage();
    await con.run('CREATE TABLE states AS SELECT * FROM src.states ORDER BY spatial_key, type, id, valid_from, version, minor_version');
    await con.run('CHECKPOINT');
    return timing(t0, cpu);
  } finally {
    con.closeSync();
    instance.closeSync();
  }
}

type ImportRun = Awaited<ReturnType<typeof timeImport>>;
const imports: ImportRun[] = [];
const osmium: number[] = [];
const reads: Timing[] = [];
const writes: Timing[] = [];
const builds: Timing[] = [];
for (let i = 0; i < runs; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'maphist-bench-'));
  try {
    imports.push(await timeImport(dir));
    writes.push(await timeWrite(join(dir, 'bench.duckdb'), dir));
    builds.push(await timeBuild(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  reads.push(await timeRead());
  const o = timeOsmium();
  if (o !== undefined) osmium.push(o);
}
const m = (f: (r: ImportRun) => number) => median(imports.map(f));
const importMedian = m((r) => r.seconds);
const osmiumMedian = osmium.length ? median(osmium) : undefined;
const readMedian = median(reads.map((t) => t.seconds));
const writeMedian = median(writes.map((t) => t.seconds));
const buildMedian = median(builds.map((t) => t.seconds));
const cpuOf = (ts: Timing[]) => median(ts.map((t) => t.cpuSeconds));
const { versions, rows } = imports[0];
const targetSeconds = versions / TARGET;
const floor = readMedian + writeMedian;
const peakRss = process.resourceUsage().maxRSS / 1024;
const rate = (s: number) => `${Math.round(versions / s).toLocaleString('en')} versions/s`;
const lines = [
  `- machine: ${machineDescription()}`,
  `- input: \`${relative(process.cwd(), input)}\` (${(statSync(input).size / 1e6).toFixed(1)} MB, ${versions.toLocaleString('en')} versions → ${rows.toLocaleString('en')} rows)`,
  `- runs: ${runs}; import median **${importMedian.toFixed(2)} s = ${rate(importMedian)}** (target ≥ ${TARGET.toLocaleString('en')}, i.e. ${targetSeconds.toFixed(2)} s); ` +
    `build ${m((r) => r.build).toFixed(2)} s + finish ${m((r) => r.finish).toFixed(2)} s; CPU ${m((r) => r.cpuSeconds).toFixed(1)} s (all threads; the 2 cores give ${(2 * targetSeconds).toFixed(1)} s in ${targetSeconds.toFixed(2)} s)`,
  `- peak RSS of the benchmark process: ${peakRss.toFixed(0)} MB`,
  osmiumMedian === undefined
    ? '- baseline `osmium cat -f opl`: osmium not installed'
    : `- baseline \`osmium cat -f opl\` median ${osmiumMedian.toFixed(2)} s (${rate(osmiumMedian)}); ratio import/osmium = ${(importMedian / osmiumMedian).toFixed(1)}×`,
  `- floors of this design, same run: reading alone ${readMedian.toFixed(2)} s (${rate(readMedian)}); writing the finished rows alone (sort by spatial key, checkpoint) ${writeMedian.toFixed(2)} s; ` +
    `sum **${floor.toFixed(2)} s = ${rate(floor)}**, before any history or geometry is built (CPU ${cpuOf(reads).toFixed(1)} s + ${cpuOf(writes).toFixed(1)} s)`,
  `- reading and building the history without a store (every state's geometry, WKB and measures, then dropped): ${buildMedian.toFixed(2)} s (${rate(buildMedian)}); ` +
    `with the write floor: ${(buildMedian + writeMedian).toFixed(2)} s = ${rate(buildMedian + writeMedian)}; CPU ${cpuOf(builds).toFixed(1)} s + ${cpuOf(writes).toFixed(1)} s = ` +
    `**${(cpuOf(builds) + cpuOf(writes)).toFixed(1)} CPU-s** against the ${(2 * targetSeconds).toFixed(1)} the target leaves`,
];
console.log(lines.join('\n'));
replaceResultsSection('import', `## Import (\`npm run bench:import\`)\n\n${lines.join('\n')}\n`);
