/**
 * `maphist changesets import FILE [--db PATH] [--all]`: loads the changesets of a planet changeset
 * dump (plain, .gz or .bz2 XML, streamed) into an existing database, in one transaction; by default
 * only those its history references. Contributions then carry their changeset's tags (the
 * `contributions` view's `changeset_tags`, v2 contributions.parquet).
 *
 * `maphist changesets update [--db PATH] --replication URL_OR_DIR [--start-sequence N] [--max-sequences N]`:
 * brings those changesets up to date from changeset replication (`state.yaml`, `AAA/BBB/CCC.osm.gz`;
 * src/store/changeset-replication.ts, docs/replication.md "Changeset replication").
 */
import { parseArgs } from 'node:util';
import { MaphistError } from '../../core/errors.js';
import { importChangesets } from '../../store/changesets.js';
import { updateChangesets, type UpdateChangesetsResult } from '../../store/changeset-replication.js';
import { DEFAULT_DB } from '../defaults.js';
import { changesetsBar } from './changesets-progress.js';
import { changesetsSummary } from './import.js';
import { removingWorkOnSignal } from '../signals.js';

const USAGE =
  'usage: maphist changesets import <changeset dump (changesets-*.osm[.gz|.bz2])> [--db PATH] [--all]\n' +
  '       maphist changesets update [--db PATH] --replication <URL or directory> [--start-sequence N] [--max-sequences N]';

export async function changesetsCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      db: { type: 'string', default: DEFAULT_DB },
      all: { type: 'boolean', default: false },
      replication: { type: 'string' },
      'start-sequence': { type: 'string' },
      'max-sequences': { type: 'string' },
    },
  });
  if (positionals[0] === 'update') {
    if (positionals.length !== 1 || values.replication === undefined || values.all) throw new MaphistError('CLI_USAGE', USAGE);
    await changesetsUpdate(
      values.db!,
      values.replication,
      count(values['start-sequence'], '--start-sequence', 0),
      count(values['max-sequences'], '--max-sequences', 1),
    );
    return;
  }
  if (
    positionals[0] !== 'import' ||
    positionals.length !== 2 ||
    values.replication !== undefined ||
    values['start-sequence'] !== undefined ||
    values['max-sequences'] !== undefined
  )
    throw new MaphistError('CLI_USAGE', USAGE);
  const file = positionals[1]!;
  const bar = changesetsBar();
  let result;
  try {
    result = await removingWorkOnSignal('changesets import', () => importChangesets(values.db!, file, { all: values.all, onProgress: (p) => bar.update(p) }));
  } finally {
    bar.stop();
  }
  console.log(changesetsSummary(file, result));
}

function count(text: string | undefined, flag: string, min: number): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < min) throw new MaphistError('CLI_USAGE', `${flag} takes a whole number ≥ ${min}`);
  return n;
}

async function changesetsUpdate(db: string, location: string, startSequence: number | undefined, maxSequences: number | undefined): Promise<void> {
  const started = performance.now();
  const r = await removingWorkOnSignal('changesets update', () => updateChangesets({ db, location, startSequence, maxSequences }));
  if (r.start) console.log(`${db} has no changeset replication sequence yet: starting at ${r.start.sequence}, the first state after its changesets`);
  if (r.upToDate) {
    console.log(`${db} changesets are up to date with ${location} (sequence ${r.sequence ?? r.start?.latest.sequence})`);
    return;
  }
  console.log(
    `updated the changesets of ${db} to sequence ${r.sequence} (${isoTime(r.timestamp!)}) from ${r.sequences} diff(s) of ${location}: ${summary(r, started)}`,
  );
}

function isoTime(epochSeconds: number): string {
  return new Date(Math.floor(epochSeconds) * 1000).toISOString().replace('.000Z', 'Z');
}

function summary(r: UpdateChangesetsResult, started: number): string {
  const rule = r.all ? 'all kept (--all)' : `kept: referenced, open or closed after ${isoTime(r.dataEnd)}`;
  return (
    `${r.changesetsRead} changesets in ${r.recordsRead} records; ${r.written} written, ${r.notKept} not kept, ${r.pruned} removed` +
    `${r.stale > 0 ? `, ${r.stale} older than the store's` : ''} (${rule}); ${r.rows} rows; ${((performance.now() - started) / 1000).toFixed(2)} s, ` +
    `peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`
  );
}
