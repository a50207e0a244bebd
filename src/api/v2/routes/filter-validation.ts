/** GET /filter/validation?filter=… and POST /filter/validation {filter} (§1.4): 200 echoing the filter, or 422. No key. */
import type { FastifyInstance, FastifySchema } from 'fastify';
import { API_VERSION_V2, ATTRIBUTION } from '../../attribution.js';
import { parseV2Filter } from '../params/filter.js';
import { inPart } from '../params/stats-request.js';
import { FILTER_VALIDATION_BODY_SCHEMA, FILTER_VALIDATION_QUERY_SCHEMA } from '../schemas/filter-validation.js';
import type { V2Context } from './context.js';

function answer(filter: string) {
  return { apiVersion: API_VERSION_V2, attribution: ATTRIBUTION, filter };
}

export function registerFilterValidationRoutes(app: FastifyInstance, ctx: V2Context): void {
  ctx.allow('/filter/validation', 'GET', 'HEAD', 'POST');
  app.get('/filter/validation', { schema: { querystring: FILTER_VALIDATION_QUERY_SCHEMA, tags: ['Filter Validation'], summary: 'Check the syntax of a filter (200 valid, 422 with the located error)' } as FastifySchema }, async (request) => {
    const { filter } = request.query as { filter: string };
    inPart('query', () => parseV2Filter(filter));
    return answer(filter);
  });
  app.post('/filter/validation', { schema: { body: FILTER_VALIDATION_BODY_SCHEMA, tags: ['Filter Validation'], summary: 'Check the syntax of a filter (200 valid, 422 with the located error)' } as FastifySchema }, async (request) => {
    const { filter } = request.body as { filter: string };
    inPart('body', () => parseV2Filter(filter));
    return answer(filter);
  });
}
