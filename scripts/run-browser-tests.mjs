// Runs the browser suites (every compiled *.browser.js under dist/: the dashboard in chromium via
// playwright-core) with Node's test runner and the project's reporter (`N passed, N failed`).
// `npm run test:browser`; `npm test` does not run them (it needs no browser). Arguments filter by path.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

function collect(dir, out) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) collect(path, out);
    else if (name.endsWith('.browser.js')) out.push(path);
  }
  return out;
}

const only = process.argv.slice(2);
const files = collect('dist', [])
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
if (files.length === 0) {
  console.error('no browser test files found under dist/ (npm run build first)');
  process.exit(1);
}
const reporter = fileURLToPath(new URL('./test-reporter.mjs', import.meta.url));
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=1', `--test-reporter=${reporter}`, ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
