/**
 * What an update from a replication source applies: every sequence after the store's, up to the
 * source's latest (docs/replication.md, "Gap rule"). The state of each one is read first, so that
 * a missing sequence anywhere in the range is refused (`REPLICATION_GAP`) before anything is applied
 * and the store stays as it was; a store ahead of the source is refused too
 * (`REPLICATION_NO_START`: the source cannot continue it).
 *
 *   const plan = await planSequences(source, storeSequence);   // storeSequence: the last one applied
 *   plan.steps;   // [{ sequence, timestamp }, …] in order; empty when the store is up to date
 */
import { MaphistError } from '../../core/errors.js';
import type { ReplicationSource } from './source.js';
import type { ReplicationState } from './state.js';

export interface PlanOptions {
  /** At most this many sequences (the rest are for the next run); default: all. */
  maxSequences?: number;
  /** State files read at once (default 4). */
  concurrency?: number;
  /** The source's latest state, when the caller has read it already. */
  latest?: ReplicationState;
}

export interface ReplicationPlan {
  /** The store's sequence: the plan starts after it. */
  after: number;
  latest: ReplicationState;
  /** The sequences to apply, in order, each with its state (the store's timestamp once it is applied). */
  steps: ReplicationState[];
}

/** Runs `work` over `items` with at most `limit` at once; results in input order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

/** A list of sequences for a message: `5, 6, 9` or `5, 6, 9, … (12 in all)`. */
export function listSequences(sequences: readonly number[]): string {
  const shown = sequences.slice(0, 5).join(', ');
  return sequences.length > 5 ? `${shown}, … (${sequences.length} in all)` : shown;
}

export async function planSequences(source: ReplicationSource, after: number, options: PlanOptions = {}): Promise<ReplicationPlan> {
  if (!Number.isInteger(after) || after < -1) throw new RangeError(`store sequence ${after} is not an integer ≥ -1`);
  const latest = options.latest ?? (await source.latestState());
  if (after > latest.sequence) {
    throw new MaphistError(
      'REPLICATION_NO_START',
      `The store is at sequence ${after}, after the latest of ${source.location} (${latest.sequence}): is this the source the store follows? ` +
        'A different source needs --start-sequence.',
      { location: source.location, storeSequence: after, latestSequence: latest.sequence },
    );
  }
  const last = Math.min(latest.sequence, after + (options.maxSequences ?? Number.POSITIVE_INFINITY));
  const wanted = Array.from({ length: last - after }, (_, i) => after + 1 + i);
  const states = await mapLimited(wanted, options.concurrency ?? 4, (s) => source.stateOf(s));
  const missing = wanted.filter((_, i) => states[i] === undefined);
  if (missing.length > 0) throw gapError(source, after, latest, missing, 'state');
  return { after, latest, steps: states as ReplicationState[] };
}

export function gapError(
  source: ReplicationSource,
  after: number,
  latest: ReplicationState,
  missing: readonly number[],
  what: 'state' | 'change',
): MaphistError {
  return new MaphistError(
    'REPLICATION_GAP',
    `${source.location} is missing the ${what} file${missing.length === 1 ? '' : 's'} of sequence${missing.length === 1 ? '' : 's'} ${listSequences(missing)}, ` +
      `between the store's sequence ${after} and the latest ${latest.sequence}: nothing was applied. Use a source that has them ` +
      '(or re-import the data, or skip ahead with --start-sequence at the price of the edits in between).',
    { location: source.location, missing: missing.slice(0, 100) },
  );
}
