// The JavaScript predicate and the DuckDB SQL agree row by row, for random filters over a table of
// 10 000 random states with the store's column names and types.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { OSM_TYPE_NAME } from '../../core/osm.js';
import type { FilterVersion } from '../ast.js';
import { compilePredicate } from '../predicate.js';
import type { FilterableState, FilterGeometryType, TagSource } from '../state.js';
import { InMemoryTagDictionary } from '../tag-dictionary.js';
import { treeArb } from '../testing/arbitraries.js';
import { GEOMETRY_CODE, KEY_MASK_BITS, packTag } from './columns.js';
import { compileSql } from './compile-sql.js';
import { duckdbDialect } from './duckdb-dialect.js';
import { sqlFloat } from './literals.js';

const ROWS = 10_000;

/** Keys with key_mask bits (ids 0–3) and without (ids 63–66); `nokey` is never in the dictionary. */
const MASKED_KEYS = ['highway', 'building', 'name', 'amenity'];
const LIST_KEYS = ['surface', 'addr:street', 'ref', 'note'];
const DATA_VALUES = ['yes', 'no', 'a', 'ab', 'ba', 'b', '', 'a b', 'x"y', "it's"];
const FILTER_VALUES = [...DATA_VALUES, 'zz', 'unknown'];
/** Measure values, and filter bounds drawn from the same set so boundaries are hit exactly. */
const FLOATS = [0, 0.1, 0.30000000000000004, 0.5, 1, 2.5, 10, 100, 1e6];
const GEOMETRY_TYPES: (FilterGeometryType | null)[] = [null, ...(Object.keys(GEOMETRY_CODE) as FilterGeometryType[])];

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function buildDictionary(): InMemoryTagDictionary {
  const d = new InMemoryTagDictionary();
  for (const k of MASKED_KEYS) d.add(k);
  for (let i = d.keyCount; i < KEY_MASK_BITS; i++) d.add(`filler${i}`);
  for (const k of LIST_KEYS) d.add(k);
  // Value ids ≥ 63 for one masked and one list key, so multi-value lists take the IN path.
  for (const k of ['name', 'ref']) for (let i = 0; i < 64; i++) d.add(k, `filler${i}`);
  for (const k of [...MASKED_KEYS, ...LIST_KEYS]) for (const v of DATA_VALUES) d.add(k, v);
  return d;
}

