/**
 * GET /metadata (docs/reference/v2-reference-and-contributions-format.md §1.5): `{apiVersion, attribution, temporalExtent: {start, end}, spatialExtent}`.
 * start/end are the first and last timestamps of the data; spatialExtent (a GeoJSON Polygon, the
 * bbox of all visible geometries) is a maphist addition, and so is `replication: {sequenceNumber,
 * timestamp}`, present once the store follows a replication source (`maphist update --replication`,
 * docs/replication.md): the last sequence applied and the time its state gives. No key.
 */
import type { FastifyInstance, FastifySchema } from 'fastify';
import { API_VERSION_V2, ATTRIBUTION } from '../../attribution.js';
import { epochOf, formatTimestamp } from '../params/timestamp.js';
import type { V2Context } from './context.js';

export function registerMetadataRoute(app: FastifyInstance, ctx: V2Context): void {
  ctx.allow('/metadata', 'GET', 'HEAD');
  app.get('/metadata', { schema: { tags: ['Metadata'], summary: 'Temporal and spatial extent of the data' } as FastifySchema }, async (request) => {
    const m = ctx.at(request).data.metadata;
    return {
      apiVersion: API_VERSION_V2,
      attribution: ATTRIBUTION,
      temporalExtent: { start: formatTimestamp(epochOf(m.firstTimestamp)), end: formatTimestamp(epochOf(m.lastTimestamp)) },
      spatialExtent: m.spatialExtent,
      ...(m.replicationTimestamp === undefined
        ? {}
        : { replication: { sequenceNumber: m.replicationSequenceNumber, timestamp: formatTimestamp(epochOf(m.replicationTimestamp)) } }),
    };
  });
}
