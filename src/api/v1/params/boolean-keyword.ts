/** The reference's yes/no parameters (`showMetadata`, `clipGeometry`): `true|yes|false|no`, any case, whitespace removed. */
export function parseBooleanKeyword(value: string | undefined, fallback: boolean): boolean | undefined {
  if (value === undefined) return fallback;
  const v = value.replace(/\s/g, '').toLowerCase();
  if (v === '') return fallback;
  if (v === 'true' || v === 'yes') return true;
  if (v === 'false' || v === 'no') return false;
  return undefined;
}
