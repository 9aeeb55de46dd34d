/** Bounds of a signed 64-bit integer, the type of every identifier in the store. */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

export function isInt64(value: bigint): boolean {
  return value >= INT64_MIN && value <= INT64_MAX;
}

const DECIMAL_INTEGER = /^(0|-?[1-9][0-9]*)$/;

/** Parses a canonical decimal integer (no sign "+", no leading zeros, no exponent) within int64; undefined otherwise. */
export function parseInt64(text: string): bigint | undefined {
  if (text.length > 20 || !DECIMAL_INTEGER.test(text)) return undefined;
  const value = BigInt(text);
  return isInt64(value) ? value : undefined;
}
