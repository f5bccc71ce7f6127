// Reading request bodies that arrive as JSON or as a multipart form (where every value is a string).

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Not given: missing, null or an empty form field. */
export const absent = (value: unknown): boolean => value === undefined || value === null || value === '';

/** Integers, also as the decimal strings a multipart form sends. */
export function integerOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value.trim());
  return null;
}
