/**
 * Shared by the io tests (not used by the readers): where the data is, reading a whole file,
 * and summarising or fingerprinting a history without keeping it in memory.
 */

import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HISTORY_DIR, REPO_ROOT, TEST_DATA } from '../testing/test-data.js';
import type { OsmType, OsmVersion } from '../core/osm.js';
import { openHistory } from './open-history.js';
import type { OpenHistoryOptions } from './opened-history.js';

/** The io tests' own small files (src/io/testdata). */
export const TESTDATA_DIR = join(REPO_ROOT, 'src/io/testdata');

/** The repository's test and benchmark data (testdata/, see its README.md). */
export const DATA_DIR = TEST_DATA;
export { HISTORY_DIR };

/** Set MAPHIST_OSMIUM to another path (or a missing one, to try the tests as without osmium). */
export const OSMIUM = process.env.MAPHIST_OSMIUM ?? '/usr/bin/osmium';
export const HAVE_OSMIUM = existsSync(OSMIUM);

export async function readAllVersions(path: string, options?: OpenHistoryOptions): Promise<OsmVersion[]> {
  const history = await openHistory(path, options);
  const all: OsmVersion[] = [];
  for await (const batch of history.batches()) for (const v of batch) all.push(v);
  await history.close();
  return all;
}

export interface HistorySummary {
  versions: Record<OsmType, number>;
  deletedVersions: Record<OsmType, number>;
  firstTimestamp: string;
  lastTimestamp: string;
}

/** The figures `osmium fileinfo -e` reports (plus deleted versions), streamed. */
export async function summarize(path: string, options?: OpenHistoryOptions): Promise<HistorySummary> {
  const versions = { node: 0, way: 0, relation: 0 };
  const deletedVersions = { node: 0, way: 0, relation: 0 };
  let first = Infinity;
  let last = -Infinity;
  const history = await openHistory(path, options);
  for await (const batch of history.batches()) {
    for (const v of batch) {
      versions[v.type]++;
      if (!v.visible) deletedVersions[v.type]++;
      if (v.timestamp < first) first = v.timestamp;
      if (v.timestamp > last) last = v.timestamp;
    }
  }
  await history.close();
  const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');
  return { versions, deletedVersions, firstTimestamp: iso(first), lastTimestamp: iso(last) };
}

/** SHA-256 over every record (all fields, in file order) and the number of records. */
export async function fingerprint(path: string, options?: OpenHistoryOptions): Promise<{ count: number; sha256: string }> {
  const hash = createHash('sha256');
  let count = 0;
  const history = await openHistory(path, options);
  for await (const batch of history.batches()) {
    for (const v of batch) {
      hash.update(canonicalJson(v));
      hash.update('\n');
      count++;
    }
  }
  await history.close();
  return { count, sha256: hash.digest('hex') };
}

/** JSON with keys in a fixed order, so records built in different property orders compare equal. */
export function canonicalJson(v: OsmVersion): string {
  const common = [v.type, v.id, v.version, v.timestamp, v.changeset, v.uid, v.user, v.visible, v.tags];
  if (v.type === 'node') return JSON.stringify([...common, v.lon, v.lat]);
  if (v.type === 'way') return JSON.stringify([...common, v.refs]);
  return JSON.stringify([...common, v.members.map((m) => [m.type, m.ref, m.role])]);
}

/** A fresh temporary directory and a function removing it. */
export function makeTempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'maphist-io-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
