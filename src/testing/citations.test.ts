/**
 * Citations point at files in the repository: every `§` in the source, the benchmarks and the
 * scripts (comments, READMEs, test names) follows, on its line, a path `docs/….md` that exists,
 * and the cited section is a heading of that file (`## 2.`, `### 2.4 …`). The reference notes
 * live in docs/reference/ (its README says where they come from).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from './test-data.js';

const SECTION = '\u00a7';
const THIS_FILE = join('src', 'testing', 'citations.test.ts');

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files(path, out);
    else if (/\.(ts|mjs|js|md)$/.test(name) && relative(REPO_ROOT, path) !== THIS_FILE) out.push(path);
  }
  return out;
}

/** The section numbers a markdown file has headings for (`## 2. Errors` → 2, `### 2.4 Status` → 2.4). */
const sectionsOf = (() => {
  const cache = new Map<string, Set<string>>();
  return (doc: string): Set<string> => {
    let s = cache.get(doc);
    if (!s) {
      s = new Set();
      for (const m of readFileSync(join(REPO_ROOT, doc), 'utf8').matchAll(/^#+ (\d+(?:\.\d+)*)\.?\s/gm)) s.add(m[1]!);
      cache.set(doc, s);
    }
    return s;
  };
})();

/** The problems of one line: each § needs a docs/….md path before it on the line, existing, with that section. */
export function citationProblems(line: string): string[] {
  const problems: string[] = [];
  const pattern = new RegExp(`docs/[\\w./-]+\\.md|${SECTION}\\s*(\\d+(?:\\.\\d+)*)`, 'g');
  let doc: string | undefined;
  for (const m of line.matchAll(pattern)) {
    if (m[1] === undefined) {
      doc = m[0];
      if (!existsSync(join(REPO_ROOT, doc))) problems.push(`${doc} does not exist`);
    } else if (doc === undefined) {
      problems.push(`${SECTION}${m[1]} cites no docs/….md path before it`);
    } else if (existsSync(join(REPO_ROOT, doc)) && !sectionsOf(doc).has(m[1])) {
      problems.push(`${doc} has no section ${m[1]}`);
    }
  }
  if (line.includes(SECTION) && !pattern.test(line)) problems.push(`a ${SECTION} without a section number`);
  return problems;
}

it('every § citation names a docs/ file that exists and a section it has', () => {
  const problems: string[] = [];
  let citations = 0;
  for (const file of ['src', 'bench', 'scripts'].flatMap((d) => files(join(REPO_ROOT, d)))) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (!line.includes(SECTION)) return;
        citations++;
        for (const p of citationProblems(line)) problems.push(`${relative(REPO_ROOT, file)}:${i + 1}: ${p}`);
      });
  }
  assert.deepEqual(problems, []);
  assert.ok(citations > 100, `the scan sees the citations (${citations})`);
});

it('the check finds what it must', () => {
  assert.deepEqual(citationProblems(`(docs/reference/v1-reference-behaviour.md ${SECTION}3.4)`), []);
  assert.deepEqual(citationProblems(`(docs/reference/v1-reference-behaviour.md ${SECTION}1.2, ${SECTION}1.5)`), []);
  assert.equal(citationProblems(`(v1-reference-behaviour ${SECTION}3.4)`).length, 1, 'a note outside the repository');
  assert.equal(citationProblems(`(docs/reference/nowhere.md ${SECTION}3.4)`).length, 1, 'a missing file');
  assert.equal(citationProblems(`(docs/reference/v1-reference-behaviour.md ${SECTION}9.9)`).length, 1, 'a missing section');
});
