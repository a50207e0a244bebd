/**
 * Test helpers for the OpenAPI documents: a JSON schema of the OpenAPI 3.0 structure (the parts a
 * generator can get wrong: required members, parameter and operation fields, response keys, no
 * unknown fields), plus the checks a schema cannot express (references resolve, operationIds are
 * unique, path templates match their path parameters).
 */
import AjvModule from 'ajv';

interface AjvLike {
  compile(schema: object): ((data: unknown) => boolean) & { errors?: unknown[] | null };
}
const AjvClass = ((AjvModule as unknown as { default?: unknown }).default ?? AjvModule) as new (o: object) => AjvLike;

const EXTENSIONS = { '^x-': {} };
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const OPENAPI_30_SHAPE = {
  type: 'object',
  required: ['openapi', 'info', 'paths'],
  additionalProperties: false,
  patternProperties: EXTENSIONS,
  properties: {
    openapi: { type: 'string', pattern: '^3\\.0\\.\\d+$' },
    info: {
      type: 'object',
      required: ['title', 'version'],
      properties: { title: { type: 'string', minLength: 1 }, version: { type: 'string', minLength: 1 }, description: { type: 'string' } },
    },
    servers: { type: 'array', items: { type: 'object', required: ['url'], properties: { url: { type: 'string' } } } },
    tags: { type: 'array', items: { type: 'object', required: ['name'] } },
    security: { type: 'array', items: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } },
    externalDocs: { type: 'object' },
    components: {
      type: 'object',
      properties: {
        schemas: { type: 'object', additionalProperties: { type: 'object' } },
        parameters: { type: 'object', additionalProperties: { $ref: '#/$defs/parameter' } },
        responses: { type: 'object', additionalProperties: { type: 'object', required: ['description'], properties: { description: { type: 'string' } } } },
        securitySchemes: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            required: ['type'],
            properties: {
              type: { enum: ['apiKey', 'http', 'oauth2', 'openIdConnect'] },
              in: { enum: ['query', 'header', 'cookie'] },
              name: { type: 'string' },
            },
            if: { properties: { type: { const: 'apiKey' } } },
            then: { required: ['type', 'in', 'name'] },
          },
        },
      },
    },
    paths: {
      type: 'object',
      propertyNames: { pattern: '^/' },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        patternProperties: EXTENSIONS,
        properties: {
          summary: { type: 'string' },
          description: { type: 'string' },
          parameters: { type: 'array', items: { $ref: '#/$defs/parameterOrRef' } },
          servers: { type: 'array' },
          ...Object.fromEntries(METHODS.map((m) => [m, { $ref: '#/$defs/operation' }])),
        },
      },
    },
  },
  $defs: {
    parameterOrRef: {
      if: { type: 'object', required: ['$ref'] },
      then: { type: 'object', additionalProperties: false, properties: { $ref: { type: 'string', pattern: '^#/components/parameters/' } } },
      else: { $ref: '#/$defs/parameter' },
    },
    parameter: {
      type: 'object',
      required: ['name', 'in'],
      additionalProperties: false,
      patternProperties: EXTENSIONS,
      properties: {
        name: { type: 'string', minLength: 1 },
        in: { enum: ['query', 'header', 'path', 'cookie'] },
        description: { type: 'string' },
        required: { type: 'boolean' },
        deprecated: { type: 'boolean' },
        allowEmptyValue: { type: 'boolean' },
        style: { type: 'string' },
        explode: { type: 'boolean' },
        allowReserved: { type: 'boolean' },
        schema: { type: 'object' },
        example: {},
        examples: { type: 'object' },
        content: { type: 'object' },
      },
      oneOf: [{ required: ['schema'] }, { required: ['content'] }],
      if: { properties: { in: { const: 'path' } } },
      then: { required: ['required'], properties: { required: { const: true } } },
    },
    operation: {
      type: 'object',
      required: ['responses'],
      additionalProperties: false,
      patternProperties: EXTENSIONS,
      properties: {
        tags: { type: 'array', items: { type: 'string' } },
        summary: { type: 'string' },
        description: { type: 'string' },
        externalDocs: { type: 'object' },
        operationId: { type: 'string', minLength: 1 },
        parameters: { type: 'array', items: { $ref: '#/$defs/parameterOrRef' } },
        requestBody: {
          type: 'object',
          required: ['content'],
          properties: { description: { type: 'string' }, required: { type: 'boolean' }, content: { type: 'object', minProperties: 1 } },
        },
        responses: {
          type: 'object',
          minProperties: 1,
          propertyNames: { pattern: '^([1-5][0-9][0-9]|[1-5]XX|default)$' },
          additionalProperties: {
            type: 'object',
            anyOf: [{ required: ['description'], properties: { description: { type: 'string' } } }, { required: ['$ref'] }],
          },
        },
        callbacks: { type: 'object' },
        deprecated: { type: 'boolean' },
        security: { type: 'array', items: { type: 'object' } },
        servers: { type: 'array' },
      },
    },
  },
};

const validateShape = new AjvClass({ allErrors: true, strict: false }).compile(OPENAPI_30_SHAPE);

type Json = Record<string, unknown>;

function* walk(node: unknown): Generator<Json> {
  if (Array.isArray(node)) for (const item of node) yield* walk(item);
  else if (node !== null && typeof node === 'object') {
    yield node as Json;
    for (const value of Object.values(node)) yield* walk(value);
  }
}

function pointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/** The problems of an OpenAPI 3.0 document; empty if none. */
export function openApiProblems(doc: unknown): string[] {
  const problems: string[] = [];
  if (!validateShape(doc)) problems.push(...(validateShape.errors ?? []).map((e) => JSON.stringify(e)));
  for (const node of walk(doc)) {
    if (typeof node.$ref === 'string' && pointer(doc, node.$ref) === undefined) problems.push(`unresolved $ref ${node.$ref}`);
  }
  const paths = ((doc as Json).paths ?? {}) as Record<string, Record<string, Json>>;
  const ids = new Set<string>();
  for (const [path, item] of Object.entries(paths)) {
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
    for (const method of METHODS) {
      const op = item[method];
      if (op === undefined) continue;
      if (typeof op.operationId === 'string') {
        if (ids.has(op.operationId)) problems.push(`duplicate operationId ${op.operationId}`);
        ids.add(op.operationId);
      }
      const params = [...((item.parameters as unknown as Json[] | undefined) ?? []), ...((op.parameters as Json[] | undefined) ?? [])].map((p) =>
        typeof p.$ref === 'string' ? ((pointer(doc, p.$ref) ?? {}) as Json) : p,
      );
      const declared = params
        .filter((p) => p.in === 'path')
        .map((p) => String(p.name))
        .sort();
      if (JSON.stringify(declared) !== JSON.stringify(templated)) problems.push(`${method} ${path}: path parameters ${declared} vs template ${templated}`);
      const seen = new Set<string>();
      for (const p of params) {
        const key = `${String(p.in)}:${String(p.name)}`;
        if (seen.has(key)) problems.push(`${method} ${path}: parameter ${key} twice`);
        seen.add(key);
      }
    }
  }
  return problems;
}

/** The script and stylesheet/icon URLs an HTML page references. */
export function referencedUrls(html: string): string[] {
  return [...html.matchAll(/<(?:script|link|img)\b[^>]*?\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
}
