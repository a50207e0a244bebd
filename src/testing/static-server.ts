/**
 * Test support: a real HTTP server (node:http) serving a directory read-only, as a replication
 * mirror does: 200 with the file's bytes, 404 for anything else. `intercept` lets a test answer a
 * request itself first (a 503, a stall, a reset) to exercise a client's retries and time-outs.
 *
 *   const server = await serveDirectory(dir);
 *   await fetch(`${server.url}state.txt`);
 *   server.requests;   // ['/state.txt']
 *   await server.close();
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join, normalize, sep } from 'node:path';

export interface StaticServer {
  /** `http://127.0.0.1:PORT/` (with the trailing slash). */
  url: string;
  /** The path of every request received, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** Answers the request itself (returns true) or lets the directory answer it (false). */
export type Intercept = (path: string, req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

export async function serveDirectory(dir: string, intercept?: Intercept): Promise<StaticServer> {
  const requests: string[] = [];
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(path);
    try {
      if (intercept && (await intercept(path, req, res))) return;
      const file = normalize(join(dir, path));
      if (!file.startsWith(normalize(dir) + sep)) {
        res.writeHead(404).end();
        return;
      }
      const bytes = await readFile(file);
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': bytes.length }).end(bytes);
    } catch {
      if (!res.headersSent) res.writeHead(404).end('not found');
      else res.destroy();
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
