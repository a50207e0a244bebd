/**
 * Java `DecimalFormat("#.##")`-style rounding (docs/reference/v1-reference-behaviour.md §3.6): at most `digits`
 * fraction digits, rounding HALF_EVEN on the exact binary value of the double (not on its shortest
 * decimal representation), then re-parsed to a double as the reference does.
 */

const TEN = 10n;

/** 10^digits for the digits the answers round to, exact doubles. */
const SCALES = [1, 10, 100, 1e3, 1e4, 1e5, 1e6];
/** Below this, x·10^digits carries an error under 2^-12 of a unit (its ulp is at most 2^-12). */
const FAST_LIMIT = 2 ** 40;
/** How far from a tie the scaled value must lie for its rounding to be certain. */
const TIE_MARGIN = 1e-3;

/**
 * Round `x` to at most `digits` decimals, HALF_EVEN on its exact binary value. Most values (counts,
 * and lengths whose scaled fraction is not near one half) take the fast path in doubles; the
 * others the exact one in integers (`roundHalfEvenExact`), which the tests hold it to.
 */
export function roundHalfEven(x: number, digits: number): number {
  if (Number.isInteger(x)) return x;
  const scale = SCALES[digits];
  if (scale !== undefined) {
    const s = Math.abs(x) * scale;
    if (s < FAST_LIMIT) {
      const floor = Math.floor(s);
      const frac = s - floor; // exact
      // The true product lies within 2^-13 of s: far from a tie, it rounds to the same integer.
      // That integer over the exact scale is the correctly rounded double, as the exact path's
      // re-parse of `<integer>e-<digits>` is.
      if (Math.abs(frac - 0.5) > TIE_MARGIN) {
        const q = frac < 0.5 ? floor : floor + 1;
        return x < 0 ? -(q / scale) : q / scale;
      }
    }
  }
  return roundHalfEvenExact(x, digits);
}

/** `roundHalfEven` in integer arithmetic on the double's exact binary value. */
export function roundHalfEvenExact(x: number, digits: number): number {
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
