/**
 * The filter language parser: one recursive-descent grammar for both API versions (README.md has
 * the EBNF). It tracks positions for error messages, enforces the limits as it goes (so a hostile
 * input cannot recurse deeply or run long), and builds the plain AST of ast.ts.
 */
import type { OsmType } from '../core/osm.js';
import type { CountMeasure, Filter, FilterNode, FilterVersion, FloatMeasure, GeometryShape, TypedId } from './ast.js';
import { setSpan } from './ast.js';
import { filterErrorAt, hintAt, positionAt, quoteText, syntaxError, type AfterValue } from './errors.js';
import { Scanner, isBareChar } from './lexer.js';
import { checkLength, resolveLimits, type FilterLimits } from './limits.js';
import { checkDnfSize } from './normalize.js';

export interface ParseOptions {
  /** Which API version's dialect of the language to accept. */
  version: FilterVersion;
  /** Override some or all of DEFAULT_LIMITS. */
  limits?: Partial<FilterLimits>;
}

/** Parses a filter; throws a coded MaphistError (FILTER_*) on any problem. The empty filter matches everything. */
export function parseFilter(source: string, options: ParseOptions): Filter {
  if (typeof source !== 'string') throw new TypeError('filter text must be a string');
  const limits = resolveLimits(options.limits);
  checkLength(source, limits);
  const ast = new Parser(source, options.version, limits).parse();
  checkDnfSize(ast, limits.maxDnfTerms);
  return { version: options.version, ast, source };
}

const OSM_TYPES: readonly string[] = ['node', 'way', 'relation'];

/** Selector names before `:`, longest first so `geometry.vertices` wins over `geometry`. */
const SELECTOR =
  /(geometry\.vertices|geometry\.outers|geometry\.inners|geometry\.roundness|geometry\.squareness|changeset\.created_by|geometry|changeset|contributor|perimeter|hashtag|length|type|area|id)\s*:/y;
const SELECTOR_ANY_CASE = new RegExp(SELECTOR.source, 'yi');

const FLOAT_MEASURES: Record<string, FloatMeasure> = {
  area: 'area',
  length: 'length',
  perimeter: 'perimeter',
  'geometry.roundness': 'roundness',
  'geometry.squareness': 'squareness',
};
const COUNT_MEASURES: Record<string, CountMeasure> = {
  'geometry.vertices': 'vertices',
  'geometry.outers': 'outers',
  'geometry.inners': 'inners',
};
/** Selectors the version-2 language does not offer (docs/spec/v2.md, "Filter language differences"). */
const NOT_IN_VERSION_2 = new Set(['perimeter', 'geometry.vertices', 'geometry.outers', 'geometry.inners', 'geometry.roundness', 'geometry.squareness']);

const CONDITION = 'a condition such as `key=value`, `type:way` or `id:123`';
const VALUE = 'a value (a word or a "quoted string")';

class Parser {
  private readonly s: Scanner;
  private depth = 0;
  /** Offsets of the `(` not yet closed. */
  private readonly openParens: number[] = [];
  /** The last tag value read without quotes, for the "quote your value" hints. */
  private lastBare: AfterValue | undefined;

  constructor(
    private readonly source: string,
    private readonly version: FilterVersion,
    private readonly limits: FilterLimits,
  ) {
    this.s = new Scanner(source);
  }

  parse(): FilterNode {
    this.s.skipWhitespace();
    if (this.s.atEnd) return { kind: 'const', value: true };
    const node = this.parseOr();
    this.s.skipWhitespace();
    if (!this.s.atEnd) throw this.errorAfterCondition();
    return node;
  }

  // ---- boolean structure: or < and < not < ( ) ----

  private parseOr(): FilterNode {
    return this.parseChain('or', () => this.parseAnd());
  }

  private parseAnd(): FilterNode {
    return this.parseChain('and', () => this.parseNot());
  }

