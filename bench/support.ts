/** Shared benchmark helpers: machine description, medians, and the sections of bench/RESULTS.md. */
import { cpus, totalmem } from 'node:os';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export function machineDescription(): string {
  const require = createRequire(import.meta.url);
  const duckdb = (require('@duckdb/node-api/package.json') as { version: string }).version;
  return `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, @duckdb/node-api ${duckdb}, ${new Date().toISOString().slice(0, 10)}`;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export const RESULTS = 'bench/RESULTS.md';

/** Replace (or append) the section between `<!-- name:start -->` and `<!-- name:end -->`. */
export function replaceResultsSection(name: string, body: string): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  let text = existsSync(RESULTS)
    ? readFileSync(RESULTS, 'utf8')
    : '# Benchmark results\n\nLatest figures of each benchmark; every section is rewritten by its script.\n';
  const block = `${start}\n${body}${end}`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  text = i >= 0 && j > i ? text.slice(0, i) + block + text.slice(j + end.length) : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(RESULTS, text);
}
