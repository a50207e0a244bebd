// Builds the dashboard (src/dashboard/client/) into dist/dashboard/, as part of `npm run build`:
// type-checks the client (its own tsconfig: DOM types), bundles it with esbuild (scripts, styles and
// the images they use, each named by its content hash, so the server can let browsers keep them
// for good), writes index.html pointing at them, and a gzip and a brotli copy of every script, style
// sheet and SVG (the server sends the one the browser accepts; PNGs are compressed already). Nothing is fetched from outside: Leaflet, its drawing
// plugin and uPlot come from node_modules.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const SRC = 'src/dashboard/client';
const OUT = 'dist/dashboard';
const ASSETS = join(OUT, 'assets');

const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', join(SRC, 'tsconfig.json')], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

rmSync(OUT, { recursive: true, force: true });
mkdirSync(ASSETS, { recursive: true });
const result = await build({
  entryPoints: { main: join(SRC, 'main.ts') },
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2020'],
  // Leaflet's UMD build (its `main`) sets window.L, which the drawing plugin extends.
  mainFields: ['main'],
  outdir: ASSETS,
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  loader: { '.png': 'file', '.svg': 'file' },
  legalComments: 'linked',
  metafile: true,
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
const js = outputs.find((f) => /^main-.*\.js$/.test(f));
const css = outputs.find((f) => /^main-.*\.css$/.test(f));
if (!js || !css) throw new Error(`esbuild wrote no main script or style sheet: ${outputs.join(', ')}`);
const html = readFileSync(join(SRC, 'index.html'), 'utf8').replace('{{js}}', `/dashboard/assets/${js}`).replace('{{css}}', `/dashboard/assets/${css}`);
writeFileSync(join(OUT, 'index.html'), html);

let raw = 0;
let gz = 0;
for (const name of readdirSync(ASSETS)) {
  const body = readFileSync(join(ASSETS, name));
  raw += body.length;
  if (name.endsWith('.png')) {
    gz += body.length;
    continue;
  }
  const g = gzipSync(body, { level: 9 });
  const b = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
  writeFileSync(join(ASSETS, `${name}.gz`), g);
  writeFileSync(join(ASSETS, `${name}.br`), b);
  gz += g.length;
}
console.log(`dashboard: ${outputs.length} assets, ${(raw / 1024).toFixed(0)} KiB (${(gz / 1024).toFixed(0)} KiB gzipped) in ${ASSETS}`);
