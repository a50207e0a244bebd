/**
 * Limits that keep a server safe from hostile or accidental filters. Each one fails with its own
 * coded error before any work proportional to the excess is done.
 */
import { MaphistError } from '../core/errors.js';

export interface FilterLimits {
  /** Longest accepted filter text, in UTF-16 code units. */
  readonly maxLength: number;
  /** Deepest nesting of parentheses and `not`s (each `(` and each `not` is one level). */
  readonly maxDepth: number;
  /**
   * Largest disjunctive normal form (number of `and`-clauses once every `or` is multiplied out);
   * the reference (OSHDB ≥ 1.2.3) uses the same 10 000 after a huge filter hung its API.
   * `Infinity` switches the check off.
   */
  readonly maxDnfTerms: number;
}

export const DEFAULT_LIMITS: FilterLimits = Object.freeze({
  maxLength: 65_536,
  maxDepth: 50,
  maxDnfTerms: 10_000,
});

/** Fills unset limits with the defaults. */
export function resolveLimits(partial: Partial<FilterLimits> | undefined): FilterLimits {
  return { ...DEFAULT_LIMITS, ...partial };
}

export function checkLength(source: string, limits: FilterLimits): void {
  if (source.length > limits.maxLength) {
    throw new MaphistError('FILTER_TOO_LONG', `the filter is ${source.length} characters long; the longest accepted is ${limits.maxLength}`, {
      length: source.length,
      maxLength: limits.maxLength,
    });
  }
}
