/**
 * A real browser for the dashboard's tests, screenshots and benchmark: Debian's chromium
 * (`apt-get install chromium`; MAPHIST_CHROMIUM overrides the path) driven by playwright-core, and
 * a real `maphist serve` over the Andorra sample imported into a temporary directory.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { importInto, startServer, type ServerProcess } from '../fuzz/server-process.js';
import { HISTORY_DIR } from '../test-data.js';

export const CHROMIUM = process.env.MAPHIST_CHROMIUM ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no chromium at ${CHROMIUM}: apt-get install chromium (or set MAPHIST_CHROMIUM)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

export interface AndorraServer {
  server: ServerProcess;
  close(): Promise<void>;
}

/** `maphist serve` over the Andorra history (testdata/history/andorra.osh.pbf), imported fresh. */
export async function serveAndorra(args: string[] = []): Promise<AndorraServer> {
  const dir = mkdtempSync(join(tmpdir(), 'maphist-dashboard-'));
  const db = join(dir, 'andorra.db');
  await importInto(join(HISTORY_DIR, 'andorra.osh.pbf'), db);
  const server = await startServer(db, args);
  return {
    server,
    async close() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
