/**
 * docs/errors.md and the code agree, in both directions: every catalog code has one row, with the
 * catalog's summary, the v1 and v2 statuses of their error-status.ts, and the exit code of
 * cli/exit-codes.ts, and the table has no other row; the exit-code table lists exactly the exit
 * codes in use (as fastify keeps its error catalog and its docs in step with a test).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CATALOG, type ErrorCode } from '../core/errors.js';
import { V1_ERROR_STATUS } from '../api/v1/error-status.js';
import { V2_ERROR_STATUS } from '../api/v2/error-status.js';
import { REPO_ROOT } from '../testing/test-data.js';
import { EXIT_CODES, EXIT_INTERNAL, EXIT_OK, exitCodeFor } from './exit-codes.js';

const DOC = readFileSync(join(REPO_ROOT, 'docs', 'errors.md'), 'utf8').split('\n');

it('docs/errors.md lists every error code with its summary, statuses and exit code, and nothing else', () => {
  const rows = new Map<string, string[]>();
  for (const line of DOC) {
    const m = /^\| `([A-Z_0-9]+)` \| (.*) \| (\d+) \| (\d+) \| (\d+) \|$/.exec(line);
    if (!m) continue;
    assert.ok(!rows.has(m[1]!), `${m[1]} has two rows`);
    rows.set(m[1]!, [m[2]!, m[3]!, m[4]!, m[5]!]);
  }
  assert.deepEqual([...rows.keys()].sort(), Object.keys(ERROR_CATALOG).sort(), 'the codes of the table and of the catalog');
  for (const [code, [summary, v1, v2, exit]] of rows) {
    const c = code as ErrorCode;
    assert.deepEqual([summary, Number(v1), Number(v2), Number(exit)], [ERROR_CATALOG[c].summary, V1_ERROR_STATUS[c], V2_ERROR_STATUS[c], exitCodeFor(c)], code);
  }
});

it('the three mappings cover exactly the catalog', () => {
  const codes = Object.keys(ERROR_CATALOG).sort();
  assert.deepEqual(Object.keys(V1_ERROR_STATUS).sort(), codes);
  assert.deepEqual(Object.keys(V2_ERROR_STATUS).sort(), codes);
  assert.deepEqual(Object.keys(EXIT_CODES).sort(), codes);
  assert.equal(EXIT_CODES.INTERNAL_ERROR, EXIT_INTERNAL);
});

it('the exit-code table of docs/errors.md lists exactly the exit codes in use, once each', () => {
  const listed: number[] = [];
  for (const line of DOC) {
    const m = /^\| (\d+) \| .+ \|$/.exec(line);
    if (m) listed.push(Number(m[1]));
  }
  const used = [...new Set([EXIT_OK, ...Object.values(EXIT_CODES)])].sort((a, b) => a - b);
  assert.deepEqual(listed, used);
});
