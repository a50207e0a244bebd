/**
 * Numbers printed the way Java's `Double.toString` prints them (docs/reference/v1-reference-behaviour.md §3.6): always
 * a decimal point (`5.0`), plain notation for 1e-3 ≤ |x| < 1e7, otherwise computerised scientific
 * notation (`1.020940258E7`, `1.23E-4`). The digits are the shortest that round-trip, as in JDK 19+.
 */
export function javaDoubleToString(x: number): string {
  const abs = Math.abs(x);
  // The common case first (a count, an area): in this range JavaScript's own text is Java's, the
  // same shortest digits in plain notation, save the `.0` of an integral value.
  if (abs >= 1e-3 && abs < 1e7) return Number.isInteger(x) ? `${x}.0` : String(x);
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  // Shortest round-tripping digits and the decimal exponent.
  const [mantissa, expText] = abs.toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const frac = digits.slice(1);
  return `${sign}${digits[0]}.${frac === '' ? '0' : frac}E${Number(expText)}`;
}
