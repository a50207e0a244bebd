/**
 * docs/limits.md and src/api/common/limits.ts agree, in both directions (as
 * src/cli/error-catalog.test.ts keeps docs/errors.md in step): every limit has one row with its
 * values, unit, description and code, and the table has no other row; the filter limits are the
 * filter language's own; each limit's code is in the catalog and answers a 4xx in both versions.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'node:test';
import { ERROR_CATALOG } from '../../core/errors.js';
import { DEFAULT_LIMITS } from '../../filter/limits.js';
import { REPO_ROOT } from '../../testing/test-data.js';
import { V1_ERROR_STATUS } from '../v1/error-status.js';
import { V2_ERROR_STATUS } from '../v2/error-status.js';
import { LIMITS, formatBytes, formatCount, limitMessage, requestSizeRefusal, type LimitName } from './limits.js';

const DOC = readFileSync(join(REPO_ROOT, 'docs', 'limits.md'), 'utf8').split('\n');
const cell = (v: number | undefined) => (v === undefined ? '—' : formatCount(v));

it('docs/limits.md lists every limit with its values, unit, description and code, and nothing else', () => {
  const rows = new Map<string, string[]>();
  for (const line of DOC) {
    const m = /^\| `([A-Za-z]+)` \| ([^|]+) \| ([^|]+) \| ([^|]+) \| (.+) \| `([A-Z_]+)` \|$/.exec(line);
    if (!m) continue;
    assert.ok(!rows.has(m[1]!), `${m[1]} has two rows`);
    rows.set(m[1]!, m.slice(2));
  }
  assert.deepEqual([...rows.keys()].sort(), Object.keys(LIMITS).sort(), 'the limits of the table and of the code');
  for (const [name, row] of rows) {
    const l = LIMITS[name as LimitName];
    assert.deepEqual(row, [cell(l.v1), cell(l.v2), l.unit, l.bounds, l.code], name);
  }
});

it('the filter limits are the filter language’s own; every code is a 4xx in both versions', () => {
  assert.equal(LIMITS.filterLength.v1, DEFAULT_LIMITS.maxLength);
  assert.equal(LIMITS.filterDepth.v2, DEFAULT_LIMITS.maxDepth);
  assert.equal(LIMITS.filterTerms.v1, DEFAULT_LIMITS.maxDnfTerms);
  for (const [name, l] of Object.entries(LIMITS)) {
    assert.ok(l.code in ERROR_CATALOG, name);
    for (const status of [V1_ERROR_STATUS[l.code], V2_ERROR_STATUS[l.code]]) assert.ok(status >= 400 && status < 500, `${name}: ${status}`);
  }
  // The engine groups by at most 62 keys (engines/sql/groups.ts).
  assert.ok(LIMITS.groupByKeys.v1 <= 62);
});

it('messages name the limit and the value given', () => {
  assert.equal(
    limitMessage('boundaries in bboxes', 1000, 100_000, 'Split them.'),
    'At most 1,000 boundaries in bboxes are accepted; the request has 100,000. Split them.',
  );
  assert.equal(formatBytes(20 * 1024 * 1024), '20 MB');
  assert.equal(formatBytes(32 * 1024), '32 KB');
  assert.equal(formatBytes(1000), '1,000 bytes');
  assert.deepEqual(requestSizeRefusal(`/v1/x?${'a'.repeat(40_000)}`, undefined, 'v1'), {
    code: 'URI_TOO_LONG',
    message: 'A query string of at most 32 KB (32,768 bytes) is accepted; the request has 40,000 bytes. Send the parameters in a POST body instead.',
  });
  assert.equal(requestSizeRefusal(`/v1/x?${'a'.repeat(32 * 1024)}`, String(20 * 1024 * 1024), 'v1'), undefined, 'both limits themselves are accepted');
  assert.match(
    requestSizeRefusal('/v2/x', '25000000', 'v2')?.message ?? '',
    /^A request body of at most 20 MB \(20,971,520 bytes\) is accepted; the request has 25,000,000 bytes\./,
  );
});
