import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fuzzyScore, suggestParameters, unknownParameterMessage } from './fuzzy-suggestion.js';
import { acceptedParameters } from './route-parameters.js';

test('FuzzyScore as in commons-text', () => {
  assert.equal(fuzzyScore('', ''), 0);
  assert.equal(fuzzyScore('Workshop', 'b'), 0);
  assert.equal(fuzzyScore('Room', 'o'), 1);
  assert.equal(fuzzyScore('Workshop', 'w'), 1);
  assert.equal(fuzzyScore('Workshop', 'ws'), 2);
  assert.equal(fuzzyScore('Workshop', 'wo'), 4);
  assert.equal(fuzzyScore('Apache Software Foundation', 'asf'), 3);
  assert.equal(fuzzyScore('showMetadata', 'metadata'), 22);
  assert.equal(fuzzyScore('timeout', 'metadata'), 5);
});

const table: [string, string, string][] = [
  ['/elements/area', 'filterr', "Unknown parameter 'filterr' for this resource. Did you mean 'filter'?"],
  ['/elements/count/density', 'filter2', "Unknown parameter 'filter2' for this resource. Did you mean 'filter'?"],
  ['/elements/count/groupBy/tag', 'groupByKe', "Unknown parameter 'groupByKe' for this resource. Did you mean 'groupByKey' or 'groupByValues'?"],
  ['/elements/perimeter/groupBy/key', 'tim', "Unknown parameter 'tim' for this resource. Did you mean 'time' or 'timeout'?"],
  ['/elements/count/groupBy/tag', 'metadata', "Unknown parameter 'metadata' for this resource. Did you mean 'showMetadata' or 'timeout'?"],
  ['/elements/count/ratio', 'properties', "Unknown parameter 'properties' for this resource."],
  ['/elements/geometry', 'format', "Unknown parameter 'format' for this resource."],
  ['/elements/count', 'bbox', "Unknown parameter 'bbox' for this resource. Did you mean 'bboxes'?"],
];

for (const [path, name, message] of table) {
  test(`suggestion for ${name} on ${path}`, () => {
    assert.equal(unknownParameterMessage(name, acceptedParameters(path)), message);
  });
}

test('equal scores and equal length distance: the later accepted name first', () => {
  // 'ab' scores 4+… equally in both; same length distance.
  assert.deepEqual(suggestParameters('abcd', ['abcdx', 'abcdy']), ['abcdy', 'abcdx']);
  assert.deepEqual(suggestParameters('abcd', ['abcdxx', 'abcdy']), ['abcdy', 'abcdxx']);
  assert.deepEqual(suggestParameters('abcd', ['abcdy', 'abcdxx', 'abcdzzz']), ['abcdxx', 'abcdzzz']);
});
