// Runs Biome (lint and format check, biome.json) over the tree, as `npm test` does before the tests.
// Biome's own closing line carries its run time; `npm test` prints no timings, so that line is
// replaced by one without it. Exits with Biome's status (non-zero on any error or unformatted file).
import { spawnSync } from 'node:child_process';

const r = spawnSync('npx', ['biome', 'ci', '--colors=off', '--max-diagnostics=50', '--diagnostic-level=error', '.'], { encoding: 'utf8' });
const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.replace(/^Checked (\d+) files in [^\n]*\n/m, 'Checked $1 files.\n');
process.stdout.write(out.replace(/^Found \d+ (warnings?|infos?)\.\n/gm, ''));
process.exit(r.status ?? 1);
