import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DuckDBInstance } from '@duckdb/node-api';
import { isMaphistError } from '../../core/errors.js';
import { parseFilter } from '../parser.js';
import { InMemoryTagDictionary } from '../tag-dictionary.js';
import { nastyString, treeArb } from '../testing/arbitraries.js';
import { walk, type Filter, type FilterNode, type FilterVersion } from '../ast.js';
import { compileSql, type SqlCompileOptions } from './compile-sql.js';
import { duckdbDialect } from './duckdb-dialect.js';
import { sqlFloat, sqlInteger } from './literals.js';

function dictionary(): InMemoryTagDictionary {
  const d = new InMemoryTagDictionary();
  d.add('highway', 'residential'); // key 0, values 0..
  d.add('highway', 'track');
  d.add('building', 'yes'); // key 1
  for (let i = 2; i < 63; i++) d.add(`filler${i}`);
  d.add('surface', 'asphalt'); // key 63: no mask bit
  d.add('surface', 'gravel');
  return d;
}

const sql = (text: string, version: FilterVersion = 1, options: Partial<SqlCompileOptions> = {}): string =>
  compileSql(parseFilter(text, { version }), { dialect: duckdbDialect, dictionary: dictionary(), ...options }).sql;

describe('compileSql (DuckDB)', () => {
  it('key=* on a frequent key is a key_mask bit test', () => {
    assert.equal(sql('building=* and type:way'), '((("key_mask" & 2) <> 0) AND ("type" = 1))');
  });
  it('key=* on a rare key is a range test over tag_kv', () => {
    assert.equal(sql('surface=*'), `(len(list_filter("tag_kv", lambda t: t >= ${63n << 32n} AND t <= ${(63n << 32n) + 4294967295n})) > 0)`);
  });
  it('key=value tests the packed tag, behind the mask bit when there is one', () => {
    assert.equal(sql('highway=track'), '((("key_mask" & 1) <> 0) AND ("tag_kv"[1] = 1))');
    assert.equal(sql('building=yes'), '((("key_mask" & 2) <> 0) AND ("tag_kv"[(bit_count(("key_mask" & 1)) + 1)] = 4294967296))');
    assert.equal(sql('surface=gravel'), `list_contains("tag_kv", ${(63n << 32n) | 1n})`);
    assert.equal(sql('highway!=track'), '(NOT ((("key_mask" & 1) <> 0) AND ("tag_kv"[1] = 1)))');
  });
  it('in-lists drop unknown values; small value ids become a bit set', () => {
    assert.equal(
      sql('highway in (residential, nope, track)'),
      '((("key_mask" & 1) <> 0) AND (((3 >> least((("tag_kv"[1] - 0) & 9223372036854775807), 63)) & 1) = 1))',
    );
    assert.equal(sql('highway in (nope, track)'), '((("key_mask" & 1) <> 0) AND ("tag_kv"[1] = 1))');
    assert.equal(sql('surface in (asphalt, gravel)'), `list_has_any("tag_kv", [${63n << 32n}, ${(63n << 32n) | 1n}]::BIGINT[])`);
  });
  it("in-lists with large value ids use IN on the key's element", () => {
    const d = dictionary();
    for (let i = 0; i < 70; i++) d.add('building', `v${i}`);
    const f = parseFilter('building in (v0, v69)', { version: 1 });
    assert.equal(
      compileSql(f, { dialect: duckdbDialect, dictionary: d }).sql,
      `((("key_mask" & 2) <> 0) AND ("tag_kv"[(bit_count(("key_mask" & 1)) + 1)] IN (${(1n << 32n) + 1n}, ${(1n << 32n) + 70n})))`,
    );
  });
  it('unknown keys and values fold to constants', () => {
    const c = (t: string, v: FilterVersion = 1) => compileSql(parseFilter(t, { version: v }), { dialect: duckdbDialect, dictionary: dictionary() });
    assert.deepEqual(c('nokey=x'), { sql: 'FALSE', constant: false });
    assert.deepEqual(c('highway=nope'), { sql: 'FALSE', constant: false });
    assert.deepEqual(c('nokey!=x'), { sql: 'TRUE', constant: true });
    assert.deepEqual(c('not nokey=*'), { sql: 'TRUE', constant: true });
    assert.deepEqual(c('highway in (a, b)'), { sql: 'FALSE', constant: false });
    assert.deepEqual(c('highway ~ zz*', 2), { sql: 'FALSE', constant: false });
    assert.deepEqual(c('nokey=x or type:node'), { sql: '("type" = 0)', constant: null });
    assert.deepEqual(c('nokey=x and type:node'), { sql: 'FALSE', constant: false });
    assert.deepEqual(c(''), { sql: 'TRUE', constant: true });
  });
  it('ids, changesets, measures', () => {
    assert.equal(sql('id:(node/1, way/2, node/3)'), '((("type" = 0) AND ("id" IN (1, 3))) OR (("type" = 1) AND ("id" = 2)))');
    assert.equal(sql('id:(5..)'), '("id" >= 5)');
    assert.equal(sql('changeset:(1, 2, 2)'), '("changeset" IN (1, 2))');
    assert.equal(sql('area:(0.1..2)'), '(("area" IS NOT NULL) AND (("area" >= 1e-1) AND ("area" <= 2e+0)))');
    assert.equal(sql('geometry.inners:(..3)'), '(("geometry_type" IN (3, 6)) AND (("inners" IS NOT NULL) AND (("inners" >= 0) AND ("inners" <= 3))))');
  });
  it('geometry, per version', () => {
    assert.equal(sql('geometry:polygon'), '(("geometry_type" IN (3, 6)) AND ("type" IN (1, 2)))');
    assert.equal(sql('geometry:polygon', 2), '("geometry_type" IN (3, 6))');
    assert.equal(sql('not geometry:line', 2), '(NOT ("geometry_type" = 2))');
  });
  it('targets the _before columns, or both', () => {
    assert.equal(sql('highway=track', 2, { tags: 'before' }), '((("key_mask_before" & 1) <> 0) AND ("tag_kv_before"[1] = 1))');
    assert.equal(
      sql('building=* and type:way', 2, { tags: 'currentOrBefore', tableAlias: 'c' }),
      '((((c."key_mask" & 2) <> 0) AND (c."type" = 1)) OR (((c."key_mask_before" & 2) <> 0) AND (c."type" = 1)))',
    );
  });
  it('rejects a bad table alias', () => {
    assert.throws(() => sql('a=b', 1, { tableAlias: 'c; DROP' }), RangeError);
  });
  it('caps how many values a pattern may expand to', () => {
    const d = new InMemoryTagDictionary();
    for (let i = 0; i < 20; i++) d.add('name', `n${i}`);
    const f = parseFilter('name ~ n*', { version: 2 });
    assert.match(compileSql(f, { dialect: duckdbDialect, dictionary: d }).sql, /1048575 >> /);
    assert.throws(
      () => compileSql(f, { dialect: duckdbDialect, dictionary: d, maxPatternValues: 10 }),
      (e: unknown) => isMaphistError(e) && e.code === 'FILTER_TOO_COMPLEX' && /name ~ n\*/.test(e.message),
    );
  });
  it('renders only validated numbers', () => {
    assert.equal(sqlInteger(2n ** 63n - 1n), '9223372036854775807');
    assert.throws(() => sqlInteger(2n ** 63n));
    assert.throws(() => sqlInteger(1.5));
    assert.throws(() => sqlInteger(Number.NaN));
    assert.throws(() => sqlInteger('1; DROP' as unknown as number));
    assert.equal(sqlFloat(0.30000000000000004), '3.0000000000000004e-1');
    assert.throws(() => sqlFloat(Infinity));
  });
});

