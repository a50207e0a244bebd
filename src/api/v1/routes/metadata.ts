/** GET /v1/metadata: extent and time range of the data, and the server's default timeout. */
import type { FastifyInstance } from 'fastify';
import type { Store } from '../../../store/open-store.js';
import { API_VERSION, ATTRIBUTION } from '../../attribution.js';

export function registerMetadataRoute(app: FastifyInstance, store: Store, options: { timeoutSeconds: number }): void {
  app.get('/metadata', async (request, reply) => {
    if (Object.keys(request.query as object).length > 0) {
      return reply.code(400).send({
        timestamp: new Date().toISOString(),
        status: 400,
        message: "The endpoint 'metadata' does not require parameters",
        requestUrl: request.url,
      });
    }
    const m = store.metadata;
    return {
      attribution: ATTRIBUTION,
      apiVersion: API_VERSION,
      timeout: options.timeoutSeconds,
      extractRegion: {
        spatialExtent: m.spatialExtent,
        temporalExtent: { fromTimestamp: m.firstTimestamp, toTimestamp: m.lastTimestamp },
        replicationSequenceNumber: m.replicationSequenceNumber,
      },
    };
  });
}
