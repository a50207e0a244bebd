/**
 * Java `DecimalFormat("#.##")`-style rounding (docs/reference/v1-reference-behaviour.md §3.6): at most `digits`
 * fraction digits, rounding HALF_EVEN on the exact binary value of the double (not on its shortest
 * decimal representation), then re-parsed to a double as the reference does.
 */

const TEN = 10n;

/** Round `x` to at most `digits` decimals, HALF_EVEN on its exact binary value. */
export function roundHalfEven(x: number, digits: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const negative = x < 0;
  const { mantissa, exponent } = decompose(Math.abs(x));
  let scaled: bigint;
  if (exponent >= 0) {
    return x; // an integer (|x| ≥ 2^52 or exactly integral); nothing to round
  } else {
    const num = mantissa * TEN ** BigInt(digits);
    const den = 1n << BigInt(-exponent);
    const q = num / den;
    const r2 = (num - q * den) * 2n;
    scaled = r2 > den || (r2 === den && (q & 1n) === 1n) ? q + 1n : q;
  }
  const value = Number(`${scaled}e-${digits}`);
  return negative ? -value : value;
}

/** `DecimalFormat("#.##")`: aggregation values. */
export function round2(x: number): number {
  return roundHalfEven(x, 2);
}

/** `DecimalFormat("#.######")`: ratios. */
export function round6(x: number): number {
  return roundHalfEven(x, 6);
}

/** x = mantissa · 2^exponent exactly, mantissa an integer. */
function decompose(x: number): { mantissa: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  const fracHi = hi & 0xfffff;
  let mantissa = (BigInt(fracHi) << 32n) | BigInt(lo);
  let exponent: number;
  if (biased === 0) {
    exponent = -1074; // subnormal
  } else {
    mantissa |= 1n << 52n;
    exponent = biased - 1075;
  }
  // Strip trailing zero bits so integral values get exponent ≥ 0.
  while (mantissa !== 0n && (mantissa & 1n) === 0n && exponent < 0) {
    mantissa >>= 1n;
    exponent += 1;
  }
  return { mantissa, exponent };
}
