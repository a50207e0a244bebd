/**
 * An answer sent before the request's body was read to its end (a refusal in the middle of a
 * multipart body, a parse error in a form) must not close the connection with the rest unread:
 * the kernel then resets it (TCP RST), and a client still writing its body sees ECONNRESET
 * instead of the answer. So before such an answer goes out, the rest of the body is read and
 * dropped, up to the body limit; a larger one (refused for its size) is not read, and the answer
 * says `Connection: close`.
 */
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { LIMITS } from './limits.js';

/** How long the rest of a body may take to arrive before the answer goes out anyway. */
const DRAIN_MS = 5000;

export function installUnreadBodyDrain(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const raw = request.raw;
    if (raw.complete || raw.readableEnded || raw.destroyed) return payload;
    const length = Number(request.headers['content-length']);
    if (!(length <= LIMITS.bodyBytes.v1)) {
      reply.header('connection', 'close');
      return payload;
    }
    await drain(raw);
    return payload;
  });
}

function drain(raw: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(finish, DRAIN_MS);
    function finish() {
      clearTimeout(timer);
      raw.off('end', finish).off('close', finish).off('error', finish);
      resolve();
    }
    raw.on('end', finish).on('close', finish).on('error', finish);
    raw.resume();
  });
}
