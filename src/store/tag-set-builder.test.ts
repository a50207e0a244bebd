import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { TagDictionaryBuilder } from './tag-dictionary-builder.js';
import { TagSetBuilder } from './tag-set-builder.js';

test('TagSetBuilder gives a list the id of its first equal list (same tags, same order), whatever array holds it', () => {
  const tag = fc.constantFrom('highway', 'building', 'name', 'a', 'b');
  const value = fc.constantFrom('yes', 'no', 'x', '1', '');
  const list = fc.array(fc.tuple(tag, value), { maxLength: 4 }).map((pairs) => pairs.flat());
  fc.assert(
    fc.property(fc.array(fc.tuple(list, fc.boolean(), fc.boolean()), { maxLength: 60 }), (ops) => {
      const builder = new TagSetBuilder(new TagDictionaryBuilder());
      const firstIds = new Map<string, number>(); // the model: ids by content, in order of first appearance
      const lists: string[][] = [];
      for (const [tags, reuse, count] of ops) {
        // Sometimes the very array looked up before (the identity path), otherwise a fresh copy.
        const arg = reuse && lists.length > 0 ? lists[lists.length - 1] : [...tags];
        lists.push(arg);
        const key = JSON.stringify(arg);
        const expected = arg.length === 0 ? 0 : (firstIds.get(key) ?? firstIds.size + 1);
        if (arg.length > 0 && !firstIds.has(key)) firstIds.set(key, expected);
        assert.equal(builder.idOf(arg, count), expected);
      }
      const created = builder.takeNew();
      assert.deepEqual(
        created.map((s) => s.id),
        [...firstIds.values()],
      );
      assert.deepEqual(builder.takeNew(), []);
    }),
  );
});

test('TagSetBuilder: lists with the same tags in another order are different sets; counted lists count every tag', () => {
  const dictionary = new TagDictionaryBuilder();
  const builder = new TagSetBuilder(dictionary);
  assert.equal(builder.idOf(['a', '1', 'b', '2'], true), 1);
  assert.equal(builder.idOf(['b', '2', 'a', '1'], true), 2);
  assert.equal(builder.idOf(['a', '1', 'b', '2'], false), 1);
  assert.equal(builder.idOf(['a', '1', 'b', '2'], true), 1);
  assert.equal(builder.idOf([], true), 0);
  assert.deepEqual(dictionary.keys, ['a', 'b']);
  assert.deepEqual(dictionary.keyFrequency, [3, 3]);
  assert.deepEqual(dictionary.valueFrequency, [[3], [3]]);
});