function randomStates(seed: number): FilterableState[] {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const int = (lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
  const measure = (): number => (rnd() < 0.7 ? pick(FLOATS) : rnd() * 200);
  const tags = (): string[] => {
    const out: string[] = [];
    for (const k of [...MASKED_KEYS, ...LIST_KEYS]) if (rnd() < 0.3) out.push(k, pick(DATA_VALUES));
    return out;
  };
  return Array.from({ length: ROWS }, () => ({
    type: pick(OSM_TYPE_NAME),
    id: int(1, 40),
    changeset: int(1, 40),
    tags: tags(),
    tagsBefore: rnd() < 0.2 ? [] : tags(),
    geometryType: pick(GEOMETRY_TYPES),
    area: measure(),
    length: measure(),
    perimeter: measure(),
    vertices: int(0, 12),
    outers: int(-1, 3),
    inners: int(-1, 3),
    roundness: measure(),
    squareness: rnd() < 0.2 ? null : measure(),
  }));
}

function tagSql(d: InMemoryTagDictionary, tags: string[]): [string, string] {
  const packed: bigint[] = [];
  let mask = 0n;
  for (let i = 0; i < tags.length; i += 2) {
    const k = d.keyId(tags[i]!)!;
    packed.push(packTag(k, d.valueId(k, tags[i + 1]!)!));
    if (k < KEY_MASK_BITS) mask |= 1n << BigInt(k);
  }
  packed.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [`[${packed.join(', ')}]::BIGINT[]`, mask.toString()];
}

function rowSql(d: InMemoryTagDictionary, rid: number, s: FilterableState): string {
  const f = (x: number | null): string => (x === null ? 'NULL' : sqlFloat(x));
  const [kv, mask] = tagSql(d, s.tags);
  const [kvBefore, maskBefore] = tagSql(d, s.tagsBefore ?? []);
  const g = s.geometryType === null ? 0 : GEOMETRY_CODE[s.geometryType];
  const type = OSM_TYPE_NAME.indexOf(s.type);
  return (
    `(${rid}, ${type}, ${s.id}, ${s.changeset}, ${kv}, ${mask}, ${kvBefore}, ${maskBefore}, ${g}, ` +
    `${f(s.area)}, ${f(s.length)}, ${f(s.perimeter)}, ${s.vertices}, ${s.outers}, ${s.inners}, ${f(s.roundness)}, ${f(s.squareness)})`
  );
}

describe(`JavaScript predicate and DuckDB SQL agree on ${ROWS} random states`, () => {
  const dictionary = buildDictionary();
  const states = randomStates(20240611);
  let instance: DuckDBInstance;
  let con: DuckDBConnection;

  before(async () => {
    instance = await DuckDBInstance.create(':memory:');
    con = await instance.connect();
    await con.run(`CREATE TABLE contributions (
      rid INTEGER NOT NULL, type UTINYINT NOT NULL, id BIGINT NOT NULL, changeset BIGINT NOT NULL,
      tag_kv BIGINT[] NOT NULL, key_mask BIGINT NOT NULL, tag_kv_before BIGINT[] NOT NULL, key_mask_before BIGINT NOT NULL,
      geometry_type UTINYINT NOT NULL, area DOUBLE NOT NULL, length DOUBLE NOT NULL, perimeter DOUBLE NOT NULL,
      vertices INTEGER NOT NULL, outers INTEGER NOT NULL, inners INTEGER NOT NULL, roundness DOUBLE NOT NULL, squareness DOUBLE)`);
    for (let i = 0; i < ROWS; i += 1000) {
      const rows = states.slice(i, i + 1000).map((s, j) => rowSql(dictionary, i + j, s));
      await con.run(`INSERT INTO contributions VALUES ${rows.join(',\n')}`);
    }
  });

  after(() => {
    con.closeSync();
    instance.closeSync();
  });

  it('the table holds every state', async () => {
    const r = await con.runAndReadAll('SELECT count(*)::INTEGER FROM contributions');
    assert.equal(r.getRows()[0]![0], ROWS);
  });

  const runs: [FilterVersion, TagSource, number][] = [
    [1, 'current', 150],
    [2, 'current', 150],
    [2, 'before', 50],
    [2, 'currentOrBefore', 100],
  ];
  for (const [version, tags, numRuns] of runs) {
    it(`version ${version}, ${tags} tags (${numRuns} random filters)`, async () => {
      const trees = treeArb({
        version,
        keys: fc.constantFrom(...MASKED_KEYS, ...LIST_KEYS, 'nokey'),
        values: fc.constantFrom(...FILTER_VALUES),
        ids: fc.integer({ min: 0, max: 41 }),
        floats: fc.constantFrom(...FLOATS),
        counts: fc.integer({ min: 0, max: 6 }),
        maxDepth: 4,
      });
      let nonTrivial = 0;
      await fc.assert(
        fc.asyncProperty(trees, async (ast) => {
          const filter = { version, ast, source: '' };
          const predicate = compilePredicate(filter, { tags });
          const expected: number[] = [];
          states.forEach((s, i) => {
            if (predicate(s)) expected.push(i);
          });
          const { sql } = compileSql(filter, { dialect: duckdbDialect, dictionary, tags });
          const reader = await con.runAndReadAll(`SELECT rid FROM contributions WHERE ${sql} ORDER BY rid`);
          const actual = reader.getRows().map((r) => r[0] as number);
          if (expected.length > 0 && expected.length < ROWS) nonTrivial++;
          if (actual.length !== expected.length || actual.some((x, i) => x !== expected[i])) {
            const diff = [...new Set([...expected, ...actual])].find((x) => expected.includes(x) !== actual.includes(x))!;
            assert.fail(`disagree on row ${diff} ${JSON.stringify(states[diff])}: JS ${expected.includes(diff)}, SQL ${actual.includes(diff)}\n${sql}`);
          }
        }),
        { numRuns },
      );
      // Guard against a vacuous test: most filters must select some but not all rows.
      assert.ok(nonTrivial > numRuns / 3, `only ${nonTrivial} of ${numRuns} filters were selective`);
    });
  }
});
