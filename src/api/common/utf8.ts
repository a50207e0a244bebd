/**
 * Text a client sends must be UTF-8: both API versions refuse percent-encoded bytes that are not
 * UTF-8 (URLSearchParams would turn them into U+FFFD silently, Fastify's query parser would leave
 * them encoded) and bodies that are not UTF-8, each with its own error body.
 */

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as UTF-8 text, or undefined when they are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

export interface BadPercentEncoding {
  /** The parameter whose name or value holds the bytes (undefined: they are in a name). */
  readonly parameter: string | undefined;
  /** The offending run of `%XX` (shortened). */
  readonly run: string;
}

/**
 * The first run of percent-encoded bytes in form or query text that does not decode as UTF-8, or
 * undefined when every run does. A `%` not followed by two hex digits is not a run (it stays as it is).
 */
export function findBadPercentEncoding(text: string): BadPercentEncoding | undefined {
  if (!text.includes('%')) return undefined;
  for (const m of text.matchAll(/(?:%[0-9A-Fa-f]{2})+/g)) {
    const run = m[0];
    const bytes = new Uint8Array(run.length / 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
    if (bytes.every((b) => b < 0x80) || decodeUtf8(bytes) !== undefined) continue;
    const start = text.lastIndexOf('&', m.index) + 1;
    const eq = text.indexOf('=', start);
    const name = eq >= 0 && eq < m.index ? text.slice(start, eq) : undefined;
    return {
      parameter: name === undefined ? undefined : name.length > 40 ? `${name.slice(0, 40)}…` : name,
      run: run.length > 36 ? `${run.slice(0, 36)}…` : run,
    };
  }
  return undefined;
}

/** The message for a BadPercentEncoding. */
export function badPercentEncodingMessage(bad: BadPercentEncoding): string {
  const where = bad.parameter === undefined ? 'A parameter name' : `The parameter '${bad.parameter}'`;
  return `${where} holds percent-encoded bytes that are not UTF-8 (${bad.run}). Percent-encode text as UTF-8 (as encodeURIComponent does).`;
}
