/** `maphist start`: the quick start. Imports the bundled sample when there is no database, then serves. */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_DB, SAMPLE_HISTORY } from '../defaults.js';
import { runImport } from './import.js';
import { serve, SERVE_OPTIONS } from './serve.js';

export async function startCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: SERVE_OPTIONS });
  const db = values.db ?? DEFAULT_DB;
  if (!existsSync(db)) {
    mkdirSync(dirname(db), { recursive: true });
    console.log(`no database at ${db}: importing the bundled sample ${SAMPLE_HISTORY} (© OpenStreetMap contributors, ODbL)`);
    const r = await runImport(SAMPLE_HISTORY, db);
    console.log(`imported ${r.versions} versions into ${r.rows} rows in ${r.seconds.toFixed(1)} s`);
  }
  if (!values['no-api-keys']) {
    console.log(`version 2 statistics and extraction need an API key: create one with \`maphist keys create --db ${db}\` (or start with --no-api-keys)`);
  }
  await serve({ ...values, db });
}
