/**
 * One store generation per request (src/query/generations.ts): an onRequest hook leases the
 * current generation when a request arrives and releases it when the response has ended or the
 * client has gone; routes read metadata, `latest` and the engines through `generationOf(request)`,
 * so a request answers from exactly one generation even when a new one is swapped in meanwhile.
 * No route keeps anything of a generation beyond its request.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Generation, StoreHandle } from '../query/generations.js';

const leases = new WeakMap<FastifyRequest, Generation>();

export function installGenerationHook(app: FastifyInstance, handle: StoreHandle): void {
  app.addHook('onRequest', (request, reply, done) => {
    const lease = handle.acquire();
    leases.set(request, lease);
    // 'close' comes when the response has been sent or the connection was lost, whichever is first;
    // onResponse as well for injected requests. Releasing twice is harmless.
    reply.raw.once('close', lease.release);
    done();
  });
  app.addHook('onResponse', (request, _reply, done) => {
    leases.get(request)?.release();
    done();
  });
}

/** The generation the request leased (installGenerationHook). */
export function generationOf(request: FastifyRequest): Generation {
  const lease = leases.get(request);
  if (!lease) throw new Error(`no store generation for ${request.method} ${request.url} (installGenerationHook missing)`);
  return lease;
}
