/** GET /filter/validation?filter=… and POST /filter/validation {filter} (docs/reference/v2-reference-and-contributions-format.md §1.4), also under /filter/validate: 200 echoing the filter, or 422. No key. */
import type { FastifyInstance, FastifySchema } from 'fastify';
import { API_VERSION_V2, ATTRIBUTION } from '../../attribution.js';
import { parseV2Filter } from '../params/filter.js';
import { inPart } from '../params/stats-request.js';
import { FILTER_VALIDATION_BODY_SCHEMA, FILTER_VALIDATION_QUERY_SCHEMA } from '../schemas/filter-validation.js';
import type { V2Context } from './context.js';

function answer(filter: string) {
  return { apiVersion: API_VERSION_V2, attribution: ATTRIBUTION, filter };
}

/**
 * `/filter/validation` (the specification's endpoint reference) and `/filter/validate` (the name its
 * migration table gives): the same routes under both paths.
 */
export const FILTER_VALIDATION_PATHS = ['/filter/validation', '/filter/validate'] as const;

export function registerFilterValidationRoutes(app: FastifyInstance, ctx: V2Context): void {
  for (const path of FILTER_VALIDATION_PATHS) {
    ctx.allow(path, 'GET', 'HEAD', 'POST');
    app.get(
      path,
      {
        schema: {
          querystring: FILTER_VALIDATION_QUERY_SCHEMA,
          tags: ['Filter Validation'],
          summary: 'Check the syntax of a filter (200 valid, 422 with the located error)',
        } as FastifySchema,
      },
      async (request) => {
        const { filter } = request.query as { filter: string };
        inPart('query', () => parseV2Filter(filter));
        return answer(filter);
      },
    );
    app.post(
      path,
      {
        schema: {
          body: FILTER_VALIDATION_BODY_SCHEMA,
          tags: ['Filter Validation'],
          summary: 'Check the syntax of a filter (200 valid, 422 with the located error)',
        } as FastifySchema,
      },
      async (request) => {
        const { filter } = request.body as { filter: string };
        inPart('body', () => parseV2Filter(filter));
        return answer(filter);
      },
    );
  }
}
