/**
 * GET/HEAD /health (docs/reference/v2-reference-and-contributions-format.md §1.5): `{"status":"Ok"}` when the server is up and its database answers a
 * query; 503 `{"status":"Unavailable"}` otherwise. No key.
 */
import type { FastifyInstance, FastifySchema } from 'fastify';
import type { V2Context } from './context.js';

const SCHEMA = {
  tags: ['Health'],
  summary: 'Is the service up and its database readable?',
  response: {
    200: {
      description: 'The service answers and its database is readable.',
      type: 'object',
      properties: { status: { type: 'string', const: 'Ok' } },
      required: ['status'],
    },
    503: { description: 'The database cannot be read.', type: 'object', properties: { status: { type: 'string' } }, required: ['status'] },
  },
} as FastifySchema;

export function registerHealthRoute(app: FastifyInstance, ctx: V2Context): void {
  ctx.allow('/health', 'GET', 'HEAD');
  app.get('/health', { schema: SCHEMA }, async (request, reply) => {
    if (await ctx.at(request).data.databaseAnswers()) return { status: 'Ok' };
    return reply.code(503).send({ status: 'Unavailable' });
  });
}
