/**
 * Character-level scanning for the filter parser: whitespace, bare and quoted strings, numbers and
 * whole-word keywords. The parser drives it position by position (the grammar is context-sensitive:
 * `type:way` is a selector, `type:way=yes` a tag), so there is no separate token stream.
 */
import { filterErrorAt, positionAt, quoteText, syntaxError } from './errors.js';

/** Characters of an unquoted key or value: `[A-Za-z0-9_:-]`, as in both references. */
export function isBareChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || // a-z
    (code >= 65 && code <= 90) || // A-Z
    (code >= 48 && code <= 57) || // 0-9
    code === 95 || // _
    code === 58 || // :
    code === 45 // -
  );
}

export const BARE_STRING = /^[A-Za-z0-9_:-]+$/;

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

const WHITESPACE = /\s/;

export class Scanner {
  pos = 0;

  constructor(readonly source: string) {}

  get atEnd(): boolean {
    return this.pos >= this.source.length;
  }

  /** The character `ahead` places on, or '' past the end. */
  peek(ahead = 0): string {
    return this.source[this.pos + ahead] ?? '';
  }

  code(ahead = 0): number {
    return this.source.charCodeAt(this.pos + ahead);
  }

  skipWhitespace(): void {
    while (this.pos < this.source.length && WHITESPACE.test(this.source[this.pos]!)) this.pos++;
  }

  /** True when the text here starts with `s` (no boundary check). */
  lookingAt(s: string): boolean {
    return this.source.startsWith(s, this.pos);
  }

  /** Consumes `s` if the text here starts with it. */
  accept(s: string): boolean {
    if (!this.lookingAt(s)) return false;
    this.pos += s.length;
    return true;
  }

  /**
   * True when `word` is here as a whole word: not followed by a character of a bare string. This is
   * the deliberate difference to the reference, where `notable=yes` meant `not able=yes`.
   */
  atKeyword(word: string): boolean {
    return this.lookingAt(word) && !isBareChar(this.source.charCodeAt(this.pos + word.length));
  }

  /** The bare word here (possibly empty), without consuming it. */
  peekBare(): string {
    let end = this.pos;
    while (end < this.source.length && isBareChar(this.source.charCodeAt(end))) end++;
    return this.source.slice(this.pos, end);
  }

  readBare(): string {
    const word = this.peekBare();
    this.pos += word.length;
    return word;
  }

  /** Reads `"…"` with `\n`, `\r`, `\t` and `\x` → x escapes; the scanner stands on the opening quote. */
  readQuoted(): string {
    const start = this.pos;
    this.pos++;
    let out = '';
    for (;;) {
      if (this.atEnd) {
        const p = positionAt(this.source, start);
        const where = p.line === 1 ? `column ${p.column}` : `line ${p.line}, column ${p.column}`;
        throw syntaxError(this.source, this.pos, [quoteText('"')], `the quoted string that starts at ${where} is not closed; write \\" for a quote inside it`);
      }
      const c = this.source[this.pos++]!;
      if (c === '"') return out;
      if (c !== '\\') {
        out += c;
        continue;
      }
      if (this.atEnd) continue; // reported as unterminated on the next turn
      const e = this.source[this.pos++]!;
      out += e === 'n' ? '\n' : e === 'r' ? '\r' : e === 't' ? '\t' : e;
    }
  }

  /** True when a number starts here. */
  atNumber(): boolean {
    return isDigit(this.code()) || (this.peek() === '.' && isDigit(this.code(1)));
  }

  /** A non-negative integer that JavaScript holds exactly (ids, changesets, counts). */
  readInteger(what: string): number {
    const start = this.pos;
    if (!isDigit(this.code())) throw syntaxError(this.source, this.pos, [what]);
    while (isDigit(this.code())) this.pos++;
    const digits = this.source.slice(start, this.pos);
    if (this.peek() === '.' && this.source[this.pos + 1] !== '.') {
      throw syntaxError(this.source, this.pos, [quoteText('..'), quoteText(')')], `${what} must be a whole number`);
    }
    const n = Number(digits);
    if (!Number.isSafeInteger(n)) {
      throw filterErrorAt(
        'FILTER_SYNTAX',
        this.source,
        start,
        `the number ${digits.length > 30 ? `${digits.slice(0, 30)}…` : digits} is too large (the largest is ${Number.MAX_SAFE_INTEGER})`,
      );
    }
    return n;
  }

  /**
   * A non-negative decimal number: `12`, `1.5`, `.5`, `1e6`, `1.5E-3`. A `.` is only part of the
   * number when another `.` does not follow (so `1..2` is a range).
   */
  readDecimal(what: string): number {
    const start = this.pos;
    let digits = 0;
    while (isDigit(this.code())) {
      this.pos++;
      digits++;
    }
    if (this.peek() === '.' && this.peek(1) !== '.') {
      this.pos++;
      while (isDigit(this.code())) {
        this.pos++;
        digits++;
      }
    }
    if (digits === 0) {
      this.pos = start;
      throw syntaxError(this.source, this.pos, [what]);
    }
    if (this.peek() === 'e' || this.peek() === 'E') {
      const sign = this.peek(1) === '+' || this.peek(1) === '-' ? 1 : 0;
      if (isDigit(this.code(1 + sign))) {
        this.pos += 1 + sign;
        while (isDigit(this.code())) this.pos++;
      }
    }
    const text = this.source.slice(start, this.pos);
    const x = Number(text);
    if (!Number.isFinite(x)) {
      throw filterErrorAt('FILTER_SYNTAX', this.source, start, `the number ${text} is too large`);
    }
    return x;
  }
}
