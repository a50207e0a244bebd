/**
 * The seam between the SQL compiler and the store's tag dictionary. Tags are stored as integers
 * (src/store/schema.ts: `tag_kv` holds packTag(keyId, valueId)); the compiler turns every key and
 * value of a filter into ids through this interface, so no user string ever reaches SQL text.
 *
 * Value patterns (`key ~ prefix*`, version 2) apply to values only: in the version-2 grammar the
 * key is always an exact string (`tagValuePatternMatch: string '~' valueSubString`), so there is
 * nothing like `keysMatching`.
 */
import type { PatternMatch } from './ast.js';
import { patternMatcher } from './semantics.js';

export interface ValuePattern {
  match: PatternMatch;
  text: string;
}

export interface TagDictionary {
  /** The id of a key, or undefined when no element ever had it. */
  keyId(key: string): number | undefined;
  /** The id of a value of that key, or undefined when the key never had that value. */
  valueId(keyId: number, value: string): number | undefined;
  /**
   * Ids of every value of the key that the pattern matches (semantics.ts `patternMatcher`:
   * case-sensitive prefix/suffix/substring). Order does not matter.
   */
  valueIdsMatching(keyId: number, pattern: ValuePattern): readonly number[];
}

/**
 * A dictionary held in memory: for tests, benchmarks and small stores. Key ids are handed out in
 * order of first `add`, so the first 63 keys added get `key_mask` bits (add frequent keys first);
 * value ids are per key, from 0.
 */
export class InMemoryTagDictionary implements TagDictionary {
  private readonly keys = new Map<string, number>();
  private readonly values: Map<string, number>[] = [];

  /** Adds a key (and a value of it), returning their ids; adding again returns the same ids. */
  add(key: string, value?: string): { keyId: number; valueId: number | undefined } {
    let keyId = this.keys.get(key);
    if (keyId === undefined) {
      keyId = this.keys.size;
      this.keys.set(key, keyId);
      this.values.push(new Map());
    }
    if (value === undefined) return { keyId, valueId: undefined };
    const values = this.values[keyId]!;
    let valueId = values.get(value);
    if (valueId === undefined) {
      valueId = values.size;
      values.set(value, valueId);
    }
    return { keyId, valueId };
  }

  keyId(key: string): number | undefined {
    return this.keys.get(key);
  }

  valueId(keyId: number, value: string): number | undefined {
    return this.values[keyId]?.get(value);
  }

  valueIdsMatching(keyId: number, pattern: ValuePattern): number[] {
    const values = this.values[keyId];
    if (values === undefined) return [];
    const test = patternMatcher(pattern.match, pattern.text);
    const ids: number[] = [];
    for (const [v, id] of values) if (test(v)) ids.push(id);
    return ids;
  }

  get keyCount(): number {
    return this.keys.size;
  }
}