  /** `x op y op z` as one n-ary node (left to right); parenthesised operands stay nested. */
  private parseChain(op: 'and' | 'or', operand: () => FilterNode): FilterNode {
    const start = this.here();
    const first = operand();
    const operands = [first];
    for (;;) {
      const save = this.s.pos;
      this.s.skipWhitespace();
      if (!this.s.atKeyword(op)) {
        this.s.pos = save;
        break;
      }
      this.s.pos += op.length;
      operands.push(operand());
    }
    if (operands.length === 1) return first;
    return this.spanned({ kind: op, operands }, start);
  }

  private parseNot(): FilterNode {
    this.s.skipWhitespace();
    if (this.s.atKeyword('not') && !this.tagOperatorAt(this.s.pos + 3)) {
      const start = this.s.pos;
      this.s.pos += 3;
      this.enter();
      const operand = this.parseNot();
      this.depth--;
      return this.spanned({ kind: 'not', operand }, start);
    }
    return this.parseUnit();
  }

  private parseUnit(): FilterNode {
    this.s.skipWhitespace();
    if (this.s.peek() !== '(') return this.parseCondition();
    this.enter();
    this.openParens.push(this.s.pos);
    this.s.pos++;
    const node = this.parseOr();
    this.s.skipWhitespace();
    if (!this.s.accept(')')) throw this.errorAfterCondition();
    this.openParens.pop();
    this.depth--;
    return node;
  }

  private enter(): void {
    if (++this.depth > this.limits.maxDepth) {
      throw filterErrorAt(
        'FILTER_TOO_DEEP',
        this.source,
        this.s.pos,
        `the filter nests parentheses and \`not\` more than ${this.limits.maxDepth} levels deep`,
        { maxDepth: this.limits.maxDepth },
      );
    }
  }

  /** The error for whatever follows a complete condition where only `and`, `or`, `)` or the end may. */
  private errorAfterCondition(): Error {
    const at = this.s.pos;
    const open = this.openParens[this.openParens.length - 1];
    const expected = [quoteText('and'), quoteText('or'), open !== undefined ? quoteText(')') : 'the end of the filter'];
    let hint: string | undefined;
    if (this.s.peek() === ')' && open === undefined) hint = 'this `)` has no matching `(`';
    else if (this.s.atEnd && open !== undefined) hint = `the \`(\` at ${positionText(this.source, open)} is not closed`;
    else {
      const lb = this.lastBare;
      const afterValue = lb !== undefined && lb.valueEnd <= at && this.source.slice(lb.valueEnd, at).trim() === '' ? lb : undefined;
      hint = hintAt(this.source, at, afterValue);
    }
    return syntaxError(this.source, at, expected, hint);
  }

  // ---- conditions ----

  /** True when a tag operator (`=`, `!=`, `~`, `in (`) follows `offset` after optional whitespace. */
  private tagOperatorAt(offset: number): boolean {
    const save = this.s.pos;
    this.s.pos = offset;
    this.s.skipWhitespace();
    const yes = this.s.peek() === '=' || this.s.lookingAt('!=') || this.s.peek() === '~' || this.atInOperator();
    this.s.pos = save;
    return yes;
  }

  /** `in` as a whole word followed by `(` (so a key may be called `in`). */
  private atInOperator(): boolean {
    if (!this.s.atKeyword('in')) return false;
    const save = this.s.pos;
    this.s.pos += 2;
    this.s.skipWhitespace();
    const yes = this.s.peek() === '(';
    this.s.pos = save;
    return yes;
  }

  private parseCondition(): FilterNode {
    const start = this.s.pos;
    const c = this.s.peek();
    let key: string;
    let quoted = false;
    if (c === '"') {
      key = this.s.readQuoted();
      quoted = true;
    } else if (c !== '' && isBareChar(c.charCodeAt(0))) {
      key = this.s.readBare();
    } else {
      const hint = c === '=' || c === '!' ? 'a key is missing before the operator' : hintAt(this.source, start);
      throw syntaxError(this.source, start, [quoteText('('), quoteText('not'), CONDITION], hint);
    }
    this.s.skipWhitespace();
    if (this.s.accept('!=')) return this.parseTagValue(key, true, start);
    if (this.s.accept('=')) return this.parseTagValue(key, false, start);
    if (this.s.peek() === '~') return this.parsePattern(key, start);
    if (this.atInOperator()) {
      this.s.pos += 2;
      return this.parseTagIn(key, start);
    }
    if (!quoted) {
      SELECTOR.lastIndex = start;
      const m = SELECTOR.exec(this.source);
      if (m !== null) {
        this.s.pos = SELECTOR.lastIndex;
        return this.parseSelector(m[1]!, start);
      }
    }
    throw syntaxError(this.source, this.s.pos, this.tagOperators(), this.tagOperatorHint(key, quoted, start));
  }

