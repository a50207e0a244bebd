/**
 * The HTTP server: both API versions over one store. Version 2 is served under its release
 * candidate prefix `/v2-rc` and, identically, under `/v2`.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Store } from '../store/open-store.js';
import { registerMetadataRoute } from './v1/routes/metadata.js';
import { registerHealthRoute } from './v2/routes/health.js';

export interface ServerOptions {
  /** Default query time limit in seconds (reported by /v1/metadata). */
  timeoutSeconds?: number;
  logger?: boolean;
}

export async function createServer(store: Store, options: ServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({ logger: options.logger ?? false });
  const timeoutSeconds = options.timeoutSeconds ?? 600;
  await app.register(
    async (v1) => {
      registerMetadataRoute(v1, store, { timeoutSeconds });
    },
    { prefix: '/v1' },
  );
  for (const prefix of ['/v2-rc', '/v2']) {
    await app.register(
      async (v2) => {
        registerHealthRoute(v2, store);
      },
      { prefix },
    );
  }
  return app;
}
