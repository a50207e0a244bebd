/**
 * Facts about the handmade history (testdata/testcases/handmade/history-small.osh) that its
 * expected.json does not state, read from the file by eye and pinned by handmade.test.ts.
 *
 * Never-tagged elements: no version of them carries a tag. The building's corners n1–n4, the
 * street's nodes n6–n8 and the ring's nodes n9–n12 are bare way members; the outer way w12 of the
 * multipolygon r20 is untagged too (its tags are on the relation). Among the nodes only the bench
 * n5 ever had tags. expected.json counts the elements as osmium does (all of them); version 1 leaves
 * out the never-tagged nodes, version 2 every never-tagged element (src/engines/common/scope.ts).
 */
export const NEVER_TAGGED: ReadonlySet<string> = new Set(['n1', 'n2', 'n3', 'n4', 'n6', 'n7', 'n8', 'n9', 'n10', 'n11', 'n12', 'w12']);

/** `n5`, `w10v2`, … → `n5`, `w10`. */
export function elementOf(ref: string): string {
  return ref.replace(/v\d+$/, '');
}

/** Whether version 1 sees an element (`n5`, `w12`, or a versioned `n5v2`). */
export function inV1(ref: string): boolean {
  const e = elementOf(ref);
  return !(e.startsWith('n') && NEVER_TAGGED.has(e));
}

/** Whether version 2 sees an element. */
export function inV2(ref: string): boolean {
  return !NEVER_TAGGED.has(elementOf(ref));
}

/** expected.json's `nodes`/`ways`/`relations` count of a snapshot's visible list, as an API version sees it. */
export function typeCount(visible: readonly string[], type: 'n' | 'w' | 'r', sees: (ref: string) => boolean): number {
  return visible.filter((ref) => ref.startsWith(type) && sees(ref)).length;
}
