// Runs every compiled *.test.js under dist/ with Node's built-in test runner.
// (Node 20's `node --test` does not expand globs, so the file list is gathered here.) The reporter
// (test-reporter.mjs) prints test names and failures without durations, then `N passed, N failed`.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

function collect(dir, out) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) collect(path, out);
    else if (name.endsWith('.test.js')) out.push(path);
  }
  return out;
}

const only = process.argv.slice(2);
// A compiled test whose source is gone (deleted or renamed since the last build) is not run.
const hasSource = (f) => existsSync(f.replace(/^dist[\\/]/, '').replace(/\.js$/, '.ts'));
const files = collect('dist', [])
  .filter(hasSource)
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
if (files.length === 0) {
  console.error('no test files found under dist/');
  process.exit(1);
}
const reporter = fileURLToPath(new URL('./test-reporter.mjs', import.meta.url));
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', `--test-reporter=${reporter}`, ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
