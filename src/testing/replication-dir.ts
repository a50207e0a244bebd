/**
 * Test support: a local replication source laid out as the planet's (docs/replication.md), written
 * from a list of change files with their timestamps: `AAA/BBB/CCC.osc.gz` and `AAA/BBB/CCC.state.txt`
 * per sequence, `state.txt` at the root (changesets: `.osm.gz`, `state.yaml`). For the replication
 * tests and for end-to-end tests of `maphist update --replication` and of a server following one.
 *
 *   writeReplicationDir(dir, [
 *     { sequence: 466354, timestamp: '2013-08-04T20:13:02Z', change: { file: 'testdata/changes/000466354.osc.gz' } },
 *     { sequence: 466355, timestamp: '2013-08-04T20:14:02Z' },               // an empty change
 *     { sequence: 466356, timestamp: '2013-08-04T20:15:02Z', state: false }, // a gap: no state file
 *   ]);
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sequencePath } from '../io/replication/paths.js';
import type { ReplicationKind } from '../io/replication/source.js';
import { formatStateTxt, formatStateYaml, type ReplicationState } from '../io/replication/state.js';

export interface ReplicationEntry {
  sequence: number;
  /** Epoch seconds or an ISO time (`2013-08-04T20:13:02Z`). */
  timestamp: number | string;
  /**
   * The change: a file (`.osc` or `.osc.gz`; gzipped here when it is not), its text, or false for
   * none (a missing change file). Default: an empty `<osmChange/>`.
   */
  change?: { file: string } | { text: string } | false;
  /** false: no state file for this sequence (a missing state). */
  state?: boolean;
}

export interface ReplicationDirOptions {
  kind?: ReplicationKind;
  /** The sequence the root state names (default: the highest entry); null writes no root state. */
  latest?: number | null;
}

export const EMPTY_CHANGE = '<?xml version="1.0" encoding="UTF-8"?>\n<osmChange version="0.6" generator="maphist test"/>\n';

export function entryState(entry: ReplicationEntry): ReplicationState {
  const timestamp = typeof entry.timestamp === 'number' ? entry.timestamp : Date.parse(entry.timestamp) / 1000;
  if (!Number.isFinite(timestamp)) throw new Error(`bad timestamp ${entry.timestamp}`);
  return { sequence: entry.sequence, timestamp };
}

function changeBytes(change: { file: string } | { text: string } | undefined): Buffer {
  if (change === undefined) return gzipSync(EMPTY_CHANGE);
  const bytes = 'file' in change ? readFileSync(change.file) : Buffer.from(change.text, 'utf8');
  return bytes[0] === 0x1f && bytes[1] === 0x8b ? bytes : gzipSync(bytes);
}

/** Writes (replaces) the replication directory `dir`; returns the root state written. */
export function writeReplicationDir(dir: string, entries: readonly ReplicationEntry[], options: ReplicationDirOptions = {}): ReplicationState | undefined {
  const kind = options.kind ?? 'changes';
  const format = kind === 'changes' ? formatStateTxt : formatStateYaml;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const entry of entries) appendReplicationEntry(dir, entry, { kind, latest: null });
  const byHighest = [...entries].sort((a, b) => b.sequence - a.sequence);
  const rootEntry = options.latest === undefined ? byHighest[0] : options.latest === null ? undefined : entries.find((e) => e.sequence === options.latest);
  if (options.latest != null && rootEntry === undefined) throw new Error(`no entry for the latest sequence ${options.latest}`);
  if (rootEntry === undefined) return undefined;
  const root = entryState(rootEntry);
  writeFileSync(join(dir, kind === 'changes' ? 'state.txt' : 'state.yaml'), format(root));
  return root;
}

/**
 * Adds one sequence to a replication directory as a publisher does: the change file, then its
 * state, then (unless `latest: null`) the root state moved to it.
 */
export function appendReplicationEntry(dir: string, entry: ReplicationEntry, options: { kind?: ReplicationKind; latest?: null } = {}): void {
  const kind = options.kind ?? 'changes';
  const base = join(dir, sequencePath(entry.sequence));
  mkdirSync(dirname(base), { recursive: true });
  if (entry.change !== false) writeFileSync(`${base}${kind === 'changes' ? '.osc.gz' : '.osm.gz'}`, changeBytes(entry.change));
  const state = entryState(entry);
  const format = kind === 'changes' ? formatStateTxt : formatStateYaml;
  if (entry.state !== false) writeFileSync(`${base}.state.txt`, format(state));
  if (options.latest !== null) writeFileSync(join(dir, kind === 'changes' ? 'state.txt' : 'state.yaml'), format(state));
}