  private tagOperators(): string[] {
    return [quoteText('='), quoteText('!='), quoteText('in'), quoteText('~')];
  }

  private tagOperatorHint(key: string, quoted: boolean, start: number): string | undefined {
    if (!quoted && ['and', 'or', 'not'].includes(key.toLowerCase())) {
      return `operators are lowercase: write ${quoteText(key.toLowerCase())} instead of ${quoteText(key)}`;
    }
    if (!quoted) {
      SELECTOR_ANY_CASE.lastIndex = start;
      const m = SELECTOR_ANY_CASE.exec(this.source);
      if (m !== null) return `selectors are lowercase: write ${quoteText(`${m[1]!.toLowerCase()}:`)}`;
    }
    if (this.s.peek() === ':' || (!quoted && key.includes(':') && this.s.pos === start + key.length)) {
      const colon = this.s.peek() === ':' ? -1 : key.lastIndexOf(':');
      const example = colon < 0 ? `${key}=…` : `${key.slice(0, colon)}=${key.slice(colon + 1)}`;
      return `a tag condition is written with \`=\` (like ${quoteText(example)}); \`:\` belongs to selectors like \`type:way\` and to keys like \`addr:street\``;
    }
    return hintAt(this.source, this.s.pos);
  }

  private parseTagValue(key: string, negated: boolean, start: number): FilterNode {
    this.s.skipWhitespace();
    if (this.s.accept('*')) return this.spanned({ kind: 'tagExists', key, negated }, start);
    const value = this.readString(key, [VALUE, quoteText('*')]);
    if (this.version === 1 && value.quoted && value.text === '*') {
      // Reference quirk kept for version 1: the value is compared with "*" after unquoting,
      // so `highway="*"` is `highway=*`.
      return this.spanned({ kind: 'tagExists', key, negated }, start);
    }
    return this.spanned({ kind: 'tagEquals', key, value: value.text, negated }, start);
  }

  private parseTagIn(key: string, start: number): FilterNode {
    this.s.skipWhitespace();
    if (!this.s.accept('(')) throw syntaxError(this.source, this.s.pos, [quoteText('(')], hintAt(this.source, this.s.pos));
    this.s.skipWhitespace();
    if (this.s.peek() === ')') {
      throw syntaxError(this.source, this.s.pos, [VALUE], `the list after \`in\` needs at least one value`);
    }
    const values: string[] = [];
    for (;;) {
      values.push(this.readString(key, [VALUE]).text);
      this.s.skipWhitespace();
      if (this.s.accept(')')) break;
      if (!this.s.accept(',')) {
        const lb = this.lastBare;
        const after = lb !== undefined && this.source.slice(lb.valueEnd, this.s.pos).trim() === '' ? lb : undefined;
        throw syntaxError(this.source, this.s.pos, [quoteText(','), quoteText(')')], hintAt(this.source, this.s.pos, after));
      }
      this.s.skipWhitespace();
    }
    return this.spanned({ kind: 'tagIn', key, values }, start);
  }

  /** `key ~ prefix*`, `~ *suffix`, `~ *substring*`: version 2's patterns, in version 1 too (a maphist extension there). */
  private parsePattern(key: string, start: number): FilterNode {
    this.s.pos++; // ~
    this.s.skipWhitespace();
    const leading = this.s.accept('*');
    const value = this.readString(key, leading ? [`${VALUE} right after \`*\``] : [VALUE, quoteText('*')]);
    const trailing = this.s.accept('*');
    if (!leading && !trailing) {
      // `key ~ value` without a wildcard is a plain comparison, as in the version-2 reference.
      return this.spanned({ kind: 'tagEquals', key, value: value.text, negated: false }, start);
    }
    const match = leading && trailing ? 'substring' : leading ? 'suffix' : 'prefix';
    return this.spanned({ kind: 'tagPattern', key, match, text: value.text }, start);
  }

