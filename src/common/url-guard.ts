import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from './app-error';

/** Only public unicast addresses may be fetched; loopback, private, link-local and the like may not. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/** Checks that `raw` is an http(s) URL; `field` names the request field in the 400. */
export function assertHttpUrl(raw: string, field: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw AppError.invalid(`${field} must be an http(s) URL`, field);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw AppError.invalid(`${field} must be an http(s) URL`, field);
  return url;
}

/**
 * Checks that `raw` is an http(s) URL whose host resolves only to public addresses.
 * `field` names the request field in the 400. With `allowPrivate` only the scheme is checked.
 */
export async function assertPublicHttpUrl(raw: string, field: string, allowPrivate: boolean): Promise<URL> {
  const url = assertHttpUrl(raw, field);
  if (allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookup(host, { all: true })).map((entry) => entry.address);
    } catch {
      throw AppError.invalid(`${field} host ${host} cannot be resolved`, field);
    }
  }
  if (addresses.length === 0 || !addresses.every(isPublicAddress)) {
    throw AppError.invalid(`${field} must point to a public host (private, loopback and link-local addresses are refused)`, field);
  }
  return url;
}
