/**
 * Sequence numbers and their paths in a replication source laid out as the planet's: the number
 * zero-padded to nine digits and cut into three folders, `466354` → `000/466/354`, with
 * `000/466/354.osc.gz` (the change) and `000/466/354.state.txt` (the state after it) there.
 */
import { MAX_SEQUENCE } from './state.js';

/** `466354` → `000/466/354`. */
export function sequencePath(sequence: number): string {
  if (!Number.isInteger(sequence) || sequence < 0 || sequence > MAX_SEQUENCE) {
    throw new RangeError(`sequence ${sequence} is not an integer from 0 to ${MAX_SEQUENCE}`);
  }
  const d = String(sequence).padStart(9, '0');
  return `${d.slice(0, 3)}/${d.slice(3, 6)}/${d.slice(6)}`;
}

/** `000/466/354` (or with a file suffix, `000/466/354.osc.gz`) → `466354`; undefined for anything else. */
export function sequenceOfPath(path: string): number | undefined {
  const m = /^(\d{3})\/(\d{3})\/(\d{3})(?:\.[A-Za-z.]+)?$/.exec(path);
  return m ? Number(m[1]! + m[2]! + m[3]!) : undefined;
}
