/**
 * `maphist update [--db PATH] FILE.osc[.gz|.bz2] ...`: apply OsmChange files to a database, in one
 * atomic step (src/store/apply-changes.ts; docs/store.md, "Updates").
 */
import { parseArgs } from 'node:util';
import { MaphistError } from '../../core/errors.js';
import { applyChanges } from '../../store/apply-changes.js';
import { DEFAULT_DB } from '../defaults.js';
import { removingWorkOnSignal } from '../signals.js';

export const UPDATE_USAGE = 'usage: maphist update [--db PATH] <change file (.osc, .osc.gz, .osc.bz2)> ...';

export async function updateCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { db: { type: 'string', default: DEFAULT_DB } },
  });
  if (positionals.length === 0) throw new MaphistError('CLI_USAGE', UPDATE_USAGE);
  const db = values.db!;
  const result = await removingWorkOnSignal('update', () =>
    applyChanges({
      db,
      changes: positionals,
      onPhase: (phase) => {
        if (process.stderr.isTTY) process.stderr.write(`\r${phase.padEnd(12)}`);
      },
    }),
  );
  if (process.stderr.isTTY) process.stderr.write('\r'.padEnd(13) + '\r');
  const rss = (process.resourceUsage().maxRSS / 1024).toFixed(0);
  const r = result.rebuilt;
  console.log(
    result.written
      ? `updated ${db} from ${positionals.length} change file(s): ${result.versionsNew} new versions of ${result.versionsRead} ` +
          `(${result.versionsRead - result.versionsNew} already there), rebuilt ${r.node} nodes, ${r.way} ways, ${r.relation} relations: ` +
          `${result.rowsRemoved} rows replaced by ${result.rowsAdded}, ${result.seconds.toFixed(2)} s (copy ${result.copySeconds.toFixed(2)} s), peak RSS ${rss} MB`
      : `${db} already has all ${result.versionsRead} versions of the change file(s): nothing to do`,
  );
}
