/**
 * The dashboard's static serving (plugin.ts) over the built dist/dashboard/: the page and every
 * asset it references, what a browser may cache, the compressed copies decompressing to the same
 * bytes, the basemap option, and 404s for what is not there.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { DEFAULT_DASHBOARD_DIR, dashboardPlugin } from './plugin.js';

async function appWith(options: Parameters<typeof dashboardPlugin>[1]): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(dashboardPlugin, options);
  await app.ready();
  return app;
}

describe('dashboard static serving', () => {
  let app: FastifyInstance;
  before(async () => (app = await appWith({})));
  after(() => app.close());

  it('answers / with the page, an ETag and no-cache; a matching If-None-Match gets 304', async () => {
    const r = await app.inject({ url: '/' });
    assert.equal(r.statusCode, 200);
    assert.match(String(r.headers['content-type']), /^text\/html/);
    assert.equal(r.headers['cache-control'], 'no-cache');
    assert.match(r.body, /<form id="query-form"/);
    assert.match(r.body, /data-basemap-url=""/, 'no basemap by default');
    const etag = String(r.headers.etag);
    const again = await app.inject({ url: '/', headers: { 'if-none-match': etag } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
  });

  it('serves every asset the page and its style sheet reference, immutable, nothing from another host', async () => {
    const page = (await app.inject({ url: '/' })).body;
    const refs = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((u) => !u.startsWith('data:'));
    assert.ok(!refs.some((u) => /^(https?:)?\/\//.test(u)), `external references: ${refs.join(' ')}`);
    const scripts = refs.filter((u) => u.startsWith('/dashboard/assets/'));
    assert.equal(scripts.length, 2, 'one script and one style sheet');
    const css = scripts.find((u) => u.endsWith('.css'))!;
    const cssText = (await app.inject({ url: css, headers: { 'accept-encoding': 'identity' } })).body;
    const images = [...cssText.matchAll(/url\(["']?([^)"']+)["']?\)/g)].map((m) => m[1]!).filter((u) => !u.startsWith('data:'));
    assert.ok(images.length > 0, 'the style sheet references images (Leaflet, the drawing toolbar)');
    for (const u of [...scripts, ...images.map((i) => new URL(i, `http://x${css}`).pathname)]) {
      const r = await app.inject({ url: u, headers: { 'accept-encoding': 'identity' } });
      assert.equal(r.statusCode, 200, u);
      assert.equal(r.headers['cache-control'], 'public, max-age=31536000, immutable', u);
      assert.ok(r.rawPayload.length > 0, u);
    }
    // No absolute URL to another host in the bundle's code paths that load resources.
    const js = (await app.inject({ url: scripts.find((u) => u.endsWith('.js'))!, headers: { 'accept-encoding': 'identity' } })).body;
    assert.doesNotMatch(js, /fetch\(\s*["'`]https?:/);
  });

  it('sends the brotli or gzip copy the browser accepts, each decompressing to the same bytes', async () => {
    const page = (await app.inject({ url: '/' })).body;
    const js = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(page)![1]!;
    const plain = await app.inject({ url: js, headers: { 'accept-encoding': 'identity' } });
    assert.equal(plain.headers['content-encoding'], undefined);
    const br = await app.inject({ url: js, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.headers.vary, 'accept-encoding');
    assert.deepEqual(brotliDecompressSync(br.rawPayload), plain.rawPayload);
    const gz = await app.inject({ url: js, headers: { 'accept-encoding': 'gzip' } });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(gz.rawPayload), plain.rawPayload);
    const refused = await app.inject({ url: js, headers: { 'accept-encoding': 'br;q=0, gzip' } });
    assert.equal(refused.headers['content-encoding'], 'gzip');
    assert.ok(br.rawPayload.length < plain.rawPayload.length / 2);
  });

  it('answers 404 for an asset that is not in the build', async () => {
    assert.equal((await app.inject({ url: '/dashboard/assets/nothing-here.js' })).statusCode, 404);
    assert.equal((await app.inject({ url: '/dashboard/assets/..%2Findex.html' })).statusCode, 404);
  });

  it('writes the basemap option into the page, escaped', async () => {
    const other = await appWith({ basemapUrl: 'https://tiles.example/{z}/{x}/{y}.png?a=1&b="2"' });
    try {
      const body = (await other.inject({ url: '/' })).body;
      assert.match(body, /data-basemap-url="https:\/\/tiles\.example\/\{z\}\/\{x\}\/\{y\}\.png\?a=1&amp;b=&quot;2&quot;"/);
    } finally {
      await other.close();
    }
  });

  it('the build holds the assets only once each with their compressed copies (scripts, styles, svg)', () => {
    const files = readdirSync(join(DEFAULT_DASHBOARD_DIR, 'assets'));
    for (const f of files.filter((n) => /\.(js|css|svg)$/.test(n))) {
      assert.ok(files.includes(`${f}.gz`) && files.includes(`${f}.br`), f);
      assert.deepEqual(gunzipSync(readFileSync(join(DEFAULT_DASHBOARD_DIR, 'assets', `${f}.gz`))), readFileSync(join(DEFAULT_DASHBOARD_DIR, 'assets', f)));
    }
  });

  it('without a build, registers nothing: / is a 404 and the server still starts', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'maphist-dash-'));
    const bare = await appWith({ dir: empty });
    try {
      assert.equal((await bare.inject({ url: '/' })).statusCode, 404);
    } finally {
      await bare.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
