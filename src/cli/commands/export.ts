/**
 * `maphist export [--db PATH] --format parquet DIR`: the store's `contributions` view as partitioned
 * GeoParquet (src/store/export-parquet.ts, docs/export.md), written beside DIR and renamed to it;
 * SIGINT/SIGTERM remove what was written (exit 130/143).
 */
import { parseArgs } from 'node:util';
import { MaphistError } from '../../core/errors.js';
import { exportParquet } from '../../store/export-parquet.js';
import { DEFAULT_DB } from '../defaults.js';
import { removingWorkOnSignal } from '../signals.js';

const USAGE = 'usage: maphist export [--db PATH] --format parquet <output directory>';

export async function exportCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { db: { type: 'string', default: DEFAULT_DB }, format: { type: 'string', default: 'parquet' } },
  });
  if (positionals.length !== 1) throw new MaphistError('CLI_USAGE', USAGE);
  if (values.format !== 'parquet') throw new MaphistError('CLI_USAGE', `maphist export writes --format parquet only, not '${values.format}'. ${USAGE}`);
  const result = await removingWorkOnSignal('export', () => exportParquet({ db: values.db!, dir: positionals[0]! }));
  console.log(
    `exported ${values.db} into ${positionals[0]}: ${result.rows} rows in ${result.files} GeoParquet files (by year and type), ${result.seconds.toFixed(1)} s`,
  );
}
