/**
 * `maphist update [--db PATH] FILE.osc[.gz|.bz2] ...`: apply OsmChange files to a database, in one
 * atomic step (src/store/apply-changes.ts; docs/store.md, "Updates"): a transaction on the file, or
 * a copy renamed over it when a server has the file open.
 *
 * `maphist update [--db PATH] --replication URL_OR_DIR [--start-sequence N] [--max-sequences N]`:
 * apply every sequence of a replication source after the store's (docs/replication.md): the start
 * (the store's sequence, `--start-sequence`, or the first state after the store's data), the plan
 * refusing a gap, the change files fetched into a work directory beside the database, then one
 * atomic apply that also records the last sequence and its timestamp in the store.
 */
import { parseArgs } from 'node:util';
import { MaphistError } from '../../core/errors.js';
import { openReplicationSource } from '../../io/replication/source.js';
import { prepareReplicationUpdate } from '../../io/replication/prepare.js';
import { applyChanges, type ApplyChangesResult } from '../../store/apply-changes.js';
import { openStore } from '../../store/open-store.js';
import { createWorkDir } from '../../store/work-dir.js';
import { DEFAULT_DB } from '../defaults.js';
import { removingWorkOnSignal } from '../signals.js';

export const UPDATE_USAGE =
  'usage: maphist update [--db PATH] [--copy] <change file (.osc, .osc.gz, .osc.bz2)> ...\n' +
  '       maphist update [--db PATH] [--copy] --replication <URL or directory> [--start-sequence N] [--max-sequences N]';

export async function updateCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      db: { type: 'string', default: DEFAULT_DB },
      copy: { type: 'boolean', default: false },
      replication: { type: 'string' },
      'start-sequence': { type: 'string' },
      'max-sequences': { type: 'string' },
    },
  });
  const db = values.db!;
  if (values.replication !== undefined) {
    if (positionals.length > 0) throw new MaphistError('CLI_USAGE', `${UPDATE_USAGE}\n(change files or --replication, not both)`);
    await replicationUpdate(
      db,
      values.replication,
      count(values['start-sequence'], '--start-sequence', 0),
      count(values['max-sequences'], '--max-sequences', 1),
      values.copy!,
    );
    return;
  }
  if (positionals.length === 0) throw new MaphistError('CLI_USAGE', UPDATE_USAGE);
  const result = await removingWorkOnSignal('update', () => applyChanges({ db, changes: positionals, onPhase: progress, copy: values.copy }));
  endProgress();
  console.log(
    result.written
      ? `updated ${db} from ${positionals.length} change file(s): ${summary(result)}`
      : `${db} already has all ${result.versionsRead} versions of the change file(s): nothing to do`,
  );
}

function count(text: string | undefined, flag: string, min: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < min) throw new MaphistError('CLI_USAGE', `${flag} takes a whole number ≥ ${min}`);
  return n;
}

async function replicationUpdate(
  db: string,
  location: string,
  startSequence: number | undefined,
  maxSequences: number | undefined,
  copy: boolean,
): Promise<void> {
  // Where the store stands: its last applied sequence (none before the first replication update,
  // whatever an imported file's header said) and the end of its data.
  const store = await openStore(db);
  const meta = store.metadata;
  store.close();
  const sequence = meta.replicationTimestamp === undefined ? undefined : meta.replicationSequenceNumber;
  const dataEnd = Math.floor(Date.parse(meta.lastTimestamp) / 1000);
  await removingWorkOnSignal('update', async () => {
    const source = await openReplicationSource(location);
    const work = createWorkDir(db, 'replication');
    try {
      const { start, plan, files } = await prepareReplicationUpdate(source, { sequence, dataEnd }, work.path, { startSequence, maxSequences });
      if (start) console.log(`${db} has no replication sequence yet: starting at ${start.sequence}, the first state after its data (${meta.lastTimestamp})`);
      const last = plan.steps.at(-1);
      if (last === undefined) {
        console.log(`${db} is up to date with ${location} (sequence ${plan.after})`);
        return;
      }
      const result = await applyChanges({ db, changes: files, onPhase: progress, copy, position: { sequence: last.sequence, timestamp: last.timestamp } });
      endProgress();
      const iso = new Date(last.timestamp * 1000).toISOString().replace('.000Z', 'Z');
      console.log(`updated ${db} to sequence ${last.sequence} (${iso}) from ${plan.steps.length} change file(s) of ${location}: ${summary(result)}`);
    } finally {
      work.remove();
    }
  });
}

function progress(phase: string): void {
  if (process.stderr.isTTY) process.stderr.write(`\r${phase.padEnd(12)}`);
}

function endProgress(): void {
  if (process.stderr.isTTY) process.stderr.write('\r'.padEnd(13) + '\r');
}

function summary(result: ApplyChangesResult): string {
  const rss = (process.resourceUsage().maxRSS / 1024).toFixed(0);
  const r = result.rebuilt;
  return (
    `${result.versionsNew} new versions of ${result.versionsRead} (${result.versionsRead - result.versionsNew} already there), ` +
    `rebuilt ${r.node} nodes, ${r.way} ways, ${r.relation} relations: ${result.rowsRemoved} rows replaced by ${result.rowsAdded}, ` +
    `${result.seconds.toFixed(2)} s (${result.inPlace ? 'in place' : `written to a copy renamed over it, the copy ${result.copySeconds.toFixed(2)} s`}), peak RSS ${rss} MB`
  );
}
