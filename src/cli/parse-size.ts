/** Sizes on the command line (`--memory-limit 4GB`, `--answer-cache 512MiB`), one parser for every command. */
import { MaphistError } from '../core/errors.js';

const UNITS: Record<string, number> = { B: 1, KB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12, KIB: 2 ** 10, MIB: 2 ** 20, GIB: 2 ** 30, TIB: 2 ** 40 };

/** A size such as `4GB`, `512MiB`, `1.5 GB` or a number of bytes, in bytes (CLI_USAGE otherwise). */
export function parseSize(text: string, flag = '--memory-limit', zero = false): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*$/.exec(text);
  const unit = m ? UNITS[(m[2] || 'B').toUpperCase()] : undefined;
  const bytes = m && unit ? Math.floor(Number(m[1]) * unit) : Number.NaN;
  if (!(bytes > 0 || (zero && bytes === 0)) || !Number.isSafeInteger(bytes))
    throw new MaphistError('CLI_USAGE', `${flag} takes a size such as 4GB or 512MiB${zero ? ' (or 0)' : ''}, not ${JSON.stringify(text)}`);
  return bytes;
}
