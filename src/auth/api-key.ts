/**
 * The API key format. A key is `mh_` followed by 32 random bytes in base64url (46 characters).
 * Only its SHA-256 digest is stored: a key carries 256 bits of entropy, so nobody can guess it
 * back from the digest, and a slow password hash (scrypt, argon2) would only cost time on every
 * request. The key id is a separate random, non-secret handle for `list`, `revoke`, `set-quota`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const KEY_PREFIX = 'mh_';
const KEY_BYTES = 32;

/** A new secret key, e.g. `mh_3q2-7w…` (shown to its owner once, never stored). */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(KEY_BYTES).toString('base64url');
}

/** A new key id, e.g. `k_9f86d081884c`: not secret, names the key in the CLI and the store. */
export function generateKeyId(): string {
  return 'k_' + randomBytes(6).toString('hex');
}

/** The stored form of a key: SHA-256, lowercase hex. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Constant-time equality of two hex digests of equal length. */
export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The key carried by an `Authorization` header: the raw key, as the reference's clients send it,
 * or `Bearer <key>`. Undefined when the header is absent or blank.
 */
export function keyFromAuthorization(header: string | string[] | undefined): string | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  const key = value.replace(/^bearer(\s+|$)/i, '').trim();
  return key === '' ? undefined : key;
}
