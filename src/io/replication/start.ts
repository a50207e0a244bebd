/**
 * Where a store that has no replication sequence yet starts following a source: the first sequence
 * whose state timestamp is after the time T up to which the store's data reaches (as
 * `pyosmium-up-to-date` finds it; docs/replication.md, "Start rule"). That is one more than the
 * newest state at or before T; a diff whose state is at T holds no edit after T.
 *
 * The search reads few state files: the latest state, then a guess from the source's rate (one
 * sequence a minute unless told otherwise) stepping back ×4 until a state at or before T is found,
 * then a search between that lower and the upper bound, alternating an interpolation step (exact on
 * a regular source) with a halving step (so a skewed source still takes O(log n) fetches).
 *
 * Missing states. In the first phase a missing state is taken for the beginning of a source that
 * does not keep its whole history (the planet's mirrors): the search halves towards the oldest state
 * above it. When it ends at a state after T with only missing ones below it, it looks `GAP_SCAN`
 * further down: a state there means the missing ones were a gap in the middle, and the search goes
 * on below it; none means the source begins after T. Between the bounds, a missing probe is
 * replaced by its nearest neighbour (below first); when every sequence between them is missing, the
 * answer is the one after the lower bound (the plan then refuses the gap). If the source has no
 * state at or before T, or the search needs more than `maxStateFetches` state files, no start is
 * found: `REPLICATION_NO_START` (`--start-sequence` chooses one).
 */
import { MaphistError } from '../../core/errors.js';
import type { ReplicationSource } from './source.js';
import type { ReplicationState } from './state.js';

export interface StartOptions {
  /** Seconds between sequences, for the first guess (default 60: minutely). */
  secondsPerSequence?: number;
  /** State files the search may read, the latest included (default 200). */
  maxStateFetches?: number;
}

export interface StartResult {
  /** The first sequence to apply (the latest + 1 when the source has nothing after T). */
  sequence: number;
  /** The source's latest state. */
  latest: ReplicationState;
  /** The newest state at or before T (the latest itself when the store is newer than the source). */
  before: ReplicationState;
  /** State files read. */
  stateFetches: number;
}

/** Missing states in a row below the oldest state found that mark the source's beginning (a shorter run is a gap). */
export const GAP_SCAN = 16;

const iso = (t: number) => new Date(Math.floor(t) * 1000).toISOString().replace('.000Z', 'Z');

/** The first sequence to apply after data that reaches up to `time` (epoch seconds). */
export async function findStartSequence(source: ReplicationSource, time: number, options: StartOptions = {}): Promise<StartResult> {
  const rate = options.secondsPerSequence ?? 60;
  const budget = options.maxStateFetches ?? 200;
  let fetches = 0;
  const known = new Map<number, ReplicationState | undefined>();

  const latest = await source.latestState();
  fetches++;
  if (latest.timestamp <= time) return { sequence: latest.sequence + 1, latest, before: latest, stateFetches: fetches };
  known.set(latest.sequence, latest);

  const state = async (sequence: number): Promise<ReplicationState | undefined> => {
    if (known.has(sequence)) return known.get(sequence);
    if (fetches >= budget) {
      throw new MaphistError(
        'REPLICATION_NO_START',
        `Gave up finding the first sequence after ${iso(time)} in ${source.location} after ${budget} state files ` +
          '(it misses many states): choose the sequence to start from with --start-sequence.',
        { location: source.location },
      );
    }
    fetches++;
    const s = await source.stateOf(sequence);
    known.set(sequence, s);
    return s;
  };
  const noStart = (oldest: ReplicationState) =>
    new MaphistError(
      'REPLICATION_NO_START',
      `${source.location} has no state at or before ${iso(time)}, where the store's data ends: the oldest it has is sequence ${oldest.sequence} ` +
        `of ${iso(oldest.timestamp)}, so the edits in between would be missing. Use a source that reaches back further (or re-import newer data), ` +
        'or choose the sequence to start from with --start-sequence.',
      { location: source.location, oldestSequence: oldest.sequence },
    );
  // Phase 1: a lower bound (a state at or before T), stepping back from the latest.
  let hi = latest;
  let lo: ReplicationState | undefined;
  let bottom = 0; // the states below this one are missing (before the source's oldest, or a gap)
  let halving = false;
  let step = Math.max(1, Math.ceil((hi.timestamp - time) / rate));
  while (lo === undefined) {
    if (hi.sequence <= bottom) {
      // [bottom, hi) is missing: the source's beginning, unless a state follows a short gap below it.
      let s: ReplicationState | undefined;
      for (let b = bottom - 1; s === undefined && b >= Math.max(0, bottom - GAP_SCAN); b--) s = await state(b);
      if (s === undefined) throw noStart(hi);
      if (s.timestamp <= time) lo = s;
      else {
        hi = s;
        bottom = 0;
        halving = false;
        step = 1;
      }
      continue;
    }
    const c = Math.max(bottom, hi.sequence - step);
    const s = await state(c);
    if (s === undefined) {
      // Missing: taken for the source's beginning; halve towards the oldest state above it.
      bottom = c + 1;
      halving = true;
      step = Math.ceil((hi.sequence - bottom) / 2);
    } else if (s.timestamp <= time) {
      lo = s;
    } else {
      hi = s;
      step = halving ? Math.ceil((hi.sequence - bottom) / 2) : step * 4;
    }
  }

  // Phase 2: between lo (at or before T) and hi (after T) until they are neighbours.
  let interpolate = true;
  while (hi.sequence - lo.sequence > 1) {
    const span = hi.sequence - lo.sequence;
    let c = interpolate ? lo.sequence + Math.ceil(((time - lo.timestamp) * span) / (hi.timestamp - lo.timestamp)) : lo.sequence + Math.floor(span / 2);
    interpolate = !interpolate;
    c = Math.min(hi.sequence - 1, Math.max(lo.sequence + 1, c));
    let s = await state(c);
    // A missing state: its nearest neighbour between the bounds, below first.
    for (let d = 1; s === undefined && (c - d > lo.sequence || c + d < hi.sequence); d++) {
      if (c - d > lo.sequence) s = await state(c - d);
      if (s === undefined && c + d < hi.sequence) s = await state(c + d);
    }
    if (s === undefined) break; // every sequence between lo and hi is missing
    if (s.timestamp <= time) lo = s;
    else hi = s;
  }
  return { sequence: lo.sequence + 1, latest, before: lo, stateFetches: fetches };
}
