/**
 * The validators of the version 2 routes. Fastify's default ajv options would silently drop unknown
 * fields (`removeAdditional`), coerce JSON types and stop at the first problem; the reference
 * forbids extra fields (422), takes JSON types as they are and reports every problem. Query strings
 * are text, so there scalars are coerced ("true" → true). `verbose` gives the error converter the
 * union titles.
 */
import AjvModule, { type Options, type ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';

interface AjvLike {
  compile(schema: unknown): ValidateFunction;
}
const AjvClass = ((AjvModule as unknown as { default?: unknown }).default ?? AjvModule) as new (o: Options) => AjvLike;

const COMMON: Options = { allErrors: true, verbose: true, strict: false, useDefaults: false, removeAdditional: false };
const bodyAjv = new AjvClass({ ...COMMON, coerceTypes: false });
const queryAjv = new AjvClass({ ...COMMON, coerceTypes: true });

export const v2ValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const validate = (httpPart === 'querystring' ? queryAjv : bodyAjv).compile(schema);
  return validate as unknown as ReturnType<FastifySchemaCompiler<unknown>>;
};
