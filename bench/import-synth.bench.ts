/**
 * `npm run bench:import:synth`: imports of synthetic histories (`npm run bench:synth -- --times N`)
 * of two sizes, each in its own `maphist import` process, to check that peak RSS stays bounded and
 * that time grows linearly with the number of versions. Defaults: bench/out/synth-x2.osh.pbf and
 * bench/out/synth-x48.osh.pbf (51 million versions; the large import takes about half an hour here).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { machineDescription, replaceResultsSection } from './support.js';

const files = process.argv.slice(2).length ? process.argv.slice(2) : ['bench/out/synth-x2.osh.pbf', 'bench/out/synth-x48.osh.pbf'];
const rows: { file: string; versions: number; seconds: number; rssMb: number }[] = [];
for (const file of files) {
  if (!existsSync(file)) {
    console.error(`${file} is missing: make it with npm run bench:synth -- --times N`);
    process.exit(1);
  }
  const dir = mkdtempSync(join(file, '..', '.bench-import-'));
  try {
    const r = spawnSync(process.execPath, ['dist/src/cli/main.js', 'import', file, '--db', join(dir, 'synth.duckdb')], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`import of ${file} failed: ${r.stderr}`);
    const m = /(\d+) versions read, (\d+) rows written, ([\d.]+) s .*peak RSS (\d+) MB/.exec(r.stdout);
    if (!m) throw new Error(`unexpected summary: ${r.stdout}`);
    rows.push({ file, versions: Number(m[1]), seconds: Number(m[3]), rssMb: Number(m[4]) });
    console.log(r.stdout.trim());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const base = rows[0];
const lines = [
  `- machine: ${machineDescription()}`,
  '',
  '| input | versions | seconds | µs per version | per-version time vs smallest | peak RSS MB (target ≤ 4,000) |',
  '| --- | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map((r) => {
    const us = (r.seconds / r.versions) * 1e6;
    const baseUs = (base.seconds / base.versions) * 1e6;
    return `| \`${r.file}\` | ${r.versions.toLocaleString('en')} | ${r.seconds.toFixed(0)} | ${us.toFixed(1)} | ${(us / baseUs).toFixed(2)}× | ${r.rssMb} |`;
  }),
];
console.log(lines.join('\n'));
replaceResultsSection('import-synth', `## Import of synthetic histories (\`npm run bench:import:synth\`)\n\n${lines.join('\n')}\n`);