  /** A quoted or bare string (a tag value). */
  private readString(key: string, expected: string[]): { text: string; quoted: boolean } {
    const c = this.s.peek();
    if (c === '"') {
      this.lastBare = undefined;
      return { text: this.s.readQuoted(), quoted: true };
    }
    if (c !== '' && isBareChar(c.charCodeAt(0))) {
      const valueStart = this.s.pos;
      const text = this.s.readBare();
      this.lastBare = { key, value: text, valueStart, valueEnd: this.s.pos };
      return { text, quoted: false };
    }
    throw syntaxError(this.source, this.s.pos, expected, hintAt(this.source, this.s.pos));
  }

  // ---- selectors (`name:…`) ----

  private parseSelector(name: string, start: number): FilterNode {
    if (name === 'contributor') {
      throw filterErrorAt('FILTER_SYNTAX', this.source, start, '`contributor:` filters are not enabled on this server');
    }
    if (name === 'hashtag' || name === 'changeset.created_by') {
      throw filterErrorAt('FILTER_SYNTAX', this.source, start, `\`${name}:\` filters are not supported by this server`);
    }
    if (this.version === 2 && NOT_IN_VERSION_2.has(name)) {
      throw filterErrorAt('FILTER_NOT_ALLOWED', this.source, start, `\`${name}:\` is not available in version 2 of the filter language`, { selector: name });
    }
    this.s.skipWhitespace();
    switch (name) {
      case 'type':
        return this.spanned({ kind: 'type', osmType: this.readOsmType() }, start);
      case 'id':
        return this.parseIdValue(start);
      case 'changeset':
        return this.parseChangesetValue(start);
      case 'geometry':
        return this.spanned({ kind: 'geometry', shape: this.readShape() }, start);
    }
    const floatMeasure = FLOAT_MEASURES[name];
    if (floatMeasure !== undefined) {
      const [min, max] = this.readRange(name, false, false);
      return this.spanned({ kind: 'floatRange', measure: floatMeasure, min, max }, start);
    }
    const countMeasure = COUNT_MEASURES[name]!;
    if (countMeasure !== 'vertices' && this.s.atNumber()) {
      const n = this.s.readInteger('a whole number');
      return this.spanned({ kind: 'countRange', measure: countMeasure, min: n, max: n }, start);
    }
    const [min, max] = this.readRange(name, true, false);
    return this.spanned({ kind: 'countRange', measure: countMeasure, min, max }, start);
  }

  private readOsmType(): OsmType {
    const at = this.s.pos;
    const word = this.s.readBare();
    if (OSM_TYPES.includes(word)) return word as OsmType;
    const hint = OSM_TYPES.includes(word.toLowerCase()) ? `types are lowercase: write ${quoteText(word.toLowerCase())}` : undefined;
    throw syntaxError(this.source, at, [quoteText('node'), quoteText('way'), quoteText('relation')], hint);
  }

  private readShape(): GeometryShape {
    const at = this.s.pos;
    const word = this.s.readBare();
    const shapes = this.version === 1 ? ['point', 'line', 'polygon', 'other'] : ['point', 'line', 'polygon', 'collection'];
    if (shapes.includes(word)) return word as GeometryShape;
    let hint: string | undefined;
    const lower = word.toLowerCase();
    // Version 2 renamed `other` to `collection`, which also matches MultiPoint and MultiLineString:
    // the old name is refused with the new one rather than read with a meaning it did not have.
    if (this.version === 2 && lower === 'other')
      hint = 'version 2 of the filter language calls this `geometry:collection` (it also matches MultiPoint and MultiLineString)';
    else if (lower !== word && (shapes.includes(lower) || lower === 'other')) hint = `geometry types are lowercase: write ${quoteText(lower)}`;
    else if (this.version === 1 && lower === 'collection') hint = 'version 1 of the filter language calls this `geometry:other`';
    else if (lower === 'multipolygon' || lower === 'area') hint = '`geometry:polygon` selects polygons and multipolygons';
    else if (lower === 'linestring' || lower === 'multilinestring') hint = 'write `geometry:line`';
    throw syntaxError(this.source, at, shapes.map(quoteText), hint);
  }

