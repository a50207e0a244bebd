/** handmade.ts's never-tagged set, checked against the XML itself with a plain reader (no importer). */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NEVER_TAGGED, inV1, inV2, typeCount } from './handmade.js';
import { TESTCASES_DIR } from './test-data.js';

it('the never-tagged elements of the handmade history are exactly those whose versions have no <tag>', () => {
  const xml = readFileSync(join(TESTCASES_DIR, 'handmade', 'history-small.osh'), 'utf8');
  const tagged = new Set<string>();
  const all = new Set<string>();
  // Each element version: an opening tag up to its self-closing end or its closing tag.
  for (const m of xml.matchAll(/<(node|way|relation) id="(\d+)"[^>]*?(\/>|>([\s\S]*?)<\/\1>)/g)) {
    const ref = `${m[1][0]}${m[2]}`;
    all.add(ref);
    if ((m[4] ?? '').includes('<tag ')) tagged.add(ref);
  }
  assert.equal(all.size, 16);
  assert.deepEqual([...all].filter((e) => !tagged.has(e)).sort(), [...NEVER_TAGGED].sort());
});

it('version 1 drops never-tagged nodes only, version 2 every never-tagged element', () => {
  assert.equal(inV1('n3v2'), false);
  assert.equal(inV1('n5v4'), true);
  assert.equal(inV1('w12v1'), true);
  assert.equal(inV2('w12v1'), false);
  assert.equal(typeCount(['n1v1', 'n5v2', 'w10v1', 'w12v1'], 'n', inV1), 1);
  assert.equal(typeCount(['n1v1', 'n5v2', 'w10v1', 'w12v1'], 'w', inV2), 1);
});
