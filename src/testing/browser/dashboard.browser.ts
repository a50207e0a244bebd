/**
 * The dashboard in a real browser (chromium, playwright-core) against a real `maphist serve` over
 * the Andorra sample; the oracle is the v1 API itself, asked directly by this process. Run by
 * `npm run test:browser` (scripts/run-browser-tests.mjs), not by `npm test` (no chromium needed there).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { apiPath, queryOfSearch } from '../../dashboard/query.js';
import { type AndorraServer, launchChromium, serveAndorra } from './browser.js';

const BBOX = '1.4,42.4,1.8,42.7';

/** A 240-gon around Andorra la Vella as GeoJSON: a bpolys parameter too long for the page's GET (it POSTs). */
const CIRCLE = JSON.stringify({
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      id: 'circle',
      properties: {},
      geometry: {
        type: 'Polygon',
        coordinates: [
          Array.from({ length: 241 }, (_, i) => {
            const a = ((i % 240) / 240) * 2 * Math.PI;
            return [Number((1.52 + 0.05 * Math.cos(a)).toFixed(6)), Number((42.51 + 0.04 * Math.sin(a)).toFixed(6))];
          }),
        ],
      },
    },
  ],
});

describe('dashboard in a browser', () => {
  let andorra: AndorraServer;
  let browser: Browser;
  let base: string;
  before(async () => {
    andorra = await serveAndorra();
    base = andorra.server.url;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await andorra?.close();
  });

  /** A page that records every request it makes and fails the test on a script error. */
  async function open(path: string): Promise<{ page: Page; requests: string[]; errors: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${base}${path}`);
    await page.waitForSelector('body[data-ready]');
    return { page, requests, errors };
  }

  async function waitDone(page: Page): Promise<string> {
    await page.waitForFunction(() => ['done', 'error', 'cancelled'].includes(document.body.dataset.state ?? ''), null, { timeout: 60_000 });
    return page.evaluate(() => document.body.dataset.state!);
  }

  async function tableOfPage(page: Page): Promise<string[][]> {
    return page.$$eval('#result-table tr', (rows) => rows.map((r) => Array.from(r.children, (c) => c.textContent ?? '')));
  }

  /** The API's answer as the table the page should show: header row, then a row per timestamp. */
  async function expectedTable(search: string): Promise<string[][]> {
    const q = queryOfSearch(search)!;
    const answer = (await (await fetch(`${base}${apiPath(q)}`)).json()) as {
      result?: { timestamp?: string; fromTimestamp?: string; toTimestamp?: string; value: number }[];
      groupByResult?: { groupByObject: string; result: { timestamp?: string; fromTimestamp?: string; toTimestamp?: string; value: number }[] }[];
    };
    const groups = answer.groupByResult ?? [{ groupByObject: 'value', result: answer.result! }];
    const interval = groups[0]!.result[0]!.fromTimestamp !== undefined;
    const head = [...(interval ? ['fromTimestamp', 'toTimestamp'] : ['timestamp']), ...groups.map((g) => String(g.groupByObject))];
    const rows = groups[0]!.result.map((p, i) => [
      ...(interval ? [p.fromTimestamp!, p.toTimestamp!] : [p.timestamp!]),
      ...groups.map((g) => String(g.result[i]!.value)),
    ]);
    return [head, ...rows];
  }

  for (const search of [
    `endpoint=elements/count/groupBy/type&bboxes=${BBOX}&time=2010-01-01/2016-01-01/P1Y&filter=highway=*`,
    `endpoint=users/count&bboxes=${BBOX}&time=2012-01-01/2013-01-01/P1M&filter=building=*`,
    `endpoint=elements/length/density&bpolys=1.5,42.5,1.6,42.5,1.6,42.6,1.5,42.5&time=2016-06-01,2017-01-01&filter=type:way and highway=primary`,
    `endpoint=elements/area/groupBy/boundary&bpolys=${encodeURIComponent(CIRCLE)}&time=2012-01-01/2016-01-01/P2Y&filter=building=*`,
  ]) {
    it(`a permalink runs its query and the table equals the API's answer: ${search.slice(0, 60)}…`, async () => {
      const { page, requests, errors } = await open(`/?${search}`);
      try {
        assert.equal(await waitDone(page), 'done', (await page.locator('#status').textContent()) ?? '');
        assert.deepEqual(await tableOfPage(page), await expectedTable(search));
        // One line per group in the chart.
        const q = queryOfSearch(search)!;
        const groups = q.endpoint.includes('groupBy/type') ? 3 : 1;
        if (apiPath(q).length > 4000) assert.ok(requests.includes(`${base}/v1/${q.endpoint}`), 'a long query is POSTed');
        assert.equal(await page.locator('#chart .u-legend .u-series').count(), 1 + groups);
        // Fully offline: nothing but this server was asked.
        assert.deepEqual(
          requests.filter((u) => !u.startsWith(base) && !u.startsWith('data:') && !u.startsWith('blob:')),
          [],
        );
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });
  }

  it('a query built through the form lands in the URL and the chart; hovering shows the values', async () => {
    const { page, errors } = await open('/');
    try {
      await page.selectOption('#measure', 'contributions/count');
      await page.check('#ct-creation');
      await page.fill('#filter', 'type:way and building=*');
      await page.selectOption('#area-kind', 'bboxes');
      await page.fill('#area', BBOX);
      await page.click('[data-preset="P1Y"]');
      await page.fill('#time-start', '2010-01-01');
      await page.fill('#time-end', '2016-01-01');
      await page.click('#run');
      assert.equal(await waitDone(page), 'done', (await page.locator('#status').textContent()) ?? '');
      const url = new URL(page.url());
      assert.deepEqual(Object.fromEntries(url.searchParams), {
        endpoint: 'contributions/count',
        bboxes: BBOX,
        time: '2010-01-01/2016-01-01/P1Y',
        filter: 'type:way and building=*',
        contributionType: 'creation',
      });
      const table = await tableOfPage(page);
      assert.deepEqual(table, await expectedTable(url.search));
      assert.equal(table.length, 1 + 6);
      // The chart: a canvas and a legend whose value follows the mouse.
      assert.equal(await page.locator('#chart canvas').count(), 1);
      const over = page.locator('#chart .u-over');
      const box = (await over.boundingBox())!;
      await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
      const shown = (await page.locator('#chart .u-legend .u-series').nth(1).locator('.u-value').textContent())!;
      assert.equal(Number(shown.replace(/,/g, '')), Number(table.at(-1)!.at(-1)), `legend shows ${shown}`);
      // The page's API URL and curl command are the query's.
      assert.equal(await page.locator('#api-url').getAttribute('href'), apiPath(queryOfSearch(url.search)!));
      assert.match((await page.locator('#curl').textContent())!, /^curl -sS '.*\/v1\/contributions\/count'/);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('a bad filter shows the error at its position as you type, and a run shows the API message in place', async () => {
    const { page } = await open('/');
    try {
      await page.fill('#filter', 'type:way and (highway=*');
      await page.waitForSelector('#filter-status.error');
      assert.match((await page.locator('#filter-status').textContent())!, /line 1, column 24/);
      assert.equal(await page.locator('#filter-mark').getAttribute('data-offset'), '23');
      await page.fill('#filter', 'highway=* andd building=*');
      await page.waitForFunction(() => document.querySelector('#filter-mark')?.getAttribute('data-offset') === '10');
      assert.equal(await page.locator('#filter-mark mark').textContent(), 'a');
      await page.click('#run');
      assert.equal(await waitDone(page), 'error');
      const api = (await (await fetch(`${base}${apiPath(queryOfSearch(new URL(page.url()).search)!)}`)).json()) as { message: string };
      assert.equal(await page.locator('#status').textContent(), api.message);
      await page.fill('#filter', 'highway=*');
      await page.waitForSelector('#filter-status.ok');
    } finally {
      await page.close();
    }
  });

  it('the downloads give the API answer: JSON as answered, CSV from format=csv', async () => {
    const search = `endpoint=elements/count/groupBy/type&bboxes=${BBOX}&time=2014-01-01/2016-01-01/P1Y&filter=building=*`;
    const { page } = await open(`/?${search}`);
    try {
      assert.equal(await waitDone(page), 'done');
      const q = queryOfSearch(search)!;
      const [json] = await Promise.all([page.waitForEvent('download'), page.click('#download-json')]);
      const apiJson = await (await fetch(`${base}${apiPath(q)}`)).json();
      assert.deepEqual(JSON.parse(readFileSync((await json.path())!, 'utf8')), apiJson);
      assert.equal(json.suggestedFilename(), 'maphist-elements-count-groupBy-type.json');
      const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#download-csv')]);
      const apiCsv = await (await fetch(`${base}${apiPath(q, 'csv')}`)).text();
      assert.equal(readFileSync((await csv.path())!, 'utf8'), apiCsv);
      assert.match(apiCsv, /^timestamp;node;way;relation$/m);
    } finally {
      await page.close();
    }
  });

  it('a running query shows its loading state and Cancel stops it', async () => {
    const { page } = await open('/');
    try {
      // Hold the answer back (the server answers; the browser just does not see it yet).
      await page.route('**/v1/elements/**', async (route) => {
        await new Promise((r) => setTimeout(r, 3000));
        await route.continue().catch(() => {});
      });
      await page.click('#run');
      await page.waitForSelector('#status.loading');
      assert.equal(await page.locator('#cancel').isVisible(), true);
      assert.equal(await page.locator('#run').isDisabled(), true);
      await page.click('#cancel');
      assert.equal(await waitDone(page), 'cancelled');
      assert.equal(await page.locator('#status').textContent(), 'cancelled');
      assert.equal(await page.locator('#cancel').isVisible(), false);
    } finally {
      await page.close();
    }
  });

  it('no basemap by default; a configured tile URL is what the map asks for', async () => {
    const tiles: string[] = [];
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      // The page as `maphist serve --basemap-url` writes it (the plugin's test checks that writing).
      await page.route(`${base}/`, async (route) => {
        const r = await route.fetch();
        const body = (await r.text()).replace('data-basemap-url=""', 'data-basemap-url="http://tiles.invalid/{z}/{x}/{y}.png"');
        await route.fulfill({ response: r, body });
      });
      await page.route('http://tiles.invalid/**', (route) => {
        tiles.push(route.request().url());
        return route.fulfill({ status: 404, body: '' });
      });
      await page.goto(`${base}/`);
      await page.waitForSelector('body[data-ready]');
      await page.waitForFunction(() => document.querySelectorAll('.leaflet-tile').length > 0);
      assert.ok(tiles.length > 0 && tiles.every((u) => /^http:\/\/tiles\.invalid\/\d+\/\d+\/\d+\.png$/.test(u)), tiles.join(' '));
    } finally {
      await page.close();
    }
    const plain = await open('/');
    try {
      assert.equal(await plain.page.locator('.leaflet-tile').count(), 0);
    } finally {
      await plain.page.close();
    }
  });

  it('GeoJSON pasted or dropped becomes bpolys; boxes become polygons when the area is switched to bpolys', async () => {
    const { page } = await open('/');
    try {
      await page.selectOption('#area-kind', 'bboxes');
      await page.fill('#area', `a:${BBOX}|b:1.5,42.5,1.6,42.6`);
      await page.selectOption('#area-kind', 'bpolys');
      const switched = JSON.parse(await page.inputValue('#area')) as { features: { id: string; geometry: { coordinates: number[][][] } }[] };
      assert.deepEqual(
        switched.features.map((f) => f.id),
        ['a', 'b'],
      );
      assert.deepEqual(switched.features[1]!.geometry.coordinates[0], [
        [1.5, 42.5],
        [1.6, 42.5],
        [1.6, 42.6],
        [1.5, 42.6],
        [1.5, 42.5],
      ]);
      // Pasted (typed) into the box while it says bboxes.
      await page.selectOption('#area-kind', 'bboxes');
      await page.fill('#area', CIRCLE);
      assert.equal(await page.inputValue('#area-kind'), 'bpolys');
      // Dropped as a file on the map.
      await page.selectOption('#area-kind', 'bboxes');
      await page.fill('#area', BBOX);
      const dataTransfer = await page.evaluateHandle((text) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], 'area.geojson', { type: 'application/geo+json' }));
        return dt;
      }, CIRCLE);
      await page.locator('#map').dispatchEvent('drop', { dataTransfer });
      await page.waitForFunction(() => (document.querySelector('#area') as HTMLTextAreaElement).value.startsWith('{'));
      assert.equal(await page.inputValue('#area-kind'), 'bpolys');
      assert.deepEqual(JSON.parse(await page.inputValue('#area')), JSON.parse(CIRCLE));
      await page.selectOption('#grouping', 'boundary');
      await page.click('#run');
      assert.equal(await waitDone(page), 'done', (await page.locator('#status').textContent()) ?? '');
      assert.equal((await tableOfPage(page))[0]!.at(-1), 'circle');
    } finally {
      await page.close();
    }
  });

  it('a rectangle drawn on the map becomes a bbox, a polygon turns the area into GeoJSON bpolys', async () => {
    const { page } = await open('/');
    try {
      await page.click('#area-clear');
      const map = (await page.locator('#map').boundingBox())!;
      await page.click('.leaflet-draw-draw-rectangle');
      await page.mouse.move(map.x + 100, map.y + 60);
      await page.mouse.down();
      await page.mouse.move(map.x + 180, map.y + 140, { steps: 5 });
      await page.mouse.up();
      const area = await page.inputValue('#area');
      const box = area.split(',').map(Number);
      assert.equal(box.length, 4, area);
      assert.ok(box[0]! < box[2]! && box[1]! < box[3]!, area);
      // (the map zooms to the new area first)
      await page.waitForTimeout(600);
      await page.click('.leaflet-draw-draw-polygon');
      for (const [x, y] of [
        [220, 60],
        [300, 60],
        [260, 140],
      ]) {
        await page.mouse.click(map.x + x!, map.y + y!);
        await page.waitForTimeout(400);
      }
      await page.click('.leaflet-draw-actions a[title="Finish drawing"]');
      assert.equal(await page.inputValue('#area-kind'), 'bpolys');
      const fc = JSON.parse(await page.inputValue('#area')) as { features: { geometry: { type: string } }[] };
      assert.deepEqual(
        fc.features.map((f) => f.geometry.type),
        ['Polygon', 'Polygon'],
      );
      // The area runs: the drawn polygons are a valid bpolys parameter.
      await page.click('#run');
      assert.equal(await waitDone(page), 'done', (await page.locator('#status').textContent()) ?? '');
    } finally {
      await page.close();
    }
  });
});
