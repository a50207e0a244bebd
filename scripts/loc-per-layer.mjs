#!/usr/bin/env node
// Non-blank lines of TypeScript per layer (the first folder under src/), source and tests apart.
// Tests: *.test.ts; test support (test-*.ts, test-support.ts, testing/ folders, golden/ folders)
// counts as tests too. `node scripts/loc-per-layer.mjs [repo root]` (default: this checkout), so
// another tree can be measured: `node scripts/loc-per-layer.mjs /path/to/other/checkout`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'src');

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const isTest = (rel) => {
  const parts = rel.split(sep);
  const name = parts[parts.length - 1];
  return name.endsWith('.test.ts') || name.startsWith('test-') || parts.slice(1, -1).some((p) => p === 'testing' || p === 'golden');
};

const layers = new Map();
for (const file of walk(src)) {
  const rel = relative(src, file);
  const layer = rel.includes(sep) ? rel.split(sep)[0] : '(top)';
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '').length;
  const row = layers.get(layer) ?? { source: 0, tests: 0, files: 0 };
  row[isTest(rel) ? 'tests' : 'source'] += lines;
  row.files++;
  layers.set(layer, row);
}

const rows = [...layers].sort(([a], [b]) => a.localeCompare(b));
const total = rows.reduce((t, [, r]) => ({ source: t.source + r.source, tests: t.tests + r.tests, files: t.files + r.files }), {
  source: 0,
  tests: 0,
  files: 0,
});
console.log('| layer | files | source lines | test lines |');
console.log('| --- | ---: | ---: | ---: |');
for (const [layer, r] of rows) console.log(`| \`src/${layer}\` | ${r.files} | ${r.source} | ${r.tests} |`);
console.log(`| total | ${total.files} | ${total.source} | ${total.tests} |`);
