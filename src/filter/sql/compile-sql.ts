/**
 * AST → a boolean SQL expression over the contributions table, for any SqlDialect.
 *
 * Safety: keys and values become dictionary ids before anything is rendered, so the SQL consists
 * of fixed column names, operators and numbers rendered by literals.ts. A key or value the
 * dictionary does not know makes its condition constant false (true under `not`), folded away.
 *
 * Literals are inlined rather than bound as parameters: all of them are validated numbers, inline
 * constants let DuckDB fold them and prune row groups by min/max for id, changeset and measure
 * ranges, the text composes into bigger planner queries without renumbering parameters, and the
 * old ClickHouse the second engine targets has no query parameters.
 */
import { MaphistError } from '../../core/errors.js';
import { OSM_TYPE_CODE, type OsmType } from '../../core/osm.js';
import type { Filter, FilterNode, FilterVersion } from '../ast.js';
import { printFilter } from '../printer.js';
import { geometryRule, negatedGeometryRules, POLYGONAL, type GeometryRule } from '../semantics.js';
import type { TagSource } from '../state.js';
import type { TagDictionary } from '../tag-dictionary.js';
import { GEOMETRY_CODE, KEY_MASK_BITS, packTag, packedKeyRange, type FilterColumn } from './columns.js';
import type { SqlDialect } from './dialect.js';
import { sqlFloat, sqlInteger } from './literals.js';

export interface SqlCompileOptions {
  dialect: SqlDialect;
  dictionary: TagDictionary;
  /** Which tag columns to test: `tag_kv` (default), `tag_kv_before`, or either (v2 contributions). */
  tags?: TagSource;
  /** Qualify every column with this table alias (letters, digits, `_`). */
  tableAlias?: string;
  /** Most value ids one `key ~ pattern` may expand to before FILTER_TOO_COMPLEX (default 50 000). */
  maxPatternValues?: number;
}

export interface CompiledSql {
  /** A parenthesised boolean SQL expression, or the dialect's TRUE/FALSE literal. */
  sql: string;
  /** `true`/`false` when the filter folded to a constant (e.g. an unknown key), else `null`. */
  constant: boolean | null;
}

const ALIAS = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DEFAULT_MAX_PATTERN_VALUES = 50_000;

/** Compiles a parsed filter to a WHERE-clause expression. */
export function compileSql(filter: Filter, options: SqlCompileOptions): CompiledSql {
  if (options.tableAlias !== undefined && !ALIAS.test(options.tableAlias)) {
    throw new RangeError(`invalid table alias ${JSON.stringify(options.tableAlias)}`);
  }
  const mode = options.tags ?? 'current';
  const make = (before: boolean): SqlCompiler => new SqlCompiler(options, filter.version, before);
  let expr: Expr;
  if (mode === 'current') expr = make(false).compile(filter.ast, false);
  else if (mode === 'before') expr = make(true).compile(filter.ast, false);
  else expr = or([make(false).compile(filter.ast, false), make(true).compile(filter.ast, false)]);
  if (typeof expr === 'boolean') {
    return { sql: expr ? options.dialect.trueLiteral : options.dialect.falseLiteral, constant: expr };
  }
  return { sql: expr, constant: null };
}

/** SQL text, or a constant still to be folded. */
type Expr = string | boolean;

function and(parts: Expr[]): Expr {
  const kept: string[] = [];
  for (const p of parts) {
    if (p === false) return false;
    if (p !== true) kept.push(p);
  }
  if (kept.length === 0) return true;
  return kept.length === 1 ? kept[0]! : `(${kept.join(' AND ')})`;
}

function or(parts: Expr[]): Expr {
  const kept: string[] = [];
  for (const p of parts) {
    if (p === true) return true;
    if (p !== false) kept.push(p);
  }
  if (kept.length === 0) return false;
  return kept.length === 1 ? kept[0]! : `(${kept.join(' OR ')})`;
}

function not(p: Expr): Expr {
  return typeof p === 'boolean' ? !p : `(NOT ${p})`;
}

