import { createHash } from 'node:crypto';

/** API keys carry 280+ bits of randomness, so a plain SHA-256 is a safe, fast lookup hash. */
export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');
