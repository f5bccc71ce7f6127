import { hash } from 'node:crypto';

/** API keys carry 280+ bits of randomness, so a plain SHA-256 is a safe, fast lookup hash. */
/** (crypto.hash: one call, no Hash object per key check.) */
export const hashApiKey = (key: string): string => hash('sha256', key, 'hex');
