/** A request value (a field, a query parameter) holding text no database of the gateway can store as sent. */
export interface UnstorableText {
  /** The dotted field (`metadata.input.media[0].url`); absent for a name at the top of the body. */
  field?: string;
  message: string;
}

/** ES2024's String.prototype.isWellFormed: every Node the gateway runs on has it, the ES2022 typings do not. */
const isWellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();

/**
 * What makes `text` unstorable, or null: PostgreSQL refuses a NUL in any text, and every database
 * (and UTF-8 itself) would turn an unpaired UTF-16 surrogate into U+FFFD, so the task would keep
 * other text than the provider was sent. Both are native scans (a 20 MB data URI: a few ms, far less
 * than parsing it).
 */
export function unstorableIn(text: string): string | null {
  if (text.includes('\u0000')) return 'a NUL character (U+0000)';
  if (!isWellFormed(text)) return 'an unpaired UTF-16 surrogate';
  return null;
}

/**
 * The first string in a parsed body (JSON, a form) that cannot be stored, named by its dotted path
 * as validation names fields; object keys count too. Only plain objects and arrays are walked (a raw
 * Buffer body is not text).
 */
export function findUnstorableText(value: unknown, field?: string): UnstorableText | null {
  if (typeof value === 'string') {
    const problem = unstorableIn(value);
    return problem ? { field, message: `${field ?? 'the body'} must not contain ${problem}` } : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], `${field ?? ''}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (!isPlainObject(value)) return null;
  for (const [key, child] of Object.entries(value)) {
    const problem = unstorableIn(key);
    if (problem) return { field, message: `field names must not contain ${problem}` };
    const found = findUnstorableText(child, field ? `${field}.${key}` : key);
    if (found) return found;
  }
  return null;
}

/** A parsed JSON or form object: its prototype is Object's, or none (multer's and querystring's bodies). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
