/**
 * Version 2 documentation in a `/v2-rc` or `/v2` scope: @fastify/swagger in dynamic mode collects
 * the JSON schemas of the routes registered in the scope after it (the schemas Fastify validates
 * with), so this must be called before the v2 routes are registered.
 */
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { API_VERSION_V2 } from '../attribution.js';
import { serveSwaggerUi } from './swagger-ui.js';
import { API_KEY_SCHEME, API_KEY_SECURITY_SCHEME } from './v2-security.js';
import { v2Responses } from './v2-responses.js';

export async function registerV2Docs(v2: FastifyInstance, prefix: string): Promise<void> {
  await v2.register(swagger, {
    mode: 'dynamic',
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'maphist API, version 2',
        version: API_VERSION_V2,
        description:
          'Statistics time series (JSON or CSV), GeoParquet extraction, filter validation, metadata and health over the edit history of OpenStreetMap data, ' +
          'compatible with version 2 of the ohsome API. Statistics and extraction need an API key in the `Authorization` header.',
        license: { name: 'Data © OpenStreetMap contributors, ODbL', url: 'https://www.openstreetmap.org/copyright' },
      },
      servers: [{ url: prefix }],
      components: { securitySchemes: { [API_KEY_SCHEME]: API_KEY_SECURITY_SCHEME } },
    },
    // paths relative to the server URL: /health, not /v2-rc/health
    stripBasePath: true,
    // Every status a route can answer, with its body (v2-responses.ts), in the document only: the
    // route's own response schemas (what Fastify serializes with) come first and are kept.
    transform: ({ schema, url, route }) => {
      const method = Array.isArray(route.method) ? route.method[0] : route.method;
      const relative = url.startsWith(prefix) ? url.slice(prefix.length) : url;
      const documented = { ...v2Responses(relative, method), ...((schema?.response as object | undefined) ?? {}) };
      return { schema: { ...(schema ?? {}), response: documented }, url };
    },
  });
  await serveSwaggerUi(v2, prefix, 'maphist API v2');
}
