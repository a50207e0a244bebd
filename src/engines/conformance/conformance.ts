/**
 * The engine conformance suite: every logical plan shape of the engine contracts (src/query/), run
 * against an engine bundle and compared with golden answers (testdata/conformance/). An engine
 * joins by a test file calling `describeEngineConformance(name, factory)` (README.md here).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Engines } from '../../query/engines.js';
import { compareAnswers, runCase } from './answers.js';
import { CASES, FIXTURES, type ConformanceCase, type StoreFixture } from './cases.js';
import { readGolden } from './goldens.js';

export { CASES, FIXTURES, type StoreFixture } from './cases.js';

/** What a factory hands back: the engine bundle over the fixture's data, and how to release it. */
export type EngineUnderTest = Engines & { close?(): void | Promise<void> };

/** Builds the engines over a fixture's data (importing its history file into the engine's store). */
export type EngineFactory = (fixture: StoreFixture) => Promise<EngineUnderTest>;

export interface ConformanceOptions {
  /** Only the cases this returns true for (default: all). An engine that skips cases says why in its test file. */
  only?: (c: ConformanceCase) => boolean;
}

export function describeEngineConformance(name: string, factory: EngineFactory, options: ConformanceOptions = {}): void {
  const cases = CASES.filter((c) => options.only?.(c) ?? true);
  for (const fixture of Object.values(FIXTURES)) {
    const mine = cases.filter((c) => c.fixture === fixture.name);
    if (mine.length === 0) continue;
    describe(`${name} conformance on ${fixture.name}`, () => {
      let engines: EngineUnderTest;
      before(async () => {
        engines = await factory(fixture);
      });
      after(async () => {
        await engines?.close?.();
      });
      for (const c of mine) {
        it(`${c.id} (${c.op}${'kind' in c ? ` ${c.kind}` : ''})`, async () => {
          const golden = readGolden(c);
          const got = await runCase(engines, c);
          const differences = compareAnswers(c, got, golden.answer);
          assert.deepEqual(differences, [], `${fixture.name}/${c.id} differs from its golden (${golden.source}):\n${differences.join('\n')}`);
        });
      }
    });
  }
}
