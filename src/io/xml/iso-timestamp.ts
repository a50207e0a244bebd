/**
 * OSM XML timestamps ("2020-03-01T12:34:56Z") to epoch seconds. The fixed OSM form is parsed by
 * hand (Date.parse is several times slower and is called once per element); anything else
 * that Date.parse understands is accepted too.
 */

/** Epoch seconds, or NaN when the text is not a timestamp. */
export function parseIsoTimestamp(text: string): number {
  if (
    text.length === 20 &&
    text.charCodeAt(4) === 45 /* - */ &&
    text.charCodeAt(7) === 45 &&
    text.charCodeAt(10) === 84 /* T */ &&
    text.charCodeAt(13) === 58 /* : */ &&
    text.charCodeAt(16) === 58 &&
    text.charCodeAt(19) === 90 /* Z */
  ) {
    const year = digits(text, 0, 4);
    const month = digits(text, 5, 2);
    const day = digits(text, 8, 2);
    const hour = digits(text, 11, 2);
    const minute = digits(text, 14, 2);
    const second = digits(text, 17, 2);
    if (month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour < 24 && minute < 60 && second < 61) {
      return Date.UTC(year, month - 1, day, hour, minute, second) / 1000;
    }
    return Number.NaN;
  }
  return Math.floor(Date.parse(text) / 1000);
}

/** The decimal number in text[start, start + length), or NaN if a character is not a digit. */
function digits(text: string, start: number, length: number): number {
  let value = 0;
  for (let i = start; i < start + length; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return Number.NaN;
    value = value * 10 + d;
  }
  return value;
}
