/**
 * The dashboard at `/` (src/dashboard/client, built into dist/dashboard/ by
 * scripts/build-dashboard.mjs): the page and its assets, all served from this process (no CDN,
 * works offline). The page is answered with an ETag and `no-cache` (a new build is seen at once);
 * the assets are named by their content hash and may be kept for a year (`immutable`). Scripts and
 * styles are sent as the build's brotli or gzip copy when the browser accepts one. The page calls
 * the server's own v1 API and v2 filter validation. A basemap is off unless `basemapUrl` (a Leaflet
 * tile URL template, `maphist serve --basemap-url`) is given.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface DashboardOptions {
  /** The built dashboard (default: dist/dashboard beside the compiled server). */
  dir?: string;
  /** A tile URL template (`https://tile.example/{z}/{x}/{y}.png`); absent: no basemap. */
  basemapUrl?: string;
  /** The basemap's attribution (default `© OpenStreetMap contributors`). */
  basemapAttribution?: string;
}

/** dist/dashboard, from this file's place in dist/src/api/dashboard/. */
export const DEFAULT_DASHBOARD_DIR = fileURLToPath(new URL('../../../dashboard/', import.meta.url));

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

interface Asset {
  body: Buffer;
  gzip?: Buffer;
  br?: Buffer;
  type: string;
}

const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function dashboardPlugin(app: FastifyInstance, options: DashboardOptions): Promise<void> {
  const dir = options.dir ?? DEFAULT_DASHBOARD_DIR;
  const indexFile = join(dir, 'index.html');
  if (!existsSync(indexFile)) {
    // A tree compiled without `npm run build` (tsc alone): the APIs work, `/` stays a 404.
    app.log.warn(`the dashboard is not built (${indexFile} missing: run npm run build); / is not served`);
    return;
  }
  const html = readFileSync(indexFile, 'utf8')
    .replace('{{basemapUrl}}', escapeAttribute(options.basemapUrl ?? ''))
    .replace('{{basemapAttribution}}', escapeAttribute(options.basemapAttribution ?? ''));
  const page = Buffer.from(html);
  const pageTag = `"${createHash('sha256').update(page).digest('base64url').slice(0, 22)}"`;
  const assets = new Map<string, Asset>();
  const assetDir = join(dir, 'assets');
  const files = new Set(readdirSync(assetDir));
  for (const name of files) {
    if (name.endsWith('.gz') || name.endsWith('.br')) continue;
    const read = (suffix: string) => (files.has(name + suffix) ? readFileSync(join(assetDir, name + suffix)) : undefined);
    assets.set(name, {
      body: readFileSync(join(assetDir, name)),
      gzip: read('.gz'),
      br: read('.br'),
      type: TYPES[extname(name)] ?? 'application/octet-stream',
    });
  }

  const sendPage = (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-cache').header('etag', pageTag).header('content-type', 'text/html; charset=utf-8');
    if (request.headers['if-none-match'] === pageTag) return reply.code(304).send();
    return reply.send(page);
  };
  app.get('/', { schema: { hide: true } }, sendPage);
  app.get('/dashboard/assets/:name', { schema: { hide: true } }, (request, reply) => {
    const asset = assets.get((request.params as { name: string }).name);
    if (!asset) return reply.callNotFound();
    const accepted = String(request.headers['accept-encoding'] ?? '');
    const accepts = (coding: string) => new RegExp(`(?:^|,)\\s*${coding}\\s*(?:;\\s*q=(?!0(?:\\.0*)?\\s*(?:,|$))[\\d.]+)?\\s*(?:,|$)`).test(accepted);
    reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('content-type', asset.type)
      .header('vary', 'accept-encoding')
      .header('x-content-type-options', 'nosniff');
    if (asset.br && accepts('br')) return reply.header('content-encoding', 'br').send(asset.br);
    if (asset.gzip && accepts('gzip')) return reply.header('content-encoding', 'gzip').send(asset.gzip);
    return reply.send(asset.body);
  });
}
