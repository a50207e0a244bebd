/**
 * Everything `maphist update --replication` does before it applies anything (docs/replication.md):
 * where to start (the store's sequence; `--start-sequence`; or, for a store without one, the first
 * sequence after its data, start.ts), the plan up to the source's latest refusing a gap (plan.ts),
 * and the change files fetched into the update's work directory (download.ts). The caller then
 * applies `files` in one atomic step and records `plan.steps.at(-1)` (sequence and timestamp) as the
 * store's new position; an empty plan means the store is up to date.
 *
 *   const source = await openReplicationSource(urlOrDir);
 *   const { plan, files } = await prepareReplicationUpdate(source, { sequence, dataEnd }, workDir);
 */
import { downloadChanges } from './download.js';
import { planSequences, type ReplicationPlan } from './plan.js';
import type { ReplicationSource } from './source.js';
import { findStartSequence, type StartOptions, type StartResult } from './start.js';

export interface StorePosition {
  /** The last sequence applied to the store; undefined when it has none yet. */
  sequence: number | undefined;
  /** Epoch seconds up to which the store's data is complete (used when it has no sequence). */
  dataEnd: number;
}

export interface PrepareOptions {
  /** The first sequence to apply, whatever the store's position (`--start-sequence`). */
  startSequence?: number;
  /** At most this many sequences in this run. */
  maxSequences?: number;
  start?: StartOptions;
  /** Files fetched at once (default 4). */
  concurrency?: number;
}

export interface PreparedUpdate {
  /** The search for the first sequence, when the store had none and none was given. */
  start: StartResult | undefined;
  plan: ReplicationPlan;
  /** The change files in `dir`, one per step of the plan, in order. */
  files: string[];
}

export async function prepareReplicationUpdate(
  source: ReplicationSource,
  store: StorePosition,
  dir: string,
  options: PrepareOptions = {},
): Promise<PreparedUpdate> {
  const first = options.startSequence;
  if (first !== undefined && (!Number.isInteger(first) || first < 0)) throw new RangeError(`start sequence ${first} is not an integer ≥ 0`);
  let start: StartResult | undefined;
  let after: number;
  if (first !== undefined) after = first - 1;
  else if (store.sequence !== undefined) after = store.sequence;
  else {
    start = await findStartSequence(source, store.dataEnd, options.start);
    after = start.sequence - 1;
  }
  const plan = await planSequences(source, after, { maxSequences: options.maxSequences, latest: start?.latest, concurrency: options.concurrency });
  const files = await downloadChanges(source, plan, dir, { concurrency: options.concurrency });
  return { start, plan, files };
}
