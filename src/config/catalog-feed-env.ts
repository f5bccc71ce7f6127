import { z } from 'zod';
import { parseDuration } from './duration';

/** The catalog feed an operator subscribes to (CATALOG_FEED_URL, _INTERVAL, _PUBLIC_KEY). */
export interface CatalogFeedConfig {
  /** `https://`, `http://` (read only with MEDIA_ALLOW_PRIVATE_HOSTS=true) or `file:<path>`. */
  url: string;
  /** Between two reads; 0: only at start and on demand. */
  intervalMs: number;
  /** The raw 32-byte Ed25519 public key: set, the document's `<url>.sig` must verify. */
  publicKey: Buffer | null;
}

/** setInterval's longest delay is 2^31-1 ms (about 24.8 days): a week is well within it. */
const MAX_INTERVAL_MS = 7 * 86_400_000;
const MIN_INTERVAL_MS = 60_000;

export const catalogFeedUrl = z
  .string()
  .optional()
  .refine((value) => {
    if (!value) return true;
    if (value.startsWith('file:')) return value.length > 'file:'.length;
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && !!url.hostname;
    } catch {
      return false;
    }
  }, 'must be an https:// URL (http:// with MEDIA_ALLOW_PRIVATE_HOSTS=true) or file:<path>');

export const catalogFeedInterval = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const ms = parseDuration(value === undefined || value === '' ? '6h' : value);
    if (ms === null || (ms !== 0 && (ms < MIN_INTERVAL_MS || ms > MAX_INTERVAL_MS))) {
      ctx.addIssue({ code: 'custom', message: 'must be 0 (start and on demand only) or a duration from 1m to 7d, such as 6h' });
      return z.NEVER;
    }
    return ms;
  });

export const catalogFeedPublicKey = z
  .string()
  .optional()
  .transform((value, ctx) => {
    if (!value) return null;
    const key = Buffer.from(value.trim(), 'base64');
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value.trim()) || key.length !== 32) {
      ctx.addIssue({ code: 'custom', message: 'must be the raw 32-byte Ed25519 public key, base64' });
      return z.NEVER;
    }
    return key;
  });

export function catalogFeedConfig(values: {
  CATALOG_FEED_URL?: string;
  CATALOG_FEED_INTERVAL: number;
  CATALOG_FEED_PUBLIC_KEY: Buffer | null;
}): CatalogFeedConfig | undefined {
  if (!values.CATALOG_FEED_URL) return undefined;
  return { url: values.CATALOG_FEED_URL, intervalMs: values.CATALOG_FEED_INTERVAL, publicKey: values.CATALOG_FEED_PUBLIC_KEY };
}
