/**
 * Dashboard benchmark (`npm run bench:dashboard`): in chromium (playwright-core) against a real
 * `maphist serve` over the Andorra sample, first paint and time to chart of a permalink with a
 * yearly and a monthly series, from the browser's performance timeline (`first-contentful-paint`,
 * and the page's `maphist:chart` mark, set once the chart and table are drawn); each the median of
 * RUNS fresh pages (no cache). Then the gzipped size of the dashboard's assets as sent. Prints
 * everything and rewrites the `dashboard.bench` section of bench/RESULTS.md.
 */
import { readdirSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_DASHBOARD_DIR } from '../src/api/dashboard/plugin.js';
import { launchChromium, serveAndorra } from '../src/testing/browser/browser.js';
import { machineDescription, median, replaceResultsSection } from './support.js';

const RUNS = 7;
const BBOX = '1.4,42.4,1.8,42.7';
const SERIES = [
  { label: 'yearly, 2008–2017 (10 timestamps), type:way and building=*', time: '2008-01-01/2017-01-01/P1Y' },
  { label: 'monthly, 2008–2017 (109 timestamps), type:way and building=*', time: '2008-01-01/2017-01-01/P1M' },
];

const loadBefore = loadavg()[0]!;
const andorra = await serveAndorra();
const browser = await launchChromium();
const rows: string[] = [];
try {
  for (const s of SERIES) {
    const search = new URLSearchParams({ endpoint: 'elements/count', bboxes: BBOX, time: s.time, filter: 'type:way and building=*' });
    const paints: number[] = [];
    const charts: number[] = [];
    const apis: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${andorra.server.url}/?${search}`);
      await page.waitForFunction(() => document.body.dataset.state === 'done', null, { timeout: 60_000 });
      const t = await page.evaluate(() => ({
        paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
        chart: performance.getEntriesByName('maphist:chart')[0]?.startTime ?? Number.NaN,
        api: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((e) => e.name.includes('/v1/elements/'))?.duration ?? Number.NaN,
      }));
      apis.push(t.api);
      paints.push(t.paint);
      charts.push(t.chart);
      await context.close();
    }
    const row = `| ${s.label} | ${median(paints).toFixed(0)} | ${median(charts).toFixed(0)} | ${Math.min(...charts).toFixed(0)}–${Math.max(...charts).toFixed(0)} | ${median(apis).toFixed(0)} |`;
    console.log(row);
    rows.push(row);
  }
} finally {
  await browser.close();
  await andorra.close();
}

const assets = join(DEFAULT_DASHBOARD_DIR, 'assets');
let raw = 0;
let sent = 0;
const sizes: string[] = [];
for (const name of readdirSync(assets).sort()) {
  if (name.endsWith('.gz') || name.endsWith('.br')) continue;
  const size = statSync(join(assets, name)).size;
  const gz = readdirSync(assets).includes(`${name}.gz`) ? statSync(join(assets, `${name}.gz`)).size : size;
  const br = readdirSync(assets).includes(`${name}.br`) ? statSync(join(assets, `${name}.br`)).size : size;
  raw += size;
  sent += gz;
  sizes.push(`| ${name} | ${size} | ${gz} | ${br} |`);
}
const html = statSync(join(DEFAULT_DASHBOARD_DIR, 'index.html')).size;
console.log(`assets: ${raw} bytes, ${sent} gzipped; index.html ${html} bytes`);

replaceResultsSection(
  'dashboard.bench',
  `## Dashboard (\`npm run bench:dashboard\`)

${machineDescription()}, ${new Date().toISOString().slice(11, 16)} UTC; load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after. Chromium (headless, Debian's) against \`maphist serve\` over the
Andorra sample, a permalink of \`elements/count\` in bbox ${BBOX}; milliseconds from navigation start, medians of ${RUNS}
fresh pages. First paint: \`first-contentful-paint\`; time to chart: the page's \`maphist:chart\` mark (answer received,
chart and table drawn); the API request: its resource timing (request sent to answer read).

| series | first paint (ms) | time to chart (ms) | time to chart, range (ms) | of which the API request (ms) |
|---|---|---|---|---|
${rows.join('\n')}

Assets (dist/dashboard/assets; the page itself, index.html, is ${html} bytes): ${(raw / 1024).toFixed(0)} KiB, **${(sent / 1024).toFixed(0)} KiB gzipped** (aim: under 300 KB).

| asset | bytes | gzip | brotli |
|---|---|---|---|
${sizes.join('\n')}
`,
);
