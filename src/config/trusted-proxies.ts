import ipaddr from 'ipaddr.js';
import { z } from 'zod';

/** What express's `trust proxy` is set to: false (no proxy), a hop count, or addresses, CIDRs and express's names. */
export type TrustedProxies = false | number | string[];

/** Express's names for address ranges (proxy-addr). */
const RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

const isAddressOrRange = (value: string): boolean => {
  if (RANGE_NAMES.includes(value) || ipaddr.isValid(value)) return true;
  try {
    ipaddr.parseCIDR(value);
    return true;
  } catch {
    return false;
  }
};

/**
 * TRUSTED_PROXIES: empty (default) trusts no proxy, so the client address is the connection's;
 * a hop count, or a comma list of IPs, CIDRs and `loopback`/`linklocal`/`uniquelocal`.
 * `true` (trust every hop) is refused: the client could then choose its own address.
 */
export const trustedProxies = z
  .string()
  .optional()
  .transform((value, ctx): TrustedProxies => {
    const text = (value ?? '').trim();
    if (!text) return false;
    if (/^\d+$/.test(text)) return Number(text);
    const entries = text
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const bad = entries.filter((entry) => !isAddressOrRange(entry));
    if (bad.length > 0 || entries.length === 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a hop count, or a comma list of IPs, CIDRs, loopback, linklocal, uniquelocal (not: ${bad.join(', ') || text})`,
      });
      return z.NEVER;
    }
    return entries;
  });
