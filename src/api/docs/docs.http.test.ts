/**
 * The OpenAPI documents and Swagger UI over real HTTP, on the bundled sample: the v1 document covers
 * every route of the v1 table with the parameters the request checks accept; the v2 documents cover
 * every route registered in their scope (enumerated independently of @fastify/swagger, through an
 * onRoute hook); the UI pages and every asset they reference are served locally.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { importToTemp, type ImportedDb } from '../../store/test-support.js';
import { API_VERSION, API_VERSION_V2 } from '../attribution.js';
import { acceptedParameters, V1_ROUTES } from '../v1/params/route-parameters.js';
import { createDuckDbServer as createServer } from '../../testing/server.js';
import { buildV1OpenApiDocument } from './v1-document.js';
import { openApiProblems, referencedUrls } from './test-support.js';
import { API_KEY_SCHEME } from './v2-security.js';

type Doc = {
  openapi: string;
  info: { title: string; version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, any>>;
  components?: { securitySchemes?: Record<string, any> };
};

const V2_PREFIXES = ['/v2-rc', '/v2'];

/** The object a local `$ref` points to (or the object itself). */
function deref(doc: Doc, node: any): any {
  if (typeof node?.$ref !== 'string') return node;
  return node.$ref
    .slice(2)
    .split('/')
    .reduce((n: any, part: string) => n?.[part], doc);
}

/** Fastify `/a/:b` → OpenAPI `/a/{b}`. */
function openApiPath(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}');
}

