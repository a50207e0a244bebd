/** GET/HEAD /v2-rc/health: the server is up and its database answers. */
import type { FastifyInstance } from 'fastify';
import type { Store } from '../../../store/open-store.js';

export function registerHealthRoute(app: FastifyInstance, store: Store): void {
  app.get('/health', async (_request, reply) => {
    const con = await store.connect();
    try {
      await con.run('SELECT 1 FROM meta LIMIT 1');
      return { status: 'Ok' };
    } catch {
      return reply.code(503).send({ status: 'Unavailable' });
    } finally {
      con.closeSync();
    }
  });
}
