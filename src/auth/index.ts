/** API keys and quotas of version 2 (docs/api-keys.md). */
export { generateApiKey, generateKeyId, hashApiKey, keyFromAuthorization, KEY_PREFIX } from './api-key.js';
export { keysDbPathFor, type KeyRecord } from './key-store.js';
export { RateLimiter, type Limits, type Decision } from './rate-limiter.js';
export { createApiKeyHook, DEFAULT_DAILY_QUOTA, DEFAULT_PER_MINUTE, type ApiKeyGuard, type ApiKeyHookOptions } from './api-key-hook.js';