describe('OpenAPI documents and Swagger UI', () => {
  let db: ImportedDb;
  let app: FastifyInstance;
  let base: string;
  const routes: RouteOptions[] = [];
  before(async () => {
    db = await importToTemp(join(process.cwd(), 'sample', 'andorra.osh.pbf'));
    app = await createServer(db.store, { onRoute: (r) => routes.push(r) });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await app.close();
    db.dispose();
  });

  async function getJson(path: string): Promise<Doc> {
    const res = await fetch(`${base}${path}`);
    assert.equal(res.status, 200, path);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    return (await res.json()) as Doc;
  }

  it('the validity check rejects broken documents', () => {
    const doc = structuredClone(buildV1OpenApiDocument()) as unknown as Doc;
    assert.deepEqual(openApiProblems(doc), []);
    delete doc.paths['/elements/count']!.get.responses;
    doc.paths['/elements/count/density']!.get.parameters.push({ $ref: '#/components/parameters/missing' });
    doc.paths['/elements/count']!.post.parameters = [{ name: 'x', in: 'body' }];
    doc.paths['/users/count']!.get.responses['200'].content['application/json'].schema.$ref = '#/components/schemas/Nope';
    doc.paths['/users/count']!.post.operationId = doc.paths['/users/count']!.get.operationId;
    const problems = openApiProblems(doc);
    assert.ok(
      problems.some((p) => p.includes('responses')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.includes('"in"') || p.includes('/in')),
      problems.join('\n'),
    );
    assert.ok(problems.some((p) => p.includes('Nope')));
    assert.ok(problems.some((p) => p.includes('parameters/missing')));
    assert.ok(problems.some((p) => p.startsWith('duplicate operationId')));
  });

  it('/v1/openapi.json documents every v1 route with the parameters it accepts', async () => {
    const doc = await getJson('/v1/openapi.json');
    assert.deepEqual(openApiProblems(doc), []);
    assert.equal(doc.info.version, API_VERSION);
    assert.deepEqual(doc.servers, [{ url: '/v1' }]);
    assert.deepEqual(Object.keys(doc.paths).sort(), V1_ROUTES.map((r) => r.path).sort(), 'exactly the table paths, no docs routes');
    for (const route of V1_ROUTES) {
      const item = doc.paths[route.path]!;
      assert.deepEqual(Object.keys(item).sort(), route.methods.map((m) => m.toLowerCase()).sort(), route.path);
      const accepted = acceptedParameters(route.path);
      if (route.methods.includes('GET')) {
        const params = (item.get.parameters ?? []).map((p: unknown) => deref(doc, p)) as {
          name: string;
          in: string;
          description: string;
          schema: object;
          example: unknown;
        }[];
        assert.deepEqual(
          params.map((p) => p.name),
          accepted,
          `GET ${route.path}`,
        );
        for (const p of params) {
          assert.equal(p.in, 'query');
          assert.ok(p.description.length > 20, `${route.path} ${p.name}`);
          assert.ok(p.schema !== undefined && p.example !== undefined, `${route.path} ${p.name}`);
        }
      }
      if (route.methods.includes('POST')) {
        const content = item.post.requestBody.content;
        for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data']) {
          const properties = content[type].schema.properties;
          assert.deepEqual(Object.keys(properties), accepted, `POST ${route.path} ${type}`);
          for (const name of accepted) assert.ok(deref(doc, properties[name]).description.length > 20, `POST ${route.path} ${name}`);
        }
        // JSON bodies (issue 22): the same parameters, with an example that names relations as bpolys.
        const json = content['application/json'];
        assert.deepEqual(Object.keys(json.schema.properties), accepted, `POST ${route.path} application/json`);
        assert.deepEqual(json.example.bpolys, ['vella:relation/2804753', 'relation/2804756'], route.path);
        for (const name of Object.keys(json.example)) assert.ok(accepted.includes(name), `${route.path} example ${name}`);
      }
      for (const op of Object.values(item)) {
        assert.ok(op.responses['200'], route.path);
        if (route.family !== 'metadata') assert.equal(deref(doc, op.responses['400']).content['application/json'].schema.$ref, '#/components/schemas/Error');
      }
    }
    // the route-specific details come from the same table
    const param = (path: string, name: string): any => doc.paths[path]!.get.parameters.map((p: unknown) => deref(doc, p)).find((p: any) => p.name === name);
    assert.equal(param('/elements/count/ratio', 'filter2').required, true);
    assert.equal(param('/elements/geometry', 'time').required, true);
    assert.equal(param('/elements/count', 'time').required, false);
    assert.deepEqual(param('/elements/area/groupBy/boundary', 'format').schema.enum, ['json', 'csv', 'geojson']);
    assert.deepEqual(param('/elements/area/groupBy/tag', 'format').schema.enum, ['json', 'csv']);
    assert.match(param('/contributions/latest/bbox', 'properties').description, /contributionTypes/);
    assert.doesNotMatch(param('/elements/bbox', 'properties').description, /contributionTypes/);
    // full history and contributions extraction: both two-timestamp forms, no period; snapshots: every form
    for (const path of ['/elementsFullHistory/geometry', '/contributions/bbox', '/contributions/latest/centroid']) {
      assert.match(param(path, 'time').description, /`start,end` or `start\/end`.*No period/, path);
    }
    assert.match(param('/elements/geometry', 'time').description, /`start\/end\/period`/);
    assert.match(param('/elements/count', 'filter').description, /`key~prefix\*`/);
    assert.match(param('/elements/count', 'bpolys').description, /`relation\/2804753`/);
    assert.deepEqual(Object.keys(doc.paths['/elements/bbox']!.get.responses['200'].content), ['application/geo+json']);
    assert.equal(doc.paths['/users/count']!.get.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/ContributionsResponse');
    // maphist's extension routes (issue 22) say so, and carry an example answer of their groups
    for (const route of V1_ROUTES.filter((r) => r.extension === true)) {
      const item = doc.paths[route.path]!;
      for (const op of [item.get, item.post]) assert.match(op.description, /A maphist extension \(the reference has no such route/, route.path);
      const example = item.get.responses['200'].content['application/json'].example as { groupByResult: { groupByObject: string }[] };
      assert.ok(example.groupByResult.length >= 2, route.path);
    }
    const kinds = doc.paths['/contributions/count/groupBy/contributionType']!.get;
    assert.match(kinds.description, /may overlap/);
    assert.deepEqual(
      kinds.responses['200'].content['application/json'].example.groupByResult.map((g: { groupByObject: string }) => g.groupByObject),
      ['creation', 'deletion', 'tagChange', 'geometryChange'],
    );
  });

  it('documents do not change v1 request validation', async () => {
    const res = await fetch(`${base}/v1/elements/count?bboxes=1.4,42.4,1.8,42.7&filtr=building=*`);
    assert.equal(res.status, 400);
    assert.match((await res.json()).message, /^Unknown parameter 'filtr' for this resource\. Did you mean 'filter'/);
  });

  for (const prefix of V2_PREFIXES) {
    it(`${prefix}/openapi.json documents every route registered under ${prefix}`, async () => {
      const doc = await getJson(`${prefix}/openapi.json`);
      assert.deepEqual(openApiProblems(doc), []);
      assert.equal(doc.info.version, API_VERSION_V2);
      assert.deepEqual(doc.servers, [{ url: prefix }]);
      assert.deepEqual(doc.components?.securitySchemes?.[API_KEY_SCHEME], {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: 'The API key, sent as is (no `Bearer` prefix) in the `Authorization` header.',
      });
      assert.ok(doc.paths['/health']?.get, '/health');
      const scoped = routes.filter((r) => r.url.startsWith(`${prefix}/`) && (r.schema as { hide?: boolean } | undefined)?.hide !== true);
      let documented = 0;
      for (const route of scoped) {
        for (const method of [route.method].flat()) {
          if (method === 'HEAD') continue;
          const path = openApiPath(route.url.slice(prefix.length));
          const op = doc.paths[path]?.[method.toLowerCase()];
          assert.ok(op, `${method} ${route.url} is missing from ${prefix}/openapi.json`);
          const security = (route.schema as { security?: unknown } | undefined)?.security;
          if (security !== undefined) assert.deepEqual(op.security, security, `${method} ${route.url} security`);
          documented++;
        }
      }
      assert.ok(documented >= 1);
      for (const path of Object.keys(doc.paths)) assert.ok(!path.startsWith(`${prefix}/`), `${path}: prefix not stripped`);
      assert.ok(!('/openapi.json' in doc.paths) && !Object.keys(doc.paths).some((p) => p.startsWith('/docs')), 'docs routes hidden');
    });
  }

  for (const prefix of ['/v1', ...V2_PREFIXES]) {
    for (const page of [`${prefix}/docs`, `${prefix}/docs/`]) {
      it(`${page} is Swagger UI with every asset served locally`, async () => {
        const res = await fetch(`${base}${page}`);
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-type') ?? '', /text\/html/);
        const html = await res.text();
        assert.match(html, /<div id="swagger-ui">/);
        const urls = referencedUrls(html);
        assert.ok(
          urls.some((u) => u.endsWith('/swagger-ui-bundle.js')),
          urls.join(' '),
        );
        assert.ok(urls.some((u) => u.endsWith('/swagger-initializer.js')));
        assert.ok(urls.some((u) => u.endsWith('/swagger-ui.css')));
        for (const url of urls) {
          assert.doesNotMatch(url, /^(https?:)?\/\//, `${url} is not local`);
          const asset = await fetch(new URL(url, `${base}${page}`));
          assert.equal(asset.status, 200, `${url} from ${page}`);
          assert.ok((await asset.arrayBuffer()).byteLength > 0, url);
        }
        // the UI loads the document from ./json: the same document as openapi.json
        const fromUi = await fetch(new URL('json', `${base}${prefix}/docs/`));
        assert.equal(fromUi.status, 200);
        assert.deepEqual(await fromUi.json(), await getJson(`${prefix}/openapi.json`));
      });
    }
  }
});
