/**
 * The change files of a plan, fetched into a directory the caller owns (the update's work
 * directory) before anything is applied: a missing one is refused as a gap (`REPLICATION_GAP`)
 * with the store unchanged. Each is written as published (gzipped), named by its nine-digit
 * sequence (`000466354.osc.gz`, changesets `000466354.osm.gz`), so that the change reader, which
 * recognises gzip by its content, reads them in order.
 *
 *   const files = await downloadChanges(source, plan, workDir);   // paths, in the plan's order
 *   await applyChanges({ db, changes: files });
 */
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gapError, mapLimited, type ReplicationPlan } from './plan.js';
import type { ReplicationSource } from './source.js';

export interface DownloadOptions {
  /** Files fetched at once (default 4). */
  concurrency?: number;
}

export async function downloadChanges(source: ReplicationSource, plan: ReplicationPlan, dir: string, options: DownloadOptions = {}): Promise<string[]> {
  const suffix = source.kind === 'changes' ? '.osc.gz' : '.osm.gz';
  const missing: number[] = [];
  const paths = await mapLimited(plan.steps, options.concurrency ?? 4, async ({ sequence }) => {
    const bytes = await source.changeFile(sequence);
    if (bytes === undefined) {
      missing.push(sequence);
      return '';
    }
    const path = join(dir, `${String(sequence).padStart(9, '0')}${suffix}`);
    // Written under a temporary name and renamed, so a file under the final name is whole.
    await writeFile(`${path}.part`, bytes);
    await rename(`${path}.part`, path);
    return path;
  });
  if (missing.length > 0)
    throw gapError(
      source,
      plan.after,
      plan.latest,
      missing.sort((a, b) => a - b),
      'change',
    );
  return paths;
}
