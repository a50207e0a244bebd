/** Defaults shared by the commands. */
import { fileURLToPath } from 'node:url';
import { join, dirname } from 'node:path';

/** The project root (dist/cli/../.. at run time). */
export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const DEFAULT_DB = 'data/maphist.duckdb';
export const DEFAULT_PORT = 8080;
/** The bundled sample history that `maphist start` imports when there is no database yet. */
export const SAMPLE_HISTORY = join(PROJECT_ROOT, 'sample', 'andorra.osh.pbf');
