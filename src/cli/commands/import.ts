/**
 * `maphist import <file> [--db PATH] [--workers N] [--memory-limit SIZE] [--changesets FILE [--all-changesets]]`:
 * build a database from a history file, with the changesets of a changeset dump if one is given,
 * within a memory budget (default 4 GB, store/import-memory.ts).
 */
import { parseArgs } from 'node:util';
import { SingleBar, Presets } from 'cli-progress';
import { MaphistError } from '../../core/errors.js';
import { importHistory, type ImportProgress } from '../../store/import-history.js';
import type { ChangesetsProgress, LoadChangesetsResult } from '../../store/changesets.js';
import { DEFAULT_DB } from '../defaults.js';
import { changesetsBar } from './changesets-progress.js';
import { removingWorkOnSignal } from '../signals.js';
import { parseSize } from '../parse-size.js';
import { MIN_IMPORT_MEMORY_BYTES } from '../../store/import-memory.js';

export async function importCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      db: { type: 'string', default: DEFAULT_DB },
      workers: { type: 'string' },
      'memory-limit': { type: 'string' },
      changesets: { type: 'string' },
      'all-changesets': { type: 'boolean', default: false },
    },
  });
  if (positionals.length !== 1) {
    throw new MaphistError(
      'CLI_USAGE',
      'usage: maphist import <history file (.osh.pbf, .osh, .osm[.gz|.bz2])> [--db PATH] [--workers N] [--memory-limit SIZE] [--changesets FILE [--all-changesets]]',
    );
  }
  if (values['all-changesets'] && values.changesets === undefined) throw new MaphistError('CLI_USAGE', '--all-changesets needs --changesets FILE');
  const workers = values.workers === undefined ? undefined : Number(values.workers);
  if (workers !== undefined && !(Number.isInteger(workers) && workers >= 1))
    throw new MaphistError('CLI_USAGE', '--workers takes a whole number of at least 1');
  const memoryBytes = values['memory-limit'] === undefined ? undefined : importMemoryBudget(values['memory-limit']);
  const result = await runImport(positionals[0], values.db!, workers, {
    changesets: values.changesets,
    allChangesets: values['all-changesets'],
    memoryBytes,
  });
  const rss = (process.resourceUsage().maxRSS / 1024).toFixed(0);
  console.log(
    `imported ${positionals[0]} into ${values.db}: ${result.versions} versions read, ${result.rows} rows written, ` +
      `${result.seconds.toFixed(1)} s (${Math.round(result.versions / result.seconds)} versions/s; ` +
      `build ${result.phaseSeconds.build.toFixed(1)} s, finish ${result.phaseSeconds.finish.toFixed(1)} s` +
      `${result.phaseSeconds.changesets === undefined ? '' : `, changesets ${result.phaseSeconds.changesets.toFixed(1)} s`}), peak RSS ${rss} MB`,
  );
  if (result.changesets) console.log(changesetsSummary(values.changesets!, result.changesets));
}

/** `--memory-limit`: a size of at least MIN_IMPORT_MEMORY_BYTES (CLI_USAGE otherwise, naming the floor). */
export function importMemoryBudget(text: string): number {
  const bytes = parseSize(text);
  if (bytes < MIN_IMPORT_MEMORY_BYTES) {
    throw new MaphistError(
      'CLI_USAGE',
      `--memory-limit ${text.trim()} is below what an import needs: give at least ${MIN_IMPORT_MEMORY_BYTES / 1e9} GB (the default is 4 GB).`,
    );
  }
  return bytes;
}

/** The summary line of a changeset load. */
export function changesetsSummary(file: string, r: LoadChangesetsResult): string {
  return (
    `changesets from ${file}: ${r.read} read, ${r.kept} kept` + (r.missing > 0 ? `; ${r.missing} changesets the history references are not in the file` : '')
  );
}

export async function runImport(
  input: string,
  db: string,
  workers?: number,
  options: { changesets?: string; allChangesets?: boolean; memoryBytes?: number } = {},
) {
  const bar = process.stderr.isTTY
    ? new SingleBar(
        {
          format: '{phase} |{bar}| {percentage}% | {versions} versions | {rate} versions/s | ETA {eta_formatted}',
          hideCursor: true,
        },
        Presets.shades_classic,
      )
    : undefined;
  const started = performance.now();
  let lastUpdate = 0;
  const onProgress = (p: ImportProgress) => {
    if (!bar) return;
    const now = performance.now();
    if (now - lastUpdate < 200 && p.phase !== 'finishing') return;
    lastUpdate = now;
    const payload = { phase: p.phase.padEnd(9), versions: p.versions ?? 0, rate: Math.round((p.versions ?? 0) / ((now - started) / 1000)) };
    if (!bar.isActive) bar.start(p.bytesTotal, p.bytesRead, payload);
    else bar.update(p.bytesRead, payload);
  };
  const csBar = changesetsBar();
  const onChangesetsProgress = (p: ChangesetsProgress) => {
    if (bar?.isActive) bar.stop();
    csBar.update(p);
  };
  try {
    return await removingWorkOnSignal('import', () => importHistory({ input, db, workers, onProgress, onChangesetsProgress, ...options }));
  } finally {
    bar?.stop();
    csBar.stop();
  }
}