// ---- user strings never shape the SQL ----

const COLUMN =
  '"(?:type|id|changeset|tag_kv|key_mask|tag_kv_before|key_mask_before|geometry_type|area|length|perimeter|vertices|outers|inners|roundness|squareness)"';
const TOKEN = new RegExp(
  `\\s+|${COLUMN}|\\d+(?:\\.\\d+)?(?:e[+-]\\d+)?|(?:AND|OR|NOT|IN|IS|NULL|TRUE|FALSE|list_contains|list_has_any|list_filter|len|lambda|t|BIGINT|bit_count|least)\\b|<>|>=|<=|>>|::|[=>&()[\\],:+-]`,
  'y',
);

/** True when the SQL consists only of the compiler's fixed vocabulary and numbers. */
function onlyCompilerTokens(text: string): boolean {
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    if (TOKEN.exec(text) === null || TOKEN.lastIndex === at) return false;
  }
  return true;
}

/** Adds every key and value of the tree to a dictionary, renamed by `rename`, in tree order. */
function dictionaryFor(tree: FilterNode, rename: (s: string) => string): InMemoryTagDictionary {
  const d = new InMemoryTagDictionary();
  walk(tree, (n) => {
    if (n.kind === 'tagEquals') d.add(rename(n.key), rename(n.value));
    else if (n.kind === 'tagExists') d.add(rename(n.key));
    else if (n.kind === 'tagIn') for (const v of n.values) d.add(rename(n.key), rename(v));
    else if (n.kind === 'tagPattern') d.add(rename(n.key), rename(n.text));
  });
  return d;
}

