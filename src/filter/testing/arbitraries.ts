/**
 * fast-check generators of filter trees, shared by the property tests (not used at run time).
 */
import fc from 'fast-check';
import type { OsmType } from '../../core/osm.js';
import type { ConditionNode, CountMeasure, FilterNode, FilterVersion, FloatMeasure, GeometryShape, PatternMatch } from '../ast.js';

export interface TreeOptions {
  version: FilterVersion;
  /** Keys and values to draw from. */
  keys: fc.Arbitrary<string>;
  values: fc.Arbitrary<string>;
  /** Ids and changesets to draw from. */
  ids?: fc.Arbitrary<number>;
  /** Range bounds for real-valued measures. */
  floats?: fc.Arbitrary<number>;
  /** Range bounds for counts. */
  counts?: fc.Arbitrary<number>;
  /** Nesting depth of and/or/not. */
  maxDepth?: number;
}

const osmType: fc.Arbitrary<OsmType> = fc.constantFrom('node', 'way', 'relation');

/** Strings that stress quoting: quotes, backslashes, semicolons, SQL keywords, control characters. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "'; DROP TABLE contributions; --",
    '" OR 1=1 --',
    "\\' OR ''='",
    'x"; SELECT * FROM t; --',
    'and',
    'or',
    'not',
    'in',
    'NULL',
    'TRUE) OR (TRUE',
    '*',
    '',
    '\\',
    '"',
    '\n\r\t',
    'a b',
    '1.5',
    'é',
    '$1',
    '?',
    '/* c */',
    '); DELETE FROM x; (',
  ),
  fc.string({ unit: fc.constantFrom("'", '"', '\\', ';', '-', '(', ')', ' ', 'a', 'S', 'E', 'L', '*', '%', '_', '\n', '\0') }),
  fc.string(),
);

function range<T>(bound: fc.Arbitrary<T>): fc.Arbitrary<[T | null, T | null]> {
  return fc.tuple(fc.option(bound, { nil: null }), fc.option(bound, { nil: null })).filter(([a, b]) => a !== null || b !== null);
}

function ordered(pair: [number | null, number | null]): [number | null, number | null] {
  const [a, b] = pair;
  return a !== null && b !== null && a > b ? [b, a] : [a, b];
}

/** One condition that is valid under `version` and prints to text that parses back to it. */
export function conditionArb(o: TreeOptions): fc.Arbitrary<ConditionNode> {
  const ids = o.ids ?? fc.nat({ max: Number.MAX_SAFE_INTEGER });
  const floats = o.floats ?? fc.double({ min: 0, max: 1e300, noNaN: true }).map((x) => (Object.is(x, -0) ? 0 : x));
  const counts = o.counts ?? fc.nat({ max: 1_000_000 });
  // Version 1 reads a quoted "*" after = or != as the wildcard (reference quirk), so a literal
  // star value cannot be written there.
  const eqValues = o.version === 1 ? o.values.filter((v) => v !== '*') : o.values;
  const shapes: GeometryShape[] = o.version === 1 ? ['point', 'line', 'polygon', 'other'] : ['point', 'line', 'polygon', 'collection'];
  const floatMeasures: FloatMeasure[] = o.version === 1 ? ['area', 'length', 'perimeter', 'roundness', 'squareness'] : ['area', 'length'];
  const arbs: fc.Arbitrary<ConditionNode>[] = [
    fc.record({ kind: fc.constant('tagEquals' as const), key: o.keys, value: eqValues, negated: fc.boolean() }),
    fc.record({ kind: fc.constant('tagExists' as const), key: o.keys, negated: fc.boolean() }),
    fc.record({ kind: fc.constant('tagIn' as const), key: o.keys, values: fc.array(o.values, { minLength: 1, maxLength: 4 }) }),
    fc.record({ kind: fc.constant('type' as const), osmType }),
    fc.record({ kind: fc.constant('idSet' as const), ids: fc.array(ids, { minLength: 1, maxLength: 4 }) }),
    fc.record({
      kind: fc.constant('typedIdSet' as const),
      refs: fc.array(fc.record({ osmType, id: ids }), { minLength: 1, maxLength: 4 }),
    }),
    range(ids).map(([min, max]) => ({ kind: 'idRange' as const, min: ordered([min, max])[0], max: ordered([min, max])[1] })),
    fc.record({ kind: fc.constant('changesetSet' as const), ids: fc.array(ids, { minLength: 1, maxLength: 4 }) }),
    range(ids).map(([min, max]) => ({ kind: 'changesetRange' as const, min: ordered([min, max])[0], max: ordered([min, max])[1] })),
    fc.record({ kind: fc.constant('geometry' as const), shape: fc.constantFrom(...shapes) }),
    fc.tuple(fc.constantFrom(...floatMeasures), range(floats)).map(([measure, r]) => {
      const [min, max] = o.version === 2 ? ordered(r) : r;
      return { kind: 'floatRange' as const, measure, min, max };
    }),
  ];
  if (o.version === 1) {
    arbs.push(
      fc.tuple(fc.constantFrom<CountMeasure>('vertices', 'outers', 'inners'), range(counts)).map(([measure, [min, max]]) => ({
        kind: 'countRange' as const,
        measure,
        min,
        max,
      })),
    );
  } else {
    arbs.push(
      fc.record({
        kind: fc.constant('tagPattern' as const),
        key: o.keys,
        match: fc.constantFrom<PatternMatch>('prefix', 'suffix', 'substring'),
        text: o.values,
      }),
    );
  }
  return fc.oneof(...arbs).map(plain);
}

/** fc.record builds null-prototype objects; the parser builds plain ones. */
function plain<T>(x: T): T {
  if (Array.isArray(x)) return x.map(plain) as T;
  if (x !== null && typeof x === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) out[k] = plain(v);
    return out as T;
  }
  return x;
}

/** A whole tree: conditions combined with n-ary and/or and not, at most `maxDepth` levels deep. */
export function treeArb(o: TreeOptions): fc.Arbitrary<FilterNode> {
  const leaf = conditionArb(o);
  const maxDepth = o.maxDepth ?? 4;
  const { tree } = fc.letrec<{ tree: FilterNode }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', maxDepth, withCrossShrink: true },
      leaf,
      fc.record({ kind: fc.constant('and' as const), operands: fc.array(tie('tree'), { minLength: 2, maxLength: 4 }) }),
      fc.record({ kind: fc.constant('or' as const), operands: fc.array(tie('tree'), { minLength: 2, maxLength: 4 }) }),
      fc.record({ kind: fc.constant('not' as const), operand: tie('tree') }),
    ),
  }));
  return tree.map(plain);
}
