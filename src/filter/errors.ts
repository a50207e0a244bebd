/**
 * How filter errors read. Every message starts with `line L, column C:` (1-based, columns count
 * characters of the user's text as sent: nothing is stripped first), then says what was expected and
 * what was found, then, for the mistakes people make most, a short hint. The codes come from the
 * project's catalog (src/core/errors.ts); each API version wraps the message in its own envelope.
 */
import { MaphistError, type ErrorCode } from '../core/errors.js';

export interface SourcePosition {
  /** 1-based line. */
  line: number;
  /** 1-based column, in characters (code points) of that line. */
  column: number;
  /** 0-based UTF-16 offset into the text. */
  offset: number;
}

/** Line and column of a UTF-16 offset. */
export function positionAt(source: string, offset: number): SourcePosition {
  const clamped = Math.max(0, Math.min(offset, source.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < clamped; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  const column = Array.from(source.slice(lineStart, clamped)).length + 1;
  return { line, column, offset: clamped };
}

/** A coded filter error whose message points at `offset`. */
export function filterErrorAt(code: ErrorCode, source: string, offset: number, text: string, details: Record<string, unknown> = {}): MaphistError {
  const pos = positionAt(source, offset);
  return new MaphistError(code, `line ${pos.line}, column ${pos.column}: ${text}`, {
    line: pos.line,
    column: pos.column,
    offset: pos.offset,
    ...details,
  });
}

/** `line L, column C: expected A, B or C, found X. Hint: …` as a FILTER_SYNTAX error. */
export function syntaxError(source: string, offset: number, expected: readonly string[], hint?: string): MaphistError {
  const found = describeFound(source, offset);
  let text = `expected ${joinAlternatives(expected)}, found ${found}`;
  if (hint !== undefined) text += `. Hint: ${hint}`;
  return filterErrorAt('FILTER_SYNTAX', source, offset, text, { expected: [...expected], found, hint });
}

/** "a", "a or b", "a, b or c". */
export function joinAlternatives(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? 'nothing';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** Puts a piece of filter text in backticks for a message. */
export function quoteText(text: string): string {
  return `\`${text}\``;
}

const FOUND_MAX = 24;
const WORDISH = /[^\s()",=!~*'`]/u;

/** What the parser met at `offset`, for the "found …" half of a message. */
export function describeFound(source: string, offset: number): string {
  if (offset >= source.length) return 'the end of the filter';
  const chars = Array.from(source.slice(offset, offset + FOUND_MAX * 2));
  const first = chars[0]!;
  if (!WORDISH.test(first)) return describeChar(first);
  let word = '';
  for (const c of chars) {
    if (!WORDISH.test(c) || word.length >= FOUND_MAX) break;
    word += c;
  }
  return quoteText(word);
}

function describeChar(c: string): string {
  if (c === ' ' || c === '\u00a0') return 'a space';
  if (c === '\t') return 'a tab';
  if (c === '\n' || c === '\r') return 'a line break';
  const cp = c.codePointAt(0)!;
  if (cp < 0x20 || cp === 0x7f) return `the control character U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return quoteText(c);
}

/** The word (run of non-delimiter characters) at `offset`, for hints. */
export function wordAt(source: string, offset: number): string {
  let end = offset;
  while (end < source.length && WORDISH.test(source[end]!)) end++;
  return source.slice(offset, end);
}

// ---- hints for the common mistakes ----

const LOWERCASE_OPERATORS = ['and', 'or', 'not', 'in'];

/** What the parser knows about the tag value it just read, for the "unquoted value" hints. */
export interface AfterValue {
  key: string;
  /** The bare value as read, and where it started and ended. */
  value: string;
  valueStart: number;
  valueEnd: number;
}

/**
 * A hint for what was found at `offset` where an operator, a condition or a keyword was expected,
 * or undefined when no common mistake fits.
 */
export function hintAt(source: string, offset: number, afterValue?: AfterValue): string | undefined {
  const word = wordAt(source, offset);
  const lower = word.toLowerCase();
  if (word !== lower && LOWERCASE_OPERATORS.includes(lower)) {
    return `operators are lowercase: write ${quoteText(lower)} instead of ${quoteText(word)}`;
  }
  const rest = source.slice(offset);
  if (rest.startsWith('&')) return `write ${quoteText('and')} instead of ${quoteText(rest.startsWith('&&') ? '&&' : '&')}`;
  if (rest.startsWith('|')) return `write ${quoteText('or')} instead of ${quoteText(rest.startsWith('||') ? '||' : '|')}`;
  if (rest.startsWith('!') && !rest.startsWith('!=')) return `write ${quoteText('not')} instead of ${quoteText('!')}`;
  if (rest.startsWith("'")) return 'strings are quoted with double quotes ("…"), not single quotes';
  if (rest.startsWith('`')) return 'strings are quoted with double quotes ("…"), not backticks';
  if (afterValue !== undefined && offset === afterValue.valueEnd && offset < source.length && !/[\s()]/.test(source[offset]!)) {
    // `name=a.b`, `maxspeed=3.5`, `name=café`: the value runs on past what a bare word may hold.
    let end = offset;
    while (end < source.length && !/[\s()]/.test(source[end]!)) end++;
    const whole = source.slice(afterValue.valueStart, end);
    return `a value with characters other than letters, digits, _, : and - must be double-quoted: ${quoteText(`${printKey(afterValue.key)}=${JSON.stringify(whole)}`)}`;
  }
  for (const op of ['and', 'or', 'not']) {
    if (word.length > op.length && word.startsWith(op) && /^[a-z0-9_"(]/.test(word.slice(op.length)) && LOWERCASE_OPERATORS.every((o) => o !== word)) {
      if (followedByCondition(source, offset + word.length)) return `put a space after ${quoteText(op)}`;
    }
  }
  if (word !== '' && followedByCondition(source, offset + word.length)) {
    return `join two conditions with ${quoteText('and')} or ${quoteText('or')}`;
  }
  if (afterValue !== undefined && word !== '') {
    // `name=Colorado River`
    return `a value with spaces must be double-quoted: ${quoteText(`${printKey(afterValue.key)}=${JSON.stringify(`${afterValue.value} ${word}`)}`)}`;
  }
  if (/^[^\x00-\x7f]/.test(rest)) {
    return 'keys and values with characters other than a-z, A-Z, 0-9, _, : and - must be double-quoted ("…")';
  }
  return undefined;
}

/** True when the text at `offset` continues like a condition (`=`, `!=`, `~`, or `:` after a word). */
function followedByCondition(source: string, offset: number): boolean {
  const rest = source.slice(offset).trimStart();
  return rest.startsWith('=') || rest.startsWith('!=') || rest.startsWith('~') || rest.startsWith(':');
}

function printKey(key: string): string {
  return /^[A-Za-z0-9_:-]+$/.test(key) ? key : JSON.stringify(key);
}
