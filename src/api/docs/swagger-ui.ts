/**
 * Serves a version's OpenAPI document and Swagger UI inside that version's scope: `<prefix>/openapi.json`
 * and `<prefix>/docs`. The UI's scripts, styles and icons come from the @fastify/swagger-ui npm
 * package and are served by this server (no CDN, works offline). Expects @fastify/swagger to be
 * registered in the same scope already.
 */
import type { FastifyInstance } from 'fastify';
import swaggerUi from '@fastify/swagger-ui';

export async function serveSwaggerUi(scope: FastifyInstance, prefix: string, title: string): Promise<void> {
  await scope.register(swaggerUi, {
    routePrefix: '/docs',
    // the UI's asset URLs are absolute: without the scope prefix they would miss it
    indexPrefix: prefix,
    theme: { title },
    uiConfig: { deepLinking: true, tryItOutEnabled: false, displayOperationId: false },
  });
  scope.get('/openapi.json', { schema: { hide: true } }, async () => scope.swagger());
}
