/**
 * The dashboard's query model: the endpoints it offers exist in the v1 route table (and take the
 * parameters it sends), permalinks round-trip, answers become tables, filter errors are located.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { acceptedParameters, V1_ROUTES } from '../api/v1/params/route-parameters.js';
import {
  apiPath,
  curlCommand,
  ENDPOINTS,
  extraParameters,
  filterErrorPosition,
  offsetOf,
  parseBboxes,
  partsOf,
  permalinkSearch,
  type Query,
  queryOfSearch,
  tableOf,
  timeFormOf,
  timeOfForm,
} from './query.js';

describe('dashboard query model', () => {
  it('offers only v1 routes that exist, and every one of the listed families with its groupings', () => {
    const paths = new Set(V1_ROUTES.map((r) => r.path));
    for (const e of ENDPOINTS) assert.ok(paths.has(`/${e}`), e);
    // Every non-ratio aggregation route of the families the dashboard covers, but the boundary-and-tag pairs.
    const covered = V1_ROUTES.filter(
      (r) =>
        /^\/(elements\/(count|length|area|perimeter)|users\/count|contributions\/count|contributions\/latest\/count)(\/|$)/.test(r.path) &&
        !r.ratio &&
        !r.path.includes('/groupBy/boundary/groupBy/tag') &&
        // one series per element is a table to download, not a chart
        !r.path.endsWith('/groupBy/element'),
    ).map((r) => r.path.slice(1));
    assert.deepEqual([...ENDPOINTS].sort(), covered.sort());
  });

  it('sends each endpoint only parameters its route accepts', () => {
    for (const e of ENDPOINTS) {
      const accepted = acceptedParameters(`/${e}`);
      for (const p of ['bboxes', 'bpolys', 'bcircles', 'time', 'filter', ...extraParameters(e)]) assert.ok(accepted.includes(p), `${e} ${p}`);
    }
  });

  it('permalinks round-trip: page URL → query → page URL', () => {
    const endpoint = fc.constantFrom(...ENDPOINTS);
    const text = fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.trim() === s && s !== '');
    fc.assert(
      fc.property(endpoint, text, text, text, fc.option(text, { nil: undefined }), (e, bboxes, time, filter, key) => {
        const q: Query = { endpoint: e, params: { bboxes, time, filter, ...(key ? { groupByKey: key } : {}) } };
        const back = queryOfSearch(permalinkSearch(q))!;
        assert.equal(back.endpoint, e);
        assert.equal(permalinkSearch(back), permalinkSearch(q));
        assert.equal(apiPath(back), apiPath(q));
      }),
    );
  });

  it('spells the API URL with v1 parameter names, leaving out what the endpoint does not take', () => {
    const q: Query = {
      endpoint: 'elements/count/groupBy/tag',
      params: { bboxes: '1,2,3,4', time: '2010-01-01/2012-01-01/P1Y', filter: 'highway=*', groupByKey: 'highway', contributionType: 'creation', bpolys: '' },
    };
    assert.equal(apiPath(q), '/v1/elements/count/groupBy/tag?bboxes=1%2C2%2C3%2C4&time=2010-01-01%2F2012-01-01%2FP1Y&filter=highway%3D*&groupByKey=highway');
    assert.equal(apiPath(q, 'csv'), `${apiPath(q)}&format=csv`);
    assert.equal(permalinkSearch(q), `endpoint=elements%2Fcount%2FgroupBy%2Ftag&${apiPath(q).split('?')[1]}`);
    assert.equal(queryOfSearch('endpoint=elements/nothing'), undefined);
    assert.equal(queryOfSearch('endpoint=/v1/users/count')?.endpoint, 'users/count');
  });

  it('quotes the curl command for the shell', () => {
    const c = curlCommand('http://h:1', { endpoint: 'users/count', params: { filter: "name='x'" } });
    assert.equal(c, `curl -sS 'http://h:1/v1/users/count' \\\n  --data-urlencode 'filter=name='\\''x'\\'''`);
  });

  it('reads a time parameter into the form and back', () => {
    assert.deepEqual(timeFormOf('2010-01-01/2015-01-01/P1M'), { mode: 'range', start: '2010-01-01', end: '2015-01-01', interval: 'P1M' });
    assert.deepEqual(timeFormOf('2010-01-01,2011-01-01'), { mode: 'list', list: '2010-01-01,2011-01-01' });
    assert.deepEqual(timeFormOf('2014-01-01'), { mode: 'list', list: '2014-01-01' });
    for (const t of ['2010-01-01/2015-01-01/P1M', '2010-01-01/2015-01-01', '2010-01-01,2011-01-01', '2014-01-01']) assert.equal(timeOfForm(timeFormOf(t)), t);
  });

  it('turns answers into one table: plain, grouped, and interval answers', () => {
    const plain = tableOf({ result: [{ timestamp: '2010-01-01T00:00:00Z', value: 3 }] });
    assert.deepEqual(plain, { interval: false, timestamps: ['2010-01-01T00:00:00Z'], ends: [''], columns: [{ name: 'value', values: [3] }] });
    const grouped = tableOf({
      groupByResult: [
        {
          groupByObject: 'way',
          result: [
            { fromTimestamp: 'a', toTimestamp: 'b', value: 1 },
            { fromTimestamp: 'b', toTimestamp: 'c', value: 2 },
          ],
        },
        { groupByObject: ['x', 'highway=primary'], result: [{ fromTimestamp: 'b', toTimestamp: 'c', value: 'NaN' }] },
      ],
    });
    assert.deepEqual(grouped, {
      interval: true,
      timestamps: ['a', 'b'],
      ends: ['b', 'c'],
      columns: [
        { name: 'way', values: [1, 2] },
        { name: 'x · highway=primary', values: [null, null] },
      ],
    });
  });

  it('locates filter errors from the validation message', () => {
    const text = 'type:way and\n(highway=*';
    const pos = filterErrorPosition('line 2, column 11: expected `)`')!;
    assert.deepEqual(pos, { line: 2, column: 11 });
    assert.equal(offsetOf(text, pos), text.length);
    assert.equal(offsetOf('abc', { line: 1, column: 2 }), 1);
    assert.equal(filterErrorPosition('something else'), undefined);
  });

  it('reads bboxes with and without ids, skipping what it cannot read', () => {
    assert.deepEqual(parseBboxes('a:1,2,3,4|5,6,7,8|x'), [
      { id: 'a', box: [1, 2, 3, 4] },
      { id: undefined, box: [5, 6, 7, 8] },
    ]);
    assert.equal(partsOf('elements/area/density/groupBy/type')?.measure, 'elements/area');
  });
});
