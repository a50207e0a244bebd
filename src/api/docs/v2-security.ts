/**
 * The API-key security scheme of version 2 (the key is sent raw in the `Authorization` header).
 * Statistics and extraction routes reference it in their route schema, `schema.security:
 * API_KEY_SECURITY`, so the OpenAPI document marks them; the key check itself is the ApiKeyHook
 * (src/api/v2/services.ts).
 */
import type { OpenAPIV3 } from 'openapi-types';

export const API_KEY_SCHEME = 'ApiKey';

export const API_KEY_SECURITY_SCHEME: OpenAPIV3.ApiKeySecurityScheme = {
  type: 'apiKey',
  in: 'header',
  name: 'Authorization',
  description: 'The API key, sent as is (no `Bearer` prefix) in the `Authorization` header.',
};

/** `schema.security` of a route that needs the key. */
export const API_KEY_SECURITY: { [scheme: string]: string[] }[] = [{ [API_KEY_SCHEME]: [] }];
