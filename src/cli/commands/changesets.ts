/**
 * `maphist changesets import FILE [--db PATH] [--all]`: loads the changesets of a planet changeset
 * dump (plain, .gz or .bz2 XML, streamed) into an existing database, in one transaction; by default
 * only those its history references. Contributions then carry their changeset's tags (the
 * `contributions` view's `changeset_tags`, v2 contributions.parquet).
 */
import { parseArgs } from 'node:util';
import { MaphistError } from '../../core/errors.js';
import { importChangesets } from '../../store/changesets.js';
import { DEFAULT_DB } from '../defaults.js';
import { changesetsBar } from './changesets-progress.js';
import { changesetsSummary } from './import.js';
import { removingWorkOnSignal } from '../signals.js';

const USAGE = 'usage: maphist changesets import <changeset dump (changesets-*.osm[.gz|.bz2])> [--db PATH] [--all]';

export async function changesetsCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { db: { type: 'string', default: DEFAULT_DB }, all: { type: 'boolean', default: false } },
  });
  if (positionals[0] !== 'import' || positionals.length !== 2) throw new MaphistError('CLI_USAGE', USAGE);
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
