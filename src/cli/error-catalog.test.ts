/**
 * docs/errors.md and the code agree: every catalog code has one row, with the catalog's summary, the
 * v1 and v2 statuses of their error-status.ts, and the exit code of cli/exit-codes.ts (fastify's
 * drift test between its error catalog and its docs, as style-anchors.md describes it).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CATALOG, type ErrorCode } from '../core/errors.js';
import { V1_ERROR_STATUS } from '../api/v1/error-status.js';
import { V2_ERROR_STATUS } from '../api/v2/error-status.js';
import { REPO_ROOT } from '../testing/test-data.js';
import { exitCodeFor } from './exit-codes.js';

it('docs/errors.md lists every error code with its summary, statuses and exit code, and nothing else', () => {
  const doc = readFileSync(join(REPO_ROOT, 'docs', 'errors.md'), 'utf8');
  const rows = new Map<string, string[]>();
  for (const line of doc.split('\n')) {
    const m = /^\| `([A-Z_]+)` \| (.*) \| (\d+) \| (\d+) \| (\d+) \|$/.exec(line);
    if (m) rows.set(m[1]!, [m[2]!, m[3]!, m[4]!, m[5]!]);
  }
  assert.deepEqual([...rows.keys()].sort(), Object.keys(ERROR_CATALOG).sort(), 'the codes of the table and of the catalog');
  for (const [code, [summary, v1, v2, exit]] of rows) {
    const c = code as ErrorCode;
    assert.deepEqual(
      [summary, Number(v1), Number(v2), Number(exit)],
      [ERROR_CATALOG[c].summary, V1_ERROR_STATUS[c], V2_ERROR_STATUS[c], exitCodeFor(c)],
      code,
    );
  }
});
