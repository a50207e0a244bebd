/** Shared benchmark helpers: machine description, medians and percentiles, a server process and its CPU time, and the sections of bench/RESULTS.md. */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
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

/** The p-th percentile (nearest rank) of `xs`; NaN when empty. */
export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

/**
 * The CPU seconds a process has used (user + system), from /proc/PID/stat (fields 14 and 15, in
 * clock ticks of 1/100 s: Linux's USER_HZ); `undefined` where there is no /proc.
 */
export function processCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * `maphist serve` of a checkout (`dir`) in its own process on a free port: resolves with the
 * process and its base URL once it listens. `args` follow `serve`.
 */
export async function startServe(dir: string, args: readonly string[], nodeArgs: readonly string[] = []): Promise<{ child: ChildProcess; base: string }> {
  const cli = join(resolve(dir), 'dist/src/cli/main.js');
  const child = spawn(process.execPath, [...nodeArgs, cli, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await new Promise<string>((ok, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /http:\/\/[0-9.]+:\d+/.exec(out);
      if (m) ok(m[0]);
    });
    child.once('exit', (code) => fail(new Error(`the server of ${dir} exited (${code}) before listening: ${out}`)));
  });
  child.stdout!.resume();
  return { child, base };
}

/**
 * `--answer-cache 0` for a build that has the answer cache (src/api/answer-cache.ts): benches that
 * repeat their requests to measure the engines, not the cache. Older builds have no such flag.
 */
export function noAnswerCache(checkout: string): string[] {
  const serve = join(checkout, 'src', 'cli', 'commands', 'serve.ts');
  return existsSync(serve) && readFileSync(serve, 'utf8').includes("'answer-cache'") ? ['--answer-cache', '0'] : [];
}
