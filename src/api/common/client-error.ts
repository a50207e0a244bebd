/**
 * Requests Node's HTTP parser refuses before Fastify sees them (Node's `clientError`): a request
 * line and headers over `MAX_HEADER_BYTES` (431 `HEADERS_TOO_LARGE`), bytes that are not HTTP (400
 * `REQUEST_MALFORMED`), a request too slow to arrive (408). The connection is closed after the
 * answer, so the answer says `Connection: close`: Fastify's default answer did not, and a
 * keep-alive client (Node's http Agent, Python's urllib3) put the socket back in its pool and sent
 * its next request on a connection the server had just closed, which then failed with ECONNRESET
 * without any answer (found by the fuzzer: a refused long URL followed by a POST).
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { formatBytes, MAX_HEADER_BYTES } from './limits.js';

/** How long the closing connection may take to deliver the answer before it is destroyed. */
const CLOSE_MS = 1000;

export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  // A reset connection has nothing left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          `The request line and headers together are longer than the ${formatBytes(MAX_HEADER_BYTES)} the server accepts (HEADERS_TOO_LARGE); send long parameters in a POST body (application/x-www-form-urlencoded).`,
        ]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request did not arrive in time; send it again.']
        : [400, 'The request is not valid HTTP/1.1 (REQUEST_MALFORMED).'];
  if (socket.writable) {
    const body = JSON.stringify({ status, error: STATUS_CODES[status], message });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  setTimeout(() => socket.destroy(), CLOSE_MS).unref();
}
