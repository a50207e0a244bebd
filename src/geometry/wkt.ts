/**
 * Well-Known Text, 2D: reading (for v2 `aoi` bodies and test expectations) and writing.
 * Keywords are case-insensitive; `EMPTY` is accepted for every type; an `SRID=n;` prefix is
 * skipped; Z/M coordinates are rejected. Errors name the character position.
 */
import type { Geometry, Position } from './types.js';

/** Parses one WKT geometry. Throws an Error naming the position of the first problem. */
export function parseWkt(text: string): Geometry {
  const parser = new WktParser(text);
  parser.skipSrid();
  const g = parser.geometry();
  parser.expectEnd();
  return g;
}

const SRID = /SRID\s*=\s*-?\d+\s*;/iy;
const NUMBER = /[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/y;
const WORD = /[A-Za-z]+/y;

/** A parsed empty point is POINT(NaN NaN), as in WKB; this is how it is written back. */
const EMPTY_POINT: Position = [NaN, NaN];

class WktParser {
  private pos = 0;

  constructor(private readonly text: string) {}

  skipSrid(): void {
    this.skipSpace();
    const match = this.match(SRID);
    if (match) this.pos += match.length;
  }

  expectEnd(): void {
    this.skipSpace();
    if (this.pos < this.text.length) this.fail(`unexpected "${this.text.slice(this.pos, this.pos + 12)}" after the geometry`);
  }

  geometry(): Geometry {
    const start = this.pos;
    const keyword = this.word();
    const dimension = this.peekWord();
    if (dimension === 'Z' || dimension === 'M' || dimension === 'ZM') this.fail(`${dimension} coordinates are not supported`);
    switch (keyword) {
      case 'POINT':
        return { type: 'Point', coordinates: this.emptyOr(() => this.parenthesized(() => this.position()), EMPTY_POINT) };
      case 'LINESTRING':
        return { type: 'LineString', coordinates: this.emptyOr(() => this.positionList(), []) };
      case 'POLYGON':
        return { type: 'Polygon', coordinates: this.emptyOr(() => this.listOf(() => this.positionList()), []) };
      case 'MULTIPOINT':
        return { type: 'MultiPoint', coordinates: this.emptyOr(() => this.listOf(() => this.multiPointMember()), []) };
      case 'MULTILINESTRING':
        return { type: 'MultiLineString', coordinates: this.emptyOr(() => this.listOf(() => this.positionList()), []) };
      case 'MULTIPOLYGON':
        return {
          type: 'MultiPolygon',
          coordinates: this.emptyOr(() => this.listOf(() => this.listOf(() => this.positionList())), []),
        };
      case 'GEOMETRYCOLLECTION':
        return { type: 'GeometryCollection', geometries: this.emptyOr(() => this.listOf(() => this.geometry()), []) };
      default:
        this.pos = start;
        return this.fail(keyword === '' ? 'expected a geometry type' : `unknown geometry type "${keyword}"`);
    }
  }

  /** `EMPTY` or the body read by `read`. */
  private emptyOr<T>(read: () => T, empty: T): T {
    if (this.peekWord() === 'EMPTY') {
      this.word();
      return empty;
    }
    return read();
  }

  /** MULTIPOINT members may be written `(1 2)` or bare `1 2`. */
  private multiPointMember(): Position {
    this.skipSpace();
    if (this.text[this.pos] === '(') return this.parenthesized(() => this.position());
    return this.position();
  }

  private positionList(): Position[] {
    return this.listOf(() => this.position());
  }

  /** `( item, item, … )` with at least one item. */
  private listOf<T>(item: () => T): T[] {
    this.expect('(');
    const out: T[] = [item()];
    while (this.accept(',')) out.push(item());
    this.expect(')');
    return out;
  }

  private parenthesized<T>(read: () => T): T {
    this.expect('(');
    const value = read();
    this.expect(')');
    return value;
  }

  private position(): Position {
    const x = this.number();
    const y = this.number();
    this.skipSpace();
    const c = this.text[this.pos];
    if (c !== undefined && c !== ',' && c !== ')') this.fail('expected "," or ")" after two coordinates (only 2D is supported)');
    return [x, y];
  }

  private number(): number {
    this.skipSpace();
    const match = this.match(NUMBER);
    if (!match) return this.fail('expected a number');
    this.pos += match.length;
    return Number(match);
  }

  private word(): string {
    this.skipSpace();
    const match = this.match(WORD);
    if (!match) return '';
    this.pos += match.length;
    return match.toUpperCase();
  }

  /** The text matched by a sticky pattern at the current position, or null. */
  private match(pattern: RegExp): string | null {
    pattern.lastIndex = this.pos;
    const m = pattern.exec(this.text);
    return m ? m[0] : null;
  }

  private peekWord(): string {
    const saved = this.pos;
    const w = this.word();
    this.pos = saved;
    return w;
  }

  private accept(c: string): boolean {
    this.skipSpace();
    if (this.text[this.pos] !== c) return false;
    this.pos++;
    return true;
  }

  private expect(c: string): void {
    if (!this.accept(c)) this.fail(`expected "${c}"`);
  }

  private skipSpace(): void {
    const t = this.text;
    while (this.pos < t.length && (t[this.pos] === ' ' || t[this.pos] === '\n' || t[this.pos] === '\t' || t[this.pos] === '\r')) this.pos++;
  }

  private fail(message: string): never {
    const found = this.pos < this.text.length ? `"${this.text.slice(this.pos, this.pos + 12)}"` : 'end of input';
    throw new Error(`WKT: ${message} at position ${this.pos} (found ${found})`);
  }
}

/** Writes a geometry as WKT with the shortest decimal that reads back to the same double. */
export function toWkt(g: Geometry): string {
  switch (g.type) {
    case 'Point':
      return isEmptyPoint(g.coordinates) ? 'POINT EMPTY' : `POINT(${position(g.coordinates)})`;
    case 'LineString':
      return g.coordinates.length === 0 ? 'LINESTRING EMPTY' : `LINESTRING${positionList(g.coordinates)}`;
    case 'Polygon':
      return g.coordinates.length === 0 ? 'POLYGON EMPTY' : `POLYGON${rings(g.coordinates)}`;
    case 'MultiPoint':
      return g.coordinates.length === 0 ? 'MULTIPOINT EMPTY' : `MULTIPOINT(${g.coordinates.map((p) => `(${position(p)})`).join(',')})`;
    case 'MultiLineString':
      return g.coordinates.length === 0 ? 'MULTILINESTRING EMPTY' : `MULTILINESTRING${rings(g.coordinates)}`;
    case 'MultiPolygon':
      return g.coordinates.length === 0 ? 'MULTIPOLYGON EMPTY' : `MULTIPOLYGON(${g.coordinates.map(rings).join(',')})`;
    case 'GeometryCollection':
      return g.geometries.length === 0 ? 'GEOMETRYCOLLECTION EMPTY' : `GEOMETRYCOLLECTION(${g.geometries.map(toWkt).join(',')})`;
  }
}

function isEmptyPoint(p: Position): boolean {
  return p.length < 2 || (Number.isNaN(p[0]) && Number.isNaN(p[1]));
}

function rings(list: Position[][]): string {
  return `(${list.map(positionList).join(',')})`;
}

function positionList(list: Position[]): string {
  return `(${list.map(position).join(',')})`;
}

function position(p: Position): string {
  return `${plainNumber(p[0])} ${plainNumber(p[1])}`;
}

/**
 * The shortest round-tripping decimal, without exponent notation (some WKT readers reject
 * `1e-7`): JavaScript's own formatting, expanded when it chose an exponent.
 */
export function plainNumber(n: number): string {
  const s = String(n);
  if (!s.includes('e')) return s;
  const [mantissa, exponentText] = s.split('e');
  const negative = mantissa.startsWith('-');
  const unsigned = negative ? mantissa.slice(1) : mantissa;
  const dot = unsigned.indexOf('.');
  const digits = unsigned.replace('.', '');
  /** Where the decimal point goes in `digits`. */
  const pointAt = (dot === -1 ? unsigned.length : dot) + Number(exponentText);
  let out: string;
  if (pointAt <= 0) out = `0.${'0'.repeat(-pointAt)}${digits}`;
  else if (pointAt >= digits.length) out = digits + '0'.repeat(pointAt - digits.length);
  else out = `${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
  return negative ? `-${out}` : out;
}
