/**
 * The few Java string and number conventions the reference's parameter syntax depends on, so that
 * inputs it accepted (`8.67, 49.4`, a trailing comma, `1e3`) are accepted here too.
 */

/**
 * Java's `String.split` with a literal separator: trailing empty fields are dropped, but an empty
 * input gives one empty field (`"".split(",")` is `[""]`).
 */
export function javaSplit(text: string, separator: string): string[] {
  if (text === '') return [''];
  const parts = text.split(separator);
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

const JAVA_DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?$/;

/**
 * Java's `Double.parseDouble` for decimal input (surrounding whitespace and control characters
 * are ignored, exponents and a `d`/`f` suffix accepted). Returns undefined where Java would throw,
 * and also for NaN/Infinity, which no parameter can use.
 */
export function parseJavaDouble(text: string): number | undefined {
  const t = javaTrim(text);
  if (!JAVA_DECIMAL.test(t)) return undefined;
  const n = Number(t.replace(/[fFdD]$/, ''));
  return Number.isFinite(n) ? n : undefined;
}

/** Java's `String.trim`: strips every character ≤ U+0020 from both ends. */
export function javaTrim(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) <= 0x20) start++;
  while (end > start && text.charCodeAt(end - 1) <= 0x20) end--;
  return text.slice(start, end);
}

/** Java's `Double.toString` for the values a message prints (limits in seconds): `100.0`, `0.5`, `1.0E7`. */
export { javaDoubleToString } from '../../format/java-double.js';

/**
 * How many fields `javaSplit` would give when `text` is split at every character of `separators`
 * (one or two characters; trailing empty fields dropped), counted without splitting: a request's list is measured against
 * its limit before it is built.
 */
export function javaSplitCount(text: string, separators: string): number {
  if (text === '') return 1;
  const a = separators.charCodeAt(0);
  const b = separators.length > 1 ? separators.charCodeAt(1) : a;
  const isSeparator = (i: number): boolean => {
    const c = text.charCodeAt(i);
    return c === a || c === b;
  };
  let end = text.length;
  while (end > 0 && isSeparator(end - 1)) end--;
  if (end === 0) return 0;
  let n = 1;
  for (let i = 0; i < end; i++) if (isSeparator(i)) n++;
  return n;
}
