/**
 * `metadata.requestUrl`: GET answers echo the URL as requested; POST answers (form or multipart) the
 * URL rebuilt with the posted fields as its query, which read back gives exactly those fields.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { FastifyRequest } from 'fastify';
import { metadataRequestUrl } from './error-status.js';

function fakeRequest(method: string, url: string, headers: Record<string, string> = {}): FastifyRequest {
  return {
    method,
    url,
    raw: { url },
    headers: { host: 'maphist.example:8080', ...headers },
    hostname: 'maphist.example',
    protocol: 'http',
  } as unknown as FastifyRequest;
}

describe('metadata.requestUrl', () => {
  it('GET: the URL as requested, raw query and all', () => {
    const url = '/v1/elements/count?bboxes=1,2,3,4&filter=name%3D%22a%20b%22';
    assert.equal(
      metadataRequestUrl(fakeRequest('GET', url), [
        ['bboxes', '1,2,3,4'],
        ['filter', 'name="a b"'],
      ]),
      `http://maphist.example:8080${url}`,
    );
  });

  it('POST: the path, `?`, then the query-string fields and the body fields in order; commas, colons and stars stay as they are', () => {
    const pairs: [string, string][] = [
      ['showMetadata', 'true'],
      ['bboxes', 'a:1.5,42.5,1.6,42.6'],
      ['filter', 'name="Carrer 10%" and highway=*'],
    ];
    assert.equal(
      metadataRequestUrl(fakeRequest('POST', '/v1/elements/count?showMetadata=true'), pairs),
      'http://maphist.example:8080/v1/elements/count?showMetadata=true&bboxes=a:1.5,42.5,1.6,42.6&filter=name=%22Carrer%2010%25%22%20and%20highway=*',
    );
  });

  it('POST behind a proxy: the X-REQUEST-URI address, with the fields as its query', () => {
    const request = fakeRequest('POST', '/v1/users/count', { 'x-request-uri': 'https://api.example.org/v1/users/count' });
    assert.equal(metadataRequestUrl(request, [['time', '2014-01-01,2016-01-01']]), 'https://api.example.org/v1/users/count?time=2014-01-01,2016-01-01');
  });

  it('POST without any field: the bare URL', () => {
    assert.equal(metadataRequestUrl(fakeRequest('POST', '/v1/elements/count'), []), 'http://maphist.example:8080/v1/elements/count');
  });

  it('POST: the rebuilt URL, read as a URL, gives back exactly the posted fields (any text)', () => {
    const text = fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: fc.constantFrom(...' "#%&+=?/,;:*{}[]<>|\\\'`^~\n\t') }));
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 6 }), (pairs) => {
        const url = new URL(metadataRequestUrl(fakeRequest('POST', '/v1/elements/count'), pairs));
        assert.equal(url.pathname, '/v1/elements/count');
        assert.deepEqual([...url.searchParams], pairs);
      }),
    );
  });
});
