/**
 * `timeout` in seconds (docs/reference/v1-reference-behaviour.md §1.8): a decimal number; more than the server's limit is refused (equal
 * is accepted). Absent or empty: the server default.
 */
import { MaphistError } from '../../../core/errors.js';
import { javaDoubleToString, parseJavaDouble } from './java-text.js';
import { MSG } from './messages.js';

export function parseTimeout(value: string | undefined, defaultSeconds: number, maxSeconds: number = defaultSeconds): number {
  if (value === undefined || value === '') return defaultSeconds;
  const t = parseJavaDouble(value);
  if (t === undefined) throw new MaphistError('PARAM_INVALID', MSG.TIMEOUT_FORMAT, { parameter: 'timeout' });
  if (t > maxSeconds) throw new MaphistError('PARAM_INVALID', MSG.timeoutTooLong(javaDoubleToString(maxSeconds)), { parameter: 'timeout' });
  return t;
}
