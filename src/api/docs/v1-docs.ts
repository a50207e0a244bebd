/**
 * Version 1 documentation in the `/v1` scope: the document built from the v1 route and parameter
 * tables (v1-document.ts), served by @fastify/swagger in static mode, so no JSON schema is attached
 * to the v1 routes and Fastify validates nothing there (the v1 parsers answer every error).
 */
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { buildV1OpenApiDocument } from './v1-document.js';
import { serveSwaggerUi } from './swagger-ui.js';

export async function registerV1Docs(v1: FastifyInstance, prefix = '/v1'): Promise<void> {
  await v1.register(swagger, { mode: 'static', specification: { document: buildV1OpenApiDocument({ prefix }) } });
  await serveSwaggerUi(v1, prefix, 'maphist API v1');
}
