/**
 * A real `maphist serve` process for the fuzzer and the CPU-time tests: the compiled command line
 * (dist/src/cli/main.js) run by this Node, on port 0, with its URL read from its first line of
 * standard output; and what /proc says about it (CPU seconds, resident memory). Linux only (/proc).
 */
import { createWriteStream } from 'node:fs';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The compiled command line (this file compiles to dist/src/testing/fuzz/); MAPHIST_SERVER_MAIN
 * names another build's (the benches' "before": `/work/main/dist/src/cli/main.js`).
 */
export const MAIN_JS = process.env.MAPHIST_SERVER_MAIN || fileURLToPath(new URL('../../cli/main.js', import.meta.url));

/** `maphist import <file> --db <db>` as a child process; rejects with its standard error on failure. */
export function importInto(file: string, db: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN_JS, 'import', file, '--db', db], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(-4000)));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`maphist import exited with ${code}: ${err}`))));
  });
}

export interface ServerProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  pid: number;
  child: ChildProcess;
  /** The exit code or signal, once it has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The last few kilobytes of its standard error. */
  stderrTail(): string;
  /** The last few kilobytes of its warnings and errors (pino JSON lines on standard output, e.g. an extraction cut mid-stream and why). */
  warningsTail(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Starts `maphist serve --db <db> --port 0 --no-api-keys [...args]` and waits for its URL. */
export function startServer(db: string, args: string[] = []): Promise<ServerProcess> {
  // FUZZ_SERVER_NODE_ARGS: Node options for the server (for example `--cpu-prof --cpu-prof-dir=/tmp/prof`).
  const nodeArgs = process.env.FUZZ_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, MAIN_JS, 'serve', '--db', db, '--port', '0', '--host', '127.0.0.1', '--no-api-keys', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Never outlives this process (a fuzzer stopped by its time limit, a failed test).
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-8000)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      process.off('exit', killOnExit);
      resolve({ code, signal });
    }),
  );
  return new Promise((resolve, reject) => {
    let out = '';
    let found = false;
    // The request log goes to standard output: read (and dropped) to the end, so the pipe never fills.
    const log = process.env.FUZZ_SERVER_LOG ? createWriteStream(process.env.FUZZ_SERVER_LOG, { flags: 'a' }) : undefined;
    let warnings = '';
    let partial = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      log?.write(d);
      const lines = (partial + d).split('\n');
      partial = lines.pop()!.slice(-100_000);
      for (const line of lines) if (line.startsWith('{"level":')) warnings = (warnings + line.slice(0, 2000) + '\n').slice(-16_000);
      if (found) return;
      out += d;
      const m = /serving .* at (http:\/\/[^\s]+) /.exec(out);
      if (m) {
        found = true;
        resolve({
          url: m[1],
          pid: child.pid!,
          child,
          exited,
          stderrTail: () => stderr,
          warningsTail: () => warnings,
          async stop(graceMs = 15_000) {
            if (child.exitCode !== null || child.signalCode !== null) return;
            child.kill('SIGTERM');
            const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
            await exited;
            clearTimeout(t);
          },
        });
      }
    });
    child.on('error', reject);
    void exited.then(({ code, signal }) => {
      if (!found) reject(new Error(`maphist serve exited (${code ?? signal}) before serving: ${stderr}`));
    });
  });
}

let clockTicks: number | undefined;

/** Clock ticks per second of /proc/<pid>/stat (getconf CLK_TCK; 100 on Linux). */
function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
    const n = Number(r.stdout?.trim());
    clockTicks = Number.isFinite(n) && n > 0 ? n : 100;
  }
  return clockTicks;
}

/** CPU seconds (user + system, all threads) the process has used so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 (utime) and 15 (stime) of the whole line are 12 and 13 after the name and state.
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond();
}

/** Resident set size and its peak (bytes) from /proc/<pid>/status; undefined once the process is gone. */
export function memoryOf(pid: number): { rss: number; peak: number } | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}
