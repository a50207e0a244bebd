/**
 * No input gives a 500: fuzzed and mutated boundaries, times, filters and groupBy values on every
 * aggregation route (fast-check). And the time limit: a tiny `timeout` on a heavy request answers
 * 413 with the reference message, and the engine's work really stops.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { createDuckDbQueryEngine } from '../../engines/duckdb/engine.js';
import type { QueryEngine } from '../../query/model.js';
import { importToTemp, type ImportedDb } from '../../store/test-support.js';
import { createDuckDbServer as createServer } from '../../testing/server.js';
import { QUERY_TIMEOUT_MESSAGE } from './error-status.js';
import { ATTRIBUTION } from '../attribution.js';
import { AGGREGATION_ROUTES } from './route-table.js';

const WHOLE = '1.412368,42.4276,1.787481,42.65717';

/** Engine calls that are still running, and how long each took to settle after it started. */
interface Tracker {
  running: number;
  settled: { ms: number; rejected: boolean }[];
}

function trackingEngine(engine: QueryEngine, tracker: Tracker): QueryEngine {
  const wrap =
    <Q, R>(f: (q: Q) => Promise<R>) =>
    (q: Q): Promise<R> => {
      const started = performance.now();
      tracker.running++;
      const p = f.call(engine, q);
      p.then(
        () => tracker.settled.push({ ms: performance.now() - started, rejected: false }),
        () => tracker.settled.push({ ms: performance.now() - started, rejected: true }),
      ).finally(() => tracker.running--);
      return p;
    };
  return {
    aggregateSnapshots: wrap(engine.aggregateSnapshots),
    ratio: wrap(engine.ratio),
    countUsers: wrap(engine.countUsers),
    countContributions: wrap(engine.countContributions),
    countLatestContributions: wrap(engine.countLatestContributions),
  };
}

const coord = fc.oneof(
  fc.double({ min: 1.41, max: 1.79, noNaN: true }).map((x) => x.toFixed(5)),
  fc.double({ noNaN: false }).map(String),
  fc.constantFrom('', ' ', 'x', '1e400', '-0', '42.5e0', 'NaN', 'Infinity', '1,5'),
);
const bboxes = fc.oneof(
  fc.tuple(coord, coord, coord, coord).map((t) => t.join(',')),
  fc
    .array(fc.tuple(fc.option(fc.string({ maxLength: 4 })), fc.tuple(coord, coord, coord, coord)), { minLength: 1, maxLength: 3 })
    .map((objs) => objs.map(([id, t]) => (id === null ? '' : `${id}:`) + t.join(',')).join('|')),
);
const bpolys = fc.oneof(
  fc.array(coord, { minLength: 0, maxLength: 12 }).map((xs) => xs.join(',')),
  fc.constantFrom(
    '{"type":"FeatureCollection","features":[]}',
    '{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[1.5,42.5],[1.5,42.5],[1.5,42.5],[1.5,42.5]]]}}]}',
    '{"type":"FeatureCollection","features":[{"type":"Feature","id":{"a":1},"geometry":{"type":"Polygon","coordinates":[[[1.5,42.5],[1.6,42.5],[1.55,42.6],[1.5,42.5]]]}}]}',
    '{"features":[{"geometry":{"type":"MultiPolygon","coordinates":[[[]]]}}]}',
    '{"features":',
    '{',
  ),
  fc.json(),
);
const bcircles = fc.tuple(coord, coord, fc.oneof(coord, fc.constantFrom('0', '-5', '1e9', '100'))).map((t) => t.join(','));
const validTimes = fc.constantFrom('2010-01-01', '2008-01-01/2016-01-01/P1Y', '2012-01-01,2013-01-01', '/', '//P5Y', '2016-01-01/', '2014');
const mutate = (s: fc.Arbitrary<string>) =>
  fc.tuple(s, fc.nat(20), fc.string({ maxLength: 3 })).map(([v, i, ins]) => v.slice(0, i % (v.length + 1)) + ins + v.slice(i % (v.length + 1)));
const time = fc.oneof(validTimes, mutate(validTimes), fc.string({ maxLength: 12 }));
const validFilters = fc.constantFrom(
  'building=*',
  'type:way and highway in (residential, track)',
  'not name=* or geometry:polygon',
  'id:(1..100)',
  'changeset:5',
  'area:(10..)',
);
const filter = fc.oneof(validFilters, mutate(validFilters), fc.string({ maxLength: 20 }));
const word = fc.oneof(fc.constantFrom('building', 'highway', 'name', 'yes', 'residential'), fc.string({ maxLength: 8 }));

