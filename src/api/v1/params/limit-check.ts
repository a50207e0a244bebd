/**
 * Version 1's side of the admission limits (src/api/common/limits.ts): a parser counts its input
 * first and calls `admit` before it builds anything in proportion to it.
 */
import { MaphistError } from '../../../core/errors.js';
import { LIMITS, limitMessage, type LimitName } from '../../common/limits.js';

/** The version 1 value of a limit. */
export function v1Limit(name: LimitName): number {
  const value = LIMITS[name].v1;
  if (value === undefined) throw new Error(`version 1 has no ${name} limit`);
  return value;
}

/**
 * Throws the limit's coded error when `count` exceeds the version 1 value of `name`. `what` names
 * the input in the message ("boundaries in bboxes"), `fix` says what to do instead.
 */
export function admit(name: LimitName, count: number, what: string, fix: string, details?: Record<string, unknown>): void {
  const limit = v1Limit(name);
  if (count <= limit) return;
  throw new MaphistError(LIMITS[name].code, limitMessage(what, limit, count, fix), { limit: name, maximum: limit, given: count, ...details });
}