function renameTree(tree: FilterNode, rename: (s: string) => string): FilterNode {
  return JSON.parse(JSON.stringify(tree), (k, v) =>
    typeof v === 'string' && ['key', 'value', 'text'].includes(k) ? rename(v) : k === 'values' ? (v as string[]).map(rename) : v,
  ) as FilterNode;
}

describe('strings full of quotes, backslashes, semicolons and SQL keywords', () => {
  const keys = fc.oneof(nastyString, fc.constantFrom('highway', 'name'));
  for (const version of [1, 2] as FilterVersion[]) {
    it(`never reach the SQL nor change its structure (version ${version})`, () => {
      fc.assert(
        fc.property(treeArb({ version, keys, values: keys, maxDepth: 4 }), (tree) => {
          const filter: Filter = { version, ast: tree, source: '' };
          const nasty = compileSql(filter, { dialect: duckdbDialect, dictionary: dictionaryFor(tree, (s) => s) }).sql;
          assert.ok(onlyCompilerTokens(nasty), nasty);
          // The same tree with every string renamed to a harmless word, and the same ids, compiles to the same SQL.
          const names = new Map<string, string>();
          const rename = (s: string): string => {
            if (!names.has(s)) names.set(s, `w${names.size}`);
            return names.get(s)!;
          };
          const renamedTree = renameTree(tree, rename);
          const benign = compileSql(
            { version, ast: renamedTree, source: '' },
            {
              dialect: duckdbDialect,
              dictionary: dictionaryFor(tree, rename),
            },
          ).sql;
          // Patterns match by text, so renaming may change which values they expand to: compare shapes only then.
          let hasPattern = false;
          walk(tree, (n) => {
            hasPattern ||= n.kind === 'tagPattern';
          });
          if (!hasPattern) assert.equal(benign, nasty);
        }),
        { numRuns: 500 },
      );
    });
  }

  it('compile to SQL that DuckDB runs', async () => {
    const inst = await DuckDBInstance.create(':memory:');
    const con = await inst.connect();
    await con.run(`CREATE TABLE t (type UTINYINT, id BIGINT, changeset BIGINT, tag_kv BIGINT[], key_mask BIGINT,
      tag_kv_before BIGINT[], key_mask_before BIGINT, geometry_type UTINYINT, area DOUBLE, length DOUBLE, perimeter DOUBLE,
      vertices INTEGER, outers INTEGER, inners INTEGER, roundness DOUBLE, squareness DOUBLE)`);
    await con.run(`INSERT INTO t VALUES (1, 1, 1, [0, 4294967296]::BIGINT[], 3, []::BIGINT[], 0, 2, 0, 10, 0, 2, -1, -1, 0, NULL)`);
    await fc.assert(
      fc.asyncProperty(treeArb({ version: 2, keys, values: keys, maxDepth: 3 }), async (tree) => {
        const { sql: where } = compileSql(
          { version: 2, ast: tree, source: '' },
          { dialect: duckdbDialect, dictionary: dictionaryFor(tree, (s) => s), tags: 'currentOrBefore' },
        );
        const r = await con.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM t WHERE ${where}`);
        assert.ok([0, 1].includes(r.getRows()[0]![0] as number));
      }),
      { numRuns: 200 },
    );
    con.closeSync();
    inst.closeSync();
  });
});
