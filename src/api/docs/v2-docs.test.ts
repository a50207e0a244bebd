/**
 * registerV2Docs with routes shaped like the planned v2 ones (no store needed): the document carries
 * the schemas Fastify validates with (body, querystring, path parameters, responses), the API-key
 * security a route declares, and paths relative to the version prefix; routes registered before
 * the docs are not collected (the order server.ts must keep).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { registerV2Docs } from './v2-docs.js';
import { API_KEY_SECURITY } from './v2-security.js';
import { openApiProblems } from './test-support.js';

const BODY = {
  type: 'object',
  required: ['aoi'],
  additionalProperties: false,
  properties: {
    aoi: { description: 'bounding box', type: 'array', items: { type: 'number' }, minItems: 4, maxItems: 4 },
    filter: { type: 'string', description: 'filter expression' },
  },
} as const;

async function build() {
  const app = Fastify();
  await app.register(
    async (v2) => {
      v2.get('/early', async () => ({ ok: true }));
      await registerV2Docs(v2, '/v2-rc');
      v2.post(
        '/stats/features/:measure.json',
        {
          schema: {
            description: 'features statistics',
            security: API_KEY_SECURITY,
            params: { type: 'object', properties: { measure: { type: 'string', enum: ['count', 'length', 'area'] } } },
            body: BODY,
            response: { 200: { type: 'object', properties: { apiVersion: { type: 'string' } } } },
          },
        },
        async () => ({ apiVersion: '2' }),
      );
      v2.get(
        '/filter/validation',
        { schema: { querystring: { type: 'object', required: ['filter'], properties: { filter: { type: 'string', description: 'the filter' } } } } },
        async () => ({}),
      );
    },
    { prefix: '/v2-rc' },
  );
  await app.ready();
  return app;
}

describe('v2 OpenAPI document from route schemas', () => {
  it('collects body, querystring, path parameters, responses and security', async () => {
    const app = await build();
    const doc = (await app.inject('/v2-rc/openapi.json')).json();
    assert.deepEqual(openApiProblems(doc), []);
    const stats = doc.paths['/stats/features/{measure}.json'].post;
    assert.deepEqual(stats.security, API_KEY_SECURITY);
    assert.deepEqual(
      stats.parameters.map((p: { name: string; in: string }) => [p.in, p.name]),
      [['path', 'measure']],
    );
    assert.deepEqual(stats.requestBody.content['application/json'].schema.required, ['aoi']);
    assert.equal(stats.requestBody.content['application/json'].schema.properties.filter.description, 'filter expression');
    assert.ok(stats.responses['200'].content['application/json'].schema.properties.apiVersion);
    const validation = doc.paths['/filter/validation'].get;
    assert.deepEqual(validation.parameters, [{ schema: { type: 'string' }, in: 'query', name: 'filter', required: true, description: 'the filter' }]);
    assert.equal(validation.security, undefined);
    assert.equal(doc.paths['/early'], undefined, 'a route registered before the docs is not collected');
    // the schemas are still the ones Fastify validates with
    const bad = await app.inject({ method: 'POST', url: '/v2-rc/stats/features/count.json', payload: { aoi: [1, 2] } });
    assert.equal(bad.statusCode, 400);
    await app.close();
  });
});