function inIntegers(column: string, values: readonly number[]): string {
  const unique = [...new Set(values)];
  if (unique.length === 1) return `(${column} = ${sqlInteger(unique[0]!)})`;
  return `(${column} IN (${unique.map(sqlInteger).join(', ')}))`;
}

function between(column: string, min: string | null, max: string | null): Expr {
  return and([min === null ? true : `(${column} >= ${min})`, max === null ? true : `(${column} <= ${max})`]);
}

class SqlCompiler {
  private readonly d: SqlDialect;
  private readonly dict: TagDictionary;
  private readonly tagKv: string;
  private readonly keyMask: string;

  constructor(
    private readonly options: SqlCompileOptions,
    private readonly version: FilterVersion,
    before: boolean,
  ) {
    this.d = options.dialect;
    this.dict = options.dictionary;
    this.tagKv = this.col(before ? 'tag_kv_before' : 'tag_kv');
    this.keyMask = this.col(before ? 'key_mask_before' : 'key_mask');
  }

  private col(name: FilterColumn): string {
    return this.d.column(name, this.options.tableAlias);
  }

  compile(node: FilterNode, negated: boolean): Expr {
    switch (node.kind) {
      case 'const':
        return node.value !== negated;
      case 'not':
        return this.compile(node.operand, !negated);
      case 'and':
      case 'or': {
        const parts = node.operands.map((o) => this.compile(o, negated));
        return (node.kind === 'and') !== negated ? and(parts) : or(parts);
      }
      case 'geometry': {
        if (negated) {
          const others = negatedGeometryRules(node.shape, this.version);
          return others === null ? not(this.rule(geometryRule(node.shape, this.version))) : or(others.map((r) => this.rule(r)));
        }
        return this.rule(geometryRule(node.shape, this.version));
      }
      default: {
        const e = this.condition(node);
        return negated ? not(e) : e;
      }
    }
  }

  private rule(r: GeometryRule): Expr {
    return and([
      inIntegers(
        this.col('geometry_type'),
        r.geometryTypes.map((g) => GEOMETRY_CODE[g]),
      ),
      r.osmTypes === null ? true : this.types(r.osmTypes),
    ]);
  }

  private types(types: readonly OsmType[]): string {
    return inIntegers(
      this.col('type'),
      types.map((t) => OSM_TYPE_CODE[t]),
    );
  }

  private condition(node: Exclude<FilterNode, { kind: 'const' | 'not' | 'and' | 'or' | 'geometry' }>): Expr {
    switch (node.kind) {
      case 'tagEquals': {
        const e = this.hasAnyValue(node.key, (k) => this.known([this.dict.valueId(k, node.value)]));
        return node.negated ? not(e) : e;
      }
      case 'tagExists': {
        const e = this.hasKey(node.key);
        return node.negated ? not(e) : e;
      }
      case 'tagIn':
        return this.hasAnyValue(node.key, (k) => this.known(node.values.map((v) => this.dict.valueId(k, v))));
      case 'tagPattern':
        return this.hasAnyValue(node.key, (k) => {
          const ids = this.known(this.dict.valueIdsMatching(k, { match: node.match, text: node.text }));
          const max = this.options.maxPatternValues ?? DEFAULT_MAX_PATTERN_VALUES;
          if (ids.length > max) {
            throw new MaphistError(
              'FILTER_TOO_COMPLEX',
              `the pattern ${printFilter(node)} matches ${ids.length} different values; at most ${max} are supported, make the pattern more specific`,
              { values: ids.length, maxPatternValues: max },
            );
          }
          return ids;
        });
      case 'type':
        return this.types([node.osmType]);
      case 'idSet':
        return inIntegers(this.col('id'), node.ids);
      case 'typedIdSet': {
        const byType = new Map<OsmType, number[]>();
        for (const r of node.refs) byType.set(r.osmType, [...(byType.get(r.osmType) ?? []), r.id]);
        return or([...byType].map(([t, ids]) => and([this.types([t]), inIntegers(this.col('id'), ids)])));
      }
      case 'idRange':
        return between(this.col('id'), nullable(node.min, sqlInteger), nullable(node.max, sqlInteger));
      case 'changesetSet':
        return inIntegers(this.col('changeset'), node.ids);
      case 'changesetRange':
        return between(this.col('changeset'), nullable(node.min, sqlInteger), nullable(node.max, sqlInteger));
      case 'floatRange': {
        const c = this.col(node.measure);
        return and([`(${c} IS NOT NULL)`, between(c, nullable(node.min, sqlFloat), nullable(node.max, sqlFloat))]);
      }
      case 'countRange': {
        const c = this.col(node.measure);
        const range = and([`(${c} IS NOT NULL)`, between(c, sqlInteger(node.min ?? 0), nullable(node.max, sqlInteger))]);
        if (node.measure === 'vertices') return range;
        return and([
          inIntegers(
            this.col('geometry_type'),
            POLYGONAL.map((g) => GEOMETRY_CODE[g]),
          ),
          range,
        ]);
      }
    }
  }

