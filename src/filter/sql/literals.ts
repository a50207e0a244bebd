/**
 * The only way a value enters filter SQL: numbers, checked and rendered here. Strings never do
 * (tags are translated to dictionary ids first), so there is nothing to escape.
 */

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** An integer literal; throws unless `n` is an exact integer within BIGINT. */
export function sqlInteger(n: number | bigint): string {
  if (typeof n === 'bigint') {
    if (n < INT64_MIN || n > INT64_MAX) throw new RangeError(`integer ${n} does not fit a BIGINT`);
    return n.toString();
  }
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new RangeError(`not an exact integer: ${String(n)}`);
  return Object.is(n, -0) ? '0' : n.toString();
}

/**
 * A DOUBLE literal in exponent form (`1.5e+0`): both DuckDB and ClickHouse read that as a double
 * (plain `0.1` would be a DECIMAL in DuckDB), and JavaScript's shortest round-trip digits make it
 * the same double the predicate compares with.
 */
export function sqlFloat(x: number): string {
  if (typeof x !== 'number' || !Number.isFinite(x)) throw new RangeError(`not a finite number: ${String(x)}`);
  return x.toExponential();
}