  private parseIdValue(start: number): FilterNode {
    if (this.s.peek() === '(') {
      this.s.pos++;
      this.s.skipWhitespace();
      if (OSM_TYPES.includes(this.s.peekBare())) {
        const refs = this.readList(() => this.readTypedId(), 'an id like `node/1`');
        return this.spanned({ kind: 'typedIdSet', refs }, start);
      }
      return this.readIdsOrRange(start, 'id');
    }
    if (OSM_TYPES.includes(this.s.peekBare())) {
      return this.spanned({ kind: 'typedIdSet', refs: [this.readTypedId()] }, start);
    }
    if (!this.s.atNumber()) {
      throw syntaxError(
        this.source,
        this.s.pos,
        ['an id (`123`)', 'a typed id (`node/123`)', 'a list (`(1, 2)`)', 'a range (`(1..9)`)'],
        hintAt(this.source, this.s.pos),
      );
    }
    return this.spanned({ kind: 'idSet', ids: [this.s.readInteger('an id')] }, start);
  }

  private parseChangesetValue(start: number): FilterNode {
    if (this.s.peek() === '(') {
      this.s.pos++;
      this.s.skipWhitespace();
      return this.readIdsOrRange(start, 'changeset');
    }
    if (!this.s.atNumber()) {
      throw syntaxError(this.source, this.s.pos, ['a changeset id', 'a list (`(1, 2)`)', 'a range (`(1..9)`)'], hintAt(this.source, this.s.pos));
    }
    return this.spanned({ kind: 'changesetSet', ids: [this.s.readInteger('a changeset id')] }, start);
  }

  /** After `id:(` or `changeset:(`: `1, 2, 3)`, `1..3)`, `1..)` or `..3)`. */
  private readIdsOrRange(start: number, what: 'id' | 'changeset'): FilterNode {
    const rangeStart = this.s.pos - 1;
    const kind = what === 'id' ? ('idRange' as const) : ('changesetRange' as const);
    const setKind = what === 'id' ? ('idSet' as const) : ('changesetSet' as const);
    if (this.s.accept('..')) {
      this.s.skipWhitespace();
      const max = this.s.readInteger('a number');
      this.expectClose();
      return this.spanned({ kind, min: null, max }, start);
    }
    if (this.s.peek() === ')') {
      throw syntaxError(this.source, this.s.pos, [`an ${what === 'id' ? 'id' : 'changeset id'}`], 'a list needs at least one id');
    }
    if (what === 'changeset' && OSM_TYPES.includes(this.s.peekBare())) {
      throw syntaxError(this.source, this.s.pos, ['a changeset id'], 'changesets have no type: write `changeset:(1, 2)`');
    }
    const first = this.s.readInteger(what === 'id' ? 'an id' : 'a changeset id');
    this.s.skipWhitespace();
    if (this.s.accept('..')) {
      this.s.skipWhitespace();
      const max = this.s.atNumber() ? this.s.readInteger('a number') : null;
      this.expectClose();
      const [lo, hi] = this.orderedBounds(first, max, rangeStart, true);
      return this.spanned({ kind, min: lo, max: hi }, start);
    }
    const ids = [first];
    for (;;) {
      if (this.s.accept(')')) break;
      if (!this.s.accept(',')) {
        const expected = ids.length === 1 ? [quoteText(','), quoteText('..'), quoteText(')')] : [quoteText(','), quoteText(')')];
        throw syntaxError(this.source, this.s.pos, expected, hintAt(this.source, this.s.pos));
      }
      this.s.skipWhitespace();
      if (OSM_TYPES.includes(this.s.peekBare())) {
        throw syntaxError(this.source, this.s.pos, ['an id'], 'a list holds either plain ids or typed ids (`node/1`), not both');
      }
      ids.push(this.s.readInteger(what === 'id' ? 'an id' : 'a changeset id'));
      this.s.skipWhitespace();
    }
    return this.spanned({ kind: setKind, ids }, start);
  }

