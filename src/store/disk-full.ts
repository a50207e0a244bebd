/**
 * A full disk (or a used-up quota) while a command writes a database ends with one coded line,
 * STORE_WRITE_FAILED, that names the directory and the space the command needs there (an estimate
 * from the input's size) and what is free, instead of a stack trace. The failure comes either
 * from Node (ENOSPC/EDQUOT: the node and way stores, the work directory) or from DuckDB (its
 * message carries the operating system's text: "Could not write file …: No space left on device").
 * Other write failures (permissions, a read-only file system) are the same code's other causes.
 */
import { statfsSync } from 'node:fs';
import { MaphistError } from '../core/errors.js';

const CAUSES = [
  { errno: 'ENOSPC', text: /No space left on device/i, says: 'the disk is full' },
  { errno: 'EDQUOT', text: /Disk quota exceeded/i, says: 'the disk quota is used up' },
] as const;

function causeOf(e: unknown): (typeof CAUSES)[number] | undefined {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  const message = e instanceof Error ? e.message : String(e);
  return CAUSES.find((c) => code === c.errno || c.text.test(message));
}

/** Free bytes for an unprivileged user on the file system of `dir` (undefined if unknown). */
export function freeBytes(dir: string): number | undefined {
  try {
    const s = statfsSync(dir);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return undefined;
  }
}

/** Bytes as a short figure: 38 kB, 812 MB, 1.4 GB. */
export function formatBytes(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)} GB`;
  if (n >= 1e6) return `${Math.ceil(n / 1e6)} MB`;
  return `${Math.ceil(n / 1e3)} kB`;
}

/**
 * `e` as STORE_WRITE_FAILED when it is a full disk or quota, else undefined. Call it after the
 * command's temporary files are removed, so the free space it reports is what the user has.
 */
export function diskFullError(e: unknown, what: { command: string; dir: string; needBytes?: number; unchanged: string }): MaphistError | undefined {
  if (e instanceof MaphistError) return undefined;
  const cause = causeOf(e);
  if (!cause) return undefined;
  const free = freeBytes(what.dir);
  const space = [
    ...(what.needBytes === undefined ? [] : [`${what.command} needs about ${formatBytes(what.needBytes)} there`]),
    ...(free === undefined ? [] : [`${formatBytes(free)} free now`]),
  ];
  const detail = (e instanceof Error ? e.message : String(e)).split('\n')[0]!.replace(/^store writer: (Error: )?/, '');
  return new MaphistError(
    'STORE_WRITE_FAILED',
    `cannot write to ${what.dir}: ${cause.says}${space.length > 0 ? ` (${space.join(', ')})` : ''}; ${what.unchanged}. Free space there or choose a --db path on another file system. (${detail})`,
    { dir: what.dir, errno: cause.errno, ...(what.needBytes !== undefined && { needBytes: what.needBytes }), ...(free !== undefined && { freeBytes: free }) },
  );
}
