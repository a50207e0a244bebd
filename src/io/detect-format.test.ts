import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isMaphistError } from '../core/errors.js';
import { detectFormat } from './detect-format.js';
import { encodeBlob, encodeHeaderBlock, frame } from './pbf/pbf-test-files.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const detect = (head: Uint8Array) => detectFormat(head, head.length, 'input');

test('recognises PBF by its OSMHeader blob header, whatever the name', () => {
  assert.deepStrictEqual(detect(frame('OSMHeader', encodeBlob(encodeHeaderBlock({})))), { format: 'pbf' });
});

test('recognises plain XML with or without declaration, BOM and leading whitespace', () => {
  for (const text of ['<?xml version="1.0"?><osm/>', '<osm version="0.6"/>', '\ufeff\n  <?xml version="1.0"?>']) {
    assert.deepStrictEqual(detect(bytes(text)), { format: 'xml', compression: 'none' }, JSON.stringify(text));
  }
});

test('recognises gzip and bzip2 by their magic numbers', () => {
  assert.deepStrictEqual(detect(Uint8Array.from([0x1f, 0x8b, 8, 0])), { format: 'xml', compression: 'gzip' });
  assert.deepStrictEqual(detect(bytes('BZh91AY&SY')), { format: 'xml', compression: 'bzip2' });
});

test('rejects everything else as INPUT_NOT_OSM', () => {
  for (const head of [bytes('{"a":1}'), bytes('PK\u0003\u0004'), bytes('hello'), frame('OSMData', encodeBlob(new Uint8Array(4)))]) {
    assert.throws(
      () => detect(head),
      (e) => isMaphistError(e) && e.code === 'INPUT_NOT_OSM',
    );
  }
});

test('a PBF cut inside its first blob header is INPUT_TRUNCATED', () => {
  const head = frame('OSMHeader', encodeBlob(encodeHeaderBlock({}))).subarray(0, 9);
  assert.throws(
    () => detect(head),
    (e) => isMaphistError(e) && e.code === 'INPUT_TRUNCATED',
  );
});
