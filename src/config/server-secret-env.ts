import { readFileSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';

const MIN_LENGTH = 32;
/** Bits of entropy a secret must show at least, by the spread of its characters (`openssl rand -hex 16` shows about 115). */
const MIN_ENTROPY_BITS = 96;
/** Repeated phrases compress: 32 random characters stay above 30 bytes, `password` six times falls to 13. */
const MIN_COMPRESSED_BYTES = 24;

/** Shannon estimate of a string's entropy: its length times the bits per character its own distribution shows. */
function estimatedEntropyBits(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let perChar = 0;
  for (const count of counts.values()) perChar -= (count / value.length) * Math.log2(count / value.length);
  return perChar * value.length;
}

/** Why `value` cannot be a server secret, or null when it can. */
export function serverSecretProblem(value: string): string | null {
  if (value.length < MIN_LENGTH) return `must be at least ${MIN_LENGTH} characters`;
  if (estimatedEntropyBits(value) < MIN_ENTROPY_BITS || deflateRawSync(value, { level: 9 }).length < MIN_COMPRESSED_BYTES)
    return 'is too predictable: use a random value, e.g. openssl rand -hex 32';
  return null;
}

export interface SecretEnvProblem {
  variable: string;
  message: string;
}

/**
 * A secret given either inline (`NAME`) or as a file (`NAME_FILE`, docker secrets style; one
 * trailing newline is dropped). Answers the secret, undefined when neither is set, or the problem.
 */
export function secretFromEnv(env: Record<string, string | undefined>, name: string): string | undefined | SecretEnvProblem {
  const inline = env[name] || undefined;
  const file = env[`${name}_FILE`] || undefined;
  if (inline !== undefined && file !== undefined) return { variable: name, message: `set ${name} or ${name}_FILE, not both` };
  let value = inline;
  if (file !== undefined) {
    try {
      value = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      return { variable: `${name}_FILE`, message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
    }
  }
  if (value === undefined) return undefined;
  const problem = serverSecretProblem(value);
  return problem ? { variable: file !== undefined ? `${name}_FILE` : name, message: problem } : value;
}