  /** Value ids the dictionary knew, deduplicated. */
  private known(ids: readonly (number | undefined)[]): number[] {
    return [...new Set(ids.filter((i): i is number => i !== undefined))];
  }

  /** `key=*`: a key_mask bit test for the frequent keys, a range test over tag_kv otherwise. */
  private hasKey(key: string): Expr {
    const k = this.dict.keyId(key);
    if (k === undefined) return false;
    if (k < KEY_MASK_BITS) return this.maskBit(k);
    const [lo, hi] = packedKeyRange(k);
    return this.d.listHasInRange(this.tagKv, sqlInteger(lo), sqlInteger(hi));
  }

  private maskBit(k: number): string {
    return `(${this.d.bitAnd(this.keyMask, sqlInteger(1n << BigInt(k)))} <> 0)`;
  }

  /**
   * The tag_kv element of key `k` (< 63) when the key is present. The store keeps tag_kv sorted
   * with one entry per key and key_mask in step with it (src/store/schema.ts), so the entries
   * before key k are exactly the keys whose mask bits lie below bit k: the element sits at
   * 1 + popcount(key_mask & (2^k − 1)). One element read instead of a scan of the list.
   */
  private keyEntry(k: number): string {
    const index = k === 0 ? '1' : `(${this.d.bitCount(this.d.bitAnd(this.keyMask, sqlInteger((1n << BigInt(k)) - 1n)))} + 1)`;
    return this.d.listElement(this.tagKv, index);
  }

  /** The element has `key` with one of the value ids `valueIds(keyId)` returns. */
  private hasAnyValue(key: string, valueIds: (keyId: number) => number[]): Expr {
    const k = this.dict.keyId(key);
    if (k === undefined) return false;
    const ids = valueIds(k);
    if (ids.length === 0) return false;
    const packed = ids.map((v) => sqlInteger(packTag(k, v)));
    if (k >= KEY_MASK_BITS) {
      return packed.length === 1 ? this.d.listContains(this.tagKv, packed[0]!) : this.d.listHasAny(this.tagKv, packed);
    }
    const entry = this.keyEntry(k);
    let test: string;
    if (packed.length === 1) {
      test = `(${entry} = ${packed[0]})`;
    } else if (Math.max(...ids) < 63) {
      // Small value ids (frequent values, when the store numbers values by frequency): one shift
      // into a 63-bit set instead of an IN list. A non-negative offset ≥ 63, or an element of
      // another key, lands on bit 63, which is clear.
      const set = ids.reduce((b, v) => b | (1n << BigInt(v)), 0n);
      const offset = this.d.bitAnd(`(${entry} - ${sqlInteger(packTag(k, 0))})`, sqlInteger(INT64_MAX));
      test = `(${this.d.bitAnd(this.d.shiftRight(sqlInteger(set), this.d.least(offset, '63')), '1')} = 1)`;
    } else {
      test = `(${entry} IN (${packed.join(', ')}))`;
    }
    // The mask bit first: most rows fail it without the list being read.
    return and([this.maskBit(k), test]);
  }
}

const INT64_MAX = 2n ** 63n - 1n;

function nullable(x: number | null, render: (x: number) => string): string | null {
  return x === null ? null : render(x);
}
