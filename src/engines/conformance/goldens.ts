/**
 * The golden answers of the conformance cases: testdata/conformance/<fixture>/<case id>.json.
 * Made by src/engines/duckdb/conformance-goldens.ts (`npm run conformance:goldens`), from an
 * independent oracle where one exists; `source` says which, and a golden without an oracle says
 * `pinned` and what was checked by hand.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Answer } from './answers.js';
import { CONFORMANCE_DIR, type ConformanceCase } from './cases.js';

export interface Golden {
  case: ConformanceCase;
  /**
   * Where the answer comes from: `oracle: …` (an independent evaluation, named) or `pinned: …`
   * (the DuckDB engine's answer when the golden was made, inspected by hand; no oracle exists).
   */
  source: string;
  /** What was checked of a pinned answer, or cross-checks made against partial oracles. */
  checks?: string[];
  answer: Answer;
}

export function goldenPath(c: ConformanceCase): string {
  return join(CONFORMANCE_DIR, c.fixture, `${c.id}.json`);
}

export function readGolden(c: ConformanceCase): Golden {
  const g = JSON.parse(readFileSync(goldenPath(c), 'utf8')) as Golden;
  if (JSON.stringify(g.case) !== JSON.stringify(c)) {
    throw new Error(`${goldenPath(c)} was made for another definition of the case: run npm run conformance:goldens`);
  }
  return g;
}
