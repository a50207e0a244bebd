/**
 * "Did you mean …?" for unknown parameters (docs/reference/v1-reference-behaviour.md §2.3): Apache commons-text
 * FuzzyScore, and the reference's choice of at most two candidates.
 */

/**
 * FuzzyScore(term, query): both lower-cased; each query character is searched forward in the term
 * from where the last search stopped; a match scores 1, plus 2 when it directly follows the
 * previous match. (UTF-16 code units, like Java's charAt.)
 */
export function fuzzyScore(term: string, query: string): number {
  const t = term.toLowerCase();
  const q = query.toLowerCase();
  let score = 0;
  let termIndex = 0;
  let previous = Number.MIN_SAFE_INTEGER;
  for (let qi = 0; qi < q.length; qi++) {
    const c = q.charCodeAt(qi);
    let found = false;
    for (; termIndex < t.length && !found; termIndex++) {
      if (t.charCodeAt(termIndex) === c) {
        score++;
        if (previous + 1 === termIndex) score += 2;
        previous = termIndex;
        found = true;
      }
    }
  }
  return score;
}

/** Candidates must score more than this. */
const MIN_SCORE = 4;

/**
 * Up to two accepted names resembling `unknown`, best first. Of the candidates scoring above 4,
 * the two highest are taken (stable sort, so among equal scores the later ones in `accepted`);
 * when those two tie, the one whose length is closer to `unknown` comes first, and on a further
 * tie the later one in `accepted`.
 */
export function suggestParameters(unknown: string, accepted: readonly string[]): string[] {
  const scored = accepted.map((name, index) => ({ name, index, score: fuzzyScore(name, unknown) })).filter((c) => c.score > MIN_SCORE);
  if (scored.length <= 1) return scored.map((c) => c.name);
  scored.sort((a, b) => a.score - b.score || a.index - b.index);
  const a = scored[scored.length - 2]!;
  const b = scored[scored.length - 1]!;
  if (a.score !== b.score) return [b.name, a.name];
  const da = Math.abs(a.name.length - unknown.length);
  const db = Math.abs(b.name.length - unknown.length);
  if (da < db) return [a.name, b.name];
  return [b.name, a.name];
}

/** `Unknown parameter 'x' for this resource.` plus ` Did you mean 'a'?` or ` Did you mean 'a' or 'b'?`. */
export function unknownParameterMessage(unknown: string, accepted: readonly string[]): string {
  const base = `Unknown parameter '${unknown}' for this resource.`;
  const s = suggestParameters(unknown, accepted);
  if (s.length === 0) return base;
  if (s.length === 1) return `${base} Did you mean '${s[0]}'?`;
  return `${base} Did you mean '${s[0]}' or '${s[1]}'?`;
}