const paramsArb = fc.record(
  {
    bboxes,
    bpolys,
    bcircles,
    time,
    filter,
    filter2: filter,
    groupByKey: word,
    groupByValues: fc.array(word, { maxLength: 3 }).map((w) => w.join(',')),
    groupByKeys: fc.array(word, { maxLength: 3 }).map((w) => w.join(',')),
    format: fc.constantFrom('json', 'csv', 'geojson', 'CSV', 'xml', ''),
    showMetadata: fc.constantFrom('true', 'no', 'YES', 'maybe'),
    contributionType: fc.constantFrom('creation', 'tagChange,geometryChange', 'deletion', 'bogus', ''),
    types: fc.constantFrom('way', 'node,polygon', 'point,line'),
  },
  { requiredKeys: [] },
);

describe('v1 robustness', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  const tracker: Tracker = { running: 0, settled: [] };
  before(async () => {
    db = await importToTemp(join(process.cwd(), 'sample', 'andorra.osh.pbf'));
    const engine = trackingEngine(await createDuckDbQueryEngine(db.store), tracker);
    app = await createServer(db.store, { timeoutSeconds: 30, engine });
  });
  after(async () => {
    await app.close();
    db.dispose();
  });

  it('never answers 500 to fuzzed parameters', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...AGGREGATION_ROUTES), paramsArb, fc.boolean(), async (route, params, post) => {
        const pairs = Object.entries(params).filter(([, v]) => v !== undefined) as [string, string][];
        pairs.push(['timeout', '5']);
        const body = new URLSearchParams(pairs).toString();
        const res = post
          ? await app.inject({ method: 'POST', url: `/v1${route.path}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: body })
          : await app.inject({ method: 'GET', url: `/v1${route.path}?${body}` });
        assert.notEqual(res.statusCode, 500, `${route.path} ${body}\n${res.body}`);
        assert.ok([200, 400, 404, 413].includes(res.statusCode), `${res.statusCode} ${route.path} ${body}`);
        if (res.statusCode !== 200) assert.equal(typeof JSON.parse(res.body).message, 'string');
      }),
      { numRuns: 200 },
    );
  });

  it('answers 413 to a heavy request with a tiny timeout, and the engine stops', async () => {
    tracker.settled.length = 0;
    const started = performance.now();
    const res = await app.inject({
      method: 'GET',
      url: `/v1/users/count/groupBy/tag?bboxes=${WHOLE}&time=2006-04-01/2017-02-01/P1D&groupByKey=highway&timeout=0.05`,
    });
    const answered = performance.now() - started;
    assert.equal(res.statusCode, 413);
    const body = JSON.parse(res.body);
    assert.equal(body.status, 413);
    assert.equal(body.message, QUERY_TIMEOUT_MESSAGE);
    assert.deepEqual(body.attribution, ATTRIBUTION);
    assert.ok(answered < 5000, `answered after ${answered} ms`);
    // The engine's call must end soon after the limit (it is cancelled, not left running).
    const deadline = Date.now() + 5000;
    while (tracker.running > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(tracker.running, 0, 'engine work still running 5 s after the timeout');
    assert.equal(tracker.settled.at(-1)?.rejected, true);
  });

  it('answers an unexpected failure with the default 500 body', async () => {
    const failing: QueryEngine = {
      aggregateSnapshots: async () => {
        throw new Error('boom');
      },
      ratio: async () => ({ groups: [] }),
      countUsers: async () => ({ groups: [] }),
      countContributions: async () => ({ groups: [] }),
      countLatestContributions: async () => ({ groups: [] }),
    };
    const broken = await createServer(db.store, { engine: failing });
    try {
      const res = await broken.inject({ method: 'GET', url: `/v1/elements/count?bboxes=${WHOLE}` });
      assert.equal(res.statusCode, 500);
      const body = JSON.parse(res.body);
      assert.deepEqual(Object.keys(body), ['attribution', 'timestamp', 'status', 'error', 'path']);
      assert.equal(body.error, 'Internal Server Error');
      assert.equal(body.path, '/v1/elements/count');
    } finally {
      await broken.close();
    }
  });
});
