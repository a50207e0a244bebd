/** `maphist start`: the quick start. Imports the bundled sample when there is no database, then serves. */
import { existsSync, mkdirSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_DB, SAMPLE_HISTORY } from '../defaults.js';
import { isMaphistError } from '../../core/errors.js';
import { openStore } from '../../store/open-store.js';
import { runImport } from './import.js';
import { serve, SERVE_OPTIONS } from './serve.js';

async function importSample(db: string): Promise<void> {
  const r = await runImport(SAMPLE_HISTORY, db);
  console.log(`imported ${r.versions} versions into ${r.rows} rows in ${r.seconds.toFixed(1)} s`);
}

/** The database is the bundled sample imported by a maphist of another schema version. */
async function isOlderSample(db: string): Promise<boolean> {
  try {
    (await openStore(db)).close();
    return false;
  } catch (e) {
    const source = isMaphistError(e) && e.code === 'DB_INVALID' ? e.details?.sourceFile : undefined;
    return typeof source === 'string' && basename(source) === basename(SAMPLE_HISTORY);
  }
}

export async function startCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: SERVE_OPTIONS });
  const db = values.db ?? DEFAULT_DB;
  if (!existsSync(db)) {
    mkdirSync(dirname(db), { recursive: true });
    console.log(`no database at ${db}: importing the bundled sample ${SAMPLE_HISTORY} (© OpenStreetMap contributors, ODbL)`);
    await importSample(db);
  } else if (await isOlderSample(db)) {
    // The quick start's own database, written by an older maphist: import the sample again (atomic).
    console.log(`${db} holds the bundled sample in an older schema: importing ${SAMPLE_HISTORY} again`);
    await importSample(db);
  }
  if (!values['no-api-keys']) {
    console.log(`version 2 statistics and extraction need an API key: create one with \`maphist keys create --db ${db}\` (or start with --no-api-keys)`);
  }
  await serve({ ...values, db });
}
