import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkRequest } from './check-request.js';
import { MSG } from './messages.js';
import { throwsCode } from './test-support.js';

test('parameters come back by name', () => {
  const p = checkRequest('/elements/count', [
    ['bboxes', '1,2,3,4'],
    ['time', '2015-01-01'],
  ]);
  assert.equal(p.get('bboxes'), '1,2,3,4');
  assert.equal(p.get('time'), '2015-01-01');
});

test('content type: forms and JSON only, checked first', () => {
  throwsCode(() => checkRequest('/elements/count', [], 'text/plain'), 'CONTENT_TYPE_UNSUPPORTED', MSG.CONTENT_TYPE);
  throwsCode(() => checkRequest('/elements/count', [], 'application/geo+json'), 'CONTENT_TYPE_UNSUPPORTED', MSG.CONTENT_TYPE);
  checkRequest('/elements/count', [['bboxes', 'x']], 'application/json');
  checkRequest('/elements/count', [['bboxes', 'x']], 'Application/JSON; charset=utf-8');
  checkRequest('/elements/count', [['bboxes', 'x']], 'application/x-www-form-urlencoded; charset=UTF-8');
  checkRequest('/elements/count', [['bboxes', 'x']], 'multipart/form-data; boundary=abc');
  checkRequest('/elements/count', [['bboxes', 'x']], 'Application/X-WWW-Form-Urlencoded');
});

test('no parameters', () => {
  throwsCode(() => checkRequest('/elements/perimeter', []), 'PARAM_NONE', MSG.NO_PARAMS);
});

test('the first unknown parameter in request order is named', () => {
  throwsCode(
    () =>
      checkRequest('/elements/count', [
        ['bboxes', 'x'],
        ['bbox', 'y'],
        ['filterr', 'z'],
      ]),
    'PARAM_UNKNOWN',
    "Unknown parameter 'bbox' for this resource. Did you mean 'bboxes'?",
  );
  // Unknown is checked before duplicates.
  throwsCode(
    () =>
      checkRequest('/elements/count', [
        ['filter', 'a'],
        ['filter', 'b'],
        ['x', ''],
      ]),
    'PARAM_UNKNOWN',
  );
  // Names are case-sensitive.
  throwsCode(() => checkRequest('/elements/count', [['Bboxes', 'x']]), 'PARAM_UNKNOWN');
});

test('duplicates name the parameter (first by first appearance)', () => {
  throwsCode(
    () =>
      checkRequest('/elements/count', [
        ['filter', 'a'],
        ['bboxes', 'x'],
        ['bboxes', 'y'],
        ['filter', 'b'],
      ]),
    'PARAM_DUPLICATE',
    "Every parameter has to be unique. You can't give more than one 'filter' parameter.",
  );
});

test('metadata takes no parameters', () => {
  assert.equal(checkRequest('/metadata', []).size, 0);
  throwsCode(() => checkRequest('/metadata', [['groupByKey', 'highway']]), 'PARAM_UNKNOWN', MSG.METADATA_NO_PARAMS);
});
