/**
 * The dashboard's screenshots in docs/screenshots/ (`npm run screenshots`): chromium against a real
 * `maphist serve` over the Andorra sample, the main views opened through permalinks and the form.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../test-data.js';
import { launchChromium, serveAndorra } from './browser.js';

const OUT = join(REPO_ROOT, 'docs', 'screenshots');
const BBOX = '1.4,42.4,1.8,42.7';

const VIEWS: { file: string; search: string; then?: 'bad-filter' }[] = [
  {
    file: 'dashboard-groupby-type.png',
    search: `endpoint=elements/count/groupBy/type&bboxes=${BBOX}&time=2008-01-01/2017-01-01/P1Y&filter=highway=*`,
  },
  {
    file: 'dashboard-monthly-contributions.png',
    search: `endpoint=contributions/count&bboxes=${BBOX}&time=2012-01-01/2017-01-01/P1M&filter=type:way and building=*&contributionType=creation,tagChange`,
  },
  {
    file: 'dashboard-polygon-length.png',
    search: `endpoint=elements/length/groupBy/tag&bpolys=${encodeURIComponent(
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            id: 'valley',
            properties: {},
            geometry: {
              type: 'Polygon',
              coordinates: [
                [
                  [1.48, 42.48],
                  [1.6, 42.5],
                  [1.62, 42.58],
                  [1.5, 42.6],
                  [1.48, 42.48],
                ],
              ],
            },
          },
        ],
      }),
    )}&time=2010-01-01/2017-01-01/P1Y&filter=type:way&groupByKey=highway&groupByValues=primary,secondary,residential`,
  },
  { file: 'dashboard-filter-error.png', search: `endpoint=elements/count&bboxes=${BBOX}&time=2016-01-01&filter=highway=*`, then: 'bad-filter' },
];

mkdirSync(OUT, { recursive: true });
const andorra = await serveAndorra();
const browser = await launchChromium();
try {
  for (const v of VIEWS) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.goto(`${andorra.server.url}/?${v.search}`);
    await page.waitForFunction(() => document.body.dataset.state === 'done', null, { timeout: 60_000 });
    if (v.then === 'bad-filter') {
      await page.fill('#filter', 'type:way and (highway=* or building=*');
      await page.waitForSelector('#filter-status.error');
    }
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(OUT, v.file) });
    console.log(`wrote ${join(OUT, v.file)}`);
    await page.close();
  }
} finally {
  await browser.close();
  await andorra.close();
}
