/**
 * Where the tests and benchmarks find their data: the repository's own `testdata/` folder (see its
 * README.md), resolved from this compiled file (dist/src/testing/), never from the working directory
 * or a folder beside the checkout.
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The repository root (this file compiles to dist/src/testing/test-data.js). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The test and benchmark data carried by the repository. */
export const TEST_DATA = join(REPO_ROOT, 'testdata');

/** Real full-history extracts and their osmium-made expected counts. */
export const HISTORY_DIR = join(TEST_DATA, 'history');

/** Small history test cases (handmade, osmium-tool, OSHDB, the osmcode multipolygon grid). */
export const TESTCASES_DIR = join(TEST_DATA, 'testcases');

/** The 4-country history the benchmarks import. */
export const FOUR_COUNTRIES = join(HISTORY_DIR, 'oshdb-4countries-merged.osh.pbf');
