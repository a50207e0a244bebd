import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseGrouping } from './group-by.js';
import { MSG } from './messages.js';
import { findV1Route } from './route-parameters.js';
import { throwsCode } from './test-support.js';

const g = (path: string, params: Record<string, string> = {}) => parseGrouping(findV1Route(path)!, new Map(Object.entries(params)));

test('groupings by route', () => {
  assert.deepEqual(g('/elements/count'), { by: 'none' });
  assert.deepEqual(g('/elements/count/density/groupBy/boundary'), { by: 'boundary' });
  assert.deepEqual(g('/users/count/groupBy/type'), { by: 'type' });
  assert.deepEqual(g('/elements/length/groupBy/key', { groupByKeys: 'highway, railway,,highway' }), { by: 'key', keys: ['highway', 'railway'] });
  assert.deepEqual(g('/elements/count/groupBy/tag', { groupByKey: ' building ' }), { by: 'tag', key: 'building' });
  assert.deepEqual(g('/elements/count/groupBy/boundary/groupBy/tag', { groupByKey: 'natural', groupByValues: 'tree, water body ,' }), {
    by: 'boundaryAndTag',
    key: 'natural',
    values: ['tree', 'water body'],
  });
  assert.deepEqual(g('/elements/count/groupBy/tag', { groupByKey: 'building', groupByValues: '' }), { by: 'tag', key: 'building' });
});

test('groupBy messages', () => {
  throwsCode(() => g('/elements/count/groupBy/key'), 'PARAM_INVALID', MSG.GROUP_BY_KEYS);
  throwsCode(() => g('/elements/count/groupBy/key', { groupByKeys: ' , ' }), 'PARAM_INVALID', MSG.GROUP_BY_KEYS);
  throwsCode(() => g('/elements/count/groupBy/tag'), 'PARAM_INVALID', MSG.GROUP_BY_KEY);
  throwsCode(() => g('/users/count/groupBy/tag', { groupByKey: 'a,b' }), 'PARAM_INVALID', MSG.GROUP_BY_KEY);
});
