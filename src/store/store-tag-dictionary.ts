/**
 * The store's tag dictionary (`tag_keys`, `tag_values`) held in memory: loaded once per opened
 * store, it turns filter keys/values into the ids the SQL compares, and ids back into names for
 * group labels. It implements the filter's `TagDictionary` interface.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { TagDictionary, ValuePattern } from '../filter/tag-dictionary.js';
import { patternMatcher } from '../filter/semantics.js';

export class StoreTagDictionary implements TagDictionary {
  private readonly keyIds = new Map<string, number>();
  private readonly keyNames: string[] = [];
  private readonly valueIds: Map<string, number>[] = [];
  private readonly valueNames: string[][] = [];

  constructor(keys: Iterable<{ id: number; key: string }>, values: Iterable<{ keyId: number; valueId: number; value: string }>) {
    for (const { id, key } of keys) {
      this.keyIds.set(key, id);
      this.keyNames[id] = key;
    }
    for (const { keyId, valueId, value } of values) {
      (this.valueIds[keyId] ??= new Map()).set(value, valueId);
      (this.valueNames[keyId] ??= [])[valueId] = value;
    }
  }

  keyId(key: string): number | undefined {
    return this.keyIds.get(key);
  }

  valueId(keyId: number, value: string): number | undefined {
    return this.valueIds[keyId]?.get(value);
  }

  valueIdsMatching(keyId: number, pattern: ValuePattern): number[] {
    const values = this.valueIds[keyId];
    if (values === undefined) return [];
    const test = patternMatcher(pattern.match, pattern.text);
    const ids: number[] = [];
    for (const [v, id] of values) if (test(v)) ids.push(id);
    return ids;
  }

  /** The key's text for an id (undefined when unknown). */
  keyName(keyId: number): string | undefined {
    return this.keyNames[keyId];
  }

  /** The value's text for a (key id, value id) pair (undefined when unknown). */
  valueName(keyId: number, valueId: number): string | undefined {
    return this.valueNames[keyId]?.[valueId];
  }
}

/** Reads `tag_keys` and `tag_values` once. */
export async function loadStoreTagDictionary(con: DuckDBConnection): Promise<StoreTagDictionary> {
  const keys = (await con.runAndReadAll('SELECT id, key FROM tag_keys')).getRows();
  const values = (await con.runAndReadAll('SELECT key_id, value_id, value FROM tag_values')).getRows();
  return new StoreTagDictionary(
    keys.map((r) => ({ id: Number(r[0]), key: String(r[1]) })),
    values.map((r) => ({ keyId: Number(r[0]), valueId: Number(r[1]), value: String(r[2]) })),
  );
}

/** The given dictionary, or the store's, loaded on a short-lived connection. */
export async function dictionaryOf(store: { connect(): Promise<DuckDBConnection> }, dictionary?: StoreTagDictionary): Promise<StoreTagDictionary> {
  if (dictionary) return dictionary;
  const con = await store.connect();
  try {
    return await loadStoreTagDictionary(con);
  } finally {
    con.closeSync();
  }
}
