import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { digestsEqual, generateApiKey, generateKeyId, hashApiKey, keyFromAuthorization } from './api-key.js';
import { keysDbPathFor } from './key-store.js';

describe('API key format', () => {
  it('keys are mh_ plus 32 random bytes; ids are short and distinct from keys', () => {
    const key = generateApiKey();
    assert.match(key, /^mh_[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(key.slice(3), 'base64url').length, 32);
    assert.notEqual(generateApiKey(), key);
    assert.match(generateKeyId(), /^k_[0-9a-f]{12}$/);
  });

  it('stores SHA-256 hex and compares digests', () => {
    assert.equal(hashApiKey('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.ok(digestsEqual(hashApiKey('x'), hashApiKey('x')));
    assert.ok(!digestsEqual(hashApiKey('x'), hashApiKey('y')));
  });

  it('reads the raw key or a Bearer key from Authorization', () => {
    assert.equal(keyFromAuthorization('mh_abc'), 'mh_abc');
    assert.equal(keyFromAuthorization('Bearer mh_abc'), 'mh_abc');
    assert.equal(keyFromAuthorization('bearer   mh_abc '), 'mh_abc');
    assert.equal(keyFromAuthorization(undefined), undefined);
    assert.equal(keyFromAuthorization('  '), undefined);
    assert.equal(keyFromAuthorization('Bearer '), undefined);
  });

  it('the keys file sits beside the history database', () => {
    assert.equal(keysDbPathFor('data/maphist.duckdb'), 'data/maphist.keys.duckdb');
    assert.equal(keysDbPathFor('/x/y/andorra.db'), '/x/y/andorra.db.keys.duckdb');
  });
});
