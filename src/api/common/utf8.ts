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

const HEX = new Int8Array(128).fill(-1);
for (let c = 0; c < 10; c++) HEX[48 + c] = c;
for (let c = 0; c < 6; c++) HEX[65 + c] = HEX[97 + c] = 10 + c;
/** The value of the hex digit at `i`, or -1. */
const hexAt = (text: string, i: number) => {
  const c = text.charCodeAt(i);
  return c < 128 ? HEX[c] : -1;
};

/**
 * The first run of percent-encoded bytes in form or query text that does not decode as UTF-8, or
 * undefined when every run does. A `%` not followed by two hex digits is not a run (it stays as it is).
 * One pass without allocation over runs of ASCII bytes (`%2C`, the commas of coordinates, make up
 * most of a large form body): only a run with a byte of 0x80 or more is decoded.
 */
export function findBadPercentEncoding(text: string): BadPercentEncoding | undefined {
  let i = text.indexOf('%');
  while (i >= 0) {
    let j = i;
    let high = false;
    let hi: number;
    while (text.charCodeAt(j) === 37 && (hi = hexAt(text, j + 1)) >= 0 && hexAt(text, j + 2) >= 0) {
      if (hi >= 8) high = true;
      j += 3;
    }
    if (j === i) {
      i = text.indexOf('%', i + 1);
      continue;
    }
    if (high) {
      const bytes = new Uint8Array((j - i) / 3);
      for (let k = 0; k < bytes.length; k++) bytes[k] = hexAt(text, i + 3 * k + 1) * 16 + hexAt(text, i + 3 * k + 2);
      if (decodeUtf8(bytes) === undefined) {
        const run = text.slice(i, j);
        const start = text.lastIndexOf('&', i) + 1;
        const eq = text.indexOf('=', start);
        const name = eq >= 0 && eq < i ? text.slice(start, eq) : undefined;
        return {
          parameter: name === undefined ? undefined : name.length > 40 ? `${name.slice(0, 40)}…` : name,
          run: run.length > 36 ? `${run.slice(0, 36)}…` : run,
        };
      }
    }
    i = text.indexOf('%', j);
  }
  return undefined;
}

/** The message for a BadPercentEncoding. */
export function badPercentEncodingMessage(bad: BadPercentEncoding): string {
  const where = bad.parameter === undefined ? 'A parameter name' : `The parameter '${bad.parameter}'`;
  return `${where} holds percent-encoded bytes that are not UTF-8 (${bad.run}). Percent-encode text as UTF-8 (as encodeURIComponent does).`;
}