  private readTypedId(): TypedId {
    if (!OSM_TYPES.includes(this.s.peekBare())) {
      const hint = this.s.atNumber() ? 'a list holds either plain ids or typed ids (`node/1`), not both' : hintAt(this.source, this.s.pos);
      throw syntaxError(this.source, this.s.pos, ['`node/…`', '`way/…`', '`relation/…`'], hint);
    }
    const osmType = this.s.readBare() as OsmType;
    if (!this.s.accept('/')) {
      const hint = /^\s*\//.test(this.source.slice(this.s.pos)) ? `write ${quoteText(`${osmType}/…`)} without spaces` : undefined;
      throw syntaxError(this.source, this.s.pos, [quoteText('/')], hint);
    }
    return { osmType, id: this.s.readInteger('an id') };
  }

  /** `item (, item)* )` after the opening parenthesis and whitespace. */
  private readList<T>(item: () => T, what: string): T[] {
    const items = [item()];
    for (;;) {
      this.s.skipWhitespace();
      if (this.s.accept(')')) return items;
      if (!this.s.accept(',')) throw syntaxError(this.source, this.s.pos, [quoteText(','), quoteText(')')], hintAt(this.source, this.s.pos));
      this.s.skipWhitespace();
      if (this.s.peek() === ')') throw syntaxError(this.source, this.s.pos, [what]);
      items.push(item());
    }
  }

  /** `(min..max)`, `(min..)`, `(..max)` for measures. */
  private readRange(name: string, integers: boolean, swap: boolean): [number | null, number | null] {
    if (!this.s.accept('(')) {
      const hint = this.s.atNumber() ? `ranges are written in parentheses: ${quoteText(`${name}:(min..max)`)}` : hintAt(this.source, this.s.pos);
      throw syntaxError(this.source, this.s.pos, [quoteText('(')], hint);
    }
    const rangeStart = this.s.pos - 1;
    this.s.skipWhitespace();
    const read = (): number => (integers ? this.s.readInteger('a whole number') : this.s.readDecimal('a number'));
    let min: number | null = null;
    if (!this.s.accept('..')) {
      min = read();
      this.s.skipWhitespace();
      if (!this.s.accept('..')) throw syntaxError(this.source, this.s.pos, [quoteText('..')], hintAt(this.source, this.s.pos));
    }
    this.s.skipWhitespace();
    const max = min === null || this.s.atNumber() ? read() : null;
    this.expectClose();
    return this.orderedBounds(min, max, rangeStart, swap);
  }

  private expectClose(): void {
    this.s.skipWhitespace();
    if (!this.s.accept(')')) throw syntaxError(this.source, this.s.pos, [quoteText(')')], hintAt(this.source, this.s.pos));
  }

  /**
   * Version 1 swaps reversed id/changeset bounds (reference quirk: `id:(3..1)` is `id:(1..3)`) and
   * keeps reversed measure bounds (they match nothing); version 2 rejects reversed bounds.
   */
  private orderedBounds(min: number | null, max: number | null, at: number, swap: boolean): [number | null, number | null] {
    if (min === null || max === null || min <= max) return [min, max];
    if (this.version === 2) {
      throw filterErrorAt('FILTER_SYNTAX', this.source, at, `the upper bound ${max} is smaller than the lower bound ${min}`);
    }
    return swap ? [max, min] : [min, max];
  }

  // ---- helpers ----

  private here(): number {
    const save = this.s.pos;
    this.s.skipWhitespace();
    const at = this.s.pos;
    this.s.pos = save;
    return at;
  }

  private spanned<T extends FilterNode>(node: T, start: number): T {
    setSpan(node, { start, end: this.s.pos });
    return node;
  }
}

function positionText(source: string, offset: number): string {
  const p = positionAt(source, offset);
  return p.line === 1 ? `column ${p.column}` : `line ${p.line}, column ${p.column}`;
}
