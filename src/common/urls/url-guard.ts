import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '../errors/app-error';

/**
 * The IPv4 address an IPv6 address stands for, for the forms that embed one: IPv4-compatible
 * (`::a.b.c.d`), IPv4-mapped (`::ffff:a.b.c.d`), IPv4-translated (`::ffff:0:a.b.c.d`), NAT64
 * (`64:ff9b::a.b.c.d`) and 6to4 (`2002:AABB:CCDD::`). `null` for tunnelling forms whose target
 * cannot be judged (Teredo, local-use NAT64), which are refused; `undefined` for plain IPv6.
 */
export function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null | undefined {
  const p = address.parts;
  const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const zero = (from: number, to: number) => p.slice(from, to).every((part) => part === 0);
  if (zero(0, 6)) return p[6] === 0 && p[7] <= 1 ? undefined : v4(p[6], p[7]); // `::` and `::1` are judged as IPv6
  if (zero(0, 5) && p[5] === 0xffff) return v4(p[6], p[7]);
  if (zero(0, 4) && p[4] === 0xffff && p[5] === 0) return v4(p[6], p[7]);
  if (p[0] === 0x64 && p[1] === 0xff9b && zero(2, 6)) return v4(p[6], p[7]);
  if (p[0] === 0x64 && p[1] === 0xff9b && p[2] === 1) return null;
  if (p[0] === 0x2002) return v4(p[1], p[2]);
  if (p[0] === 0x2001 && p[1] === 0) return null;
  return undefined;
}

/** The address to judge: an IPv4 (also one embedded in IPv6), a plain IPv6, or null when it cannot be judged. */
function effectiveAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (!ipaddr.isValid(address)) return null;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed;
  const embedded = embeddedIPv4(parsed as ipaddr.IPv6);
  return embedded === undefined ? parsed : embedded;
}

/** Only public unicast addresses may be fetched; loopback, private, link-local and the like may not (also embedded in IPv6). */
export function isPublicAddress(address: string): boolean {
  return effectiveAddress(address)?.range() === 'unicast';
}

/** Ranges a link may point at when private hosts are allowed (tests, the simulator); link-local, unspecified, multicast etc. never. */
const PRIVATE_BUT_USABLE = new Set(['unicast', 'private', 'loopback', 'uniqueLocal', 'carrierGradeNat']);
/** Names that only mean something inside a network (RFC 6761, 6762, 8375 and the cloud metadata names). */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa|localdomain)$/i;

export interface LinkPolicy {
  /** MEDIA_ALLOW_PRIVATE_HOSTS: loopback and private addresses pass. */
  allowPrivate: boolean;
  /** Hosts (`host[:port]`) trusted as they are, e.g. the channel's own provider host. */
  trustedHosts?: string[];
}

/**
 * Whether a link a provider handed out may be shown to a client (and fetched for it): an http(s)
 * URL without credentials, whose host is not link-local, unspecified or otherwise special, and,
 * unless private hosts are allowed or it is a trusted host, neither a private or loopback address
 * nor a local name. No DNS lookup: names are judged again when the gateway itself fetches them.
 * Without a policy only what is never acceptable is refused (for links stored earlier).
 */
export function isShowableLink(raw: unknown, policy: LinkPolicy = { allowPrivate: true }): boolean {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 4096) return false;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || !url.hostname) return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const trusted = policy.trustedHosts?.includes(url.host) ?? false;
  if (isIP(host)) {
    const address = effectiveAddress(host);
    if (!address || !PRIVATE_BUT_USABLE.has(address.range())) return false;
    return trusted || policy.allowPrivate || address.range() === 'unicast';
  }
  return trusted || policy.allowPrivate || (host.includes('.') && !LOCAL_NAME.test(host.replace(/\.$/, '')));
}

/** Checks that `raw` is an http(s) URL; `field` names the request field in the 400. */
export function assertHttpUrl(raw: string, field: string): URL {
  // The provider fetches these URLs itself: its protocol takes no inline data.
  const refused = () =>
    AppError.invalid(
      `${field} must be an http(s) URL${/^data:/i.test(raw) ? ' the provider can fetch (data URIs are not accepted here)' : ''}`,
      field,
    );
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused();
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused();
  return url;
}

/** The 400 for a URL on a private host: names the switch, so a newcomer trying on localhost knows what to set. */
export const notPublicHostMessage = (field: string): string =>
  `${field} must point to a public host (private, loopback and link-local addresses are refused; MEDIA_ALLOW_PRIVATE_HOSTS=true allows them, for tests)`;

/**
 * The addresses a URL's host stands for: an IP literal (brackets allowed) as it is, a name as the
 * system resolves it (/etc/hosts, then DNS). Rejects when a name does not resolve.
 */
export async function resolveHost(hostname: string): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return [host];
  return (await lookup(host, { all: true })).map((entry) => entry.address);
}

/**
 * Checks that `raw` is an http(s) URL whose host resolves only to public addresses.
 * `field` names the request field in the 400. With `allowPrivate` (or a trusted host of the
 * policy, such as the gateway's own) only the scheme is checked.
 */
export async function assertPublicHttpUrl(
  raw: string,
  field: string,
  allowPrivate: boolean | { allowPrivate: boolean; trustedHosts?: string[] },
): Promise<URL> {
  const url = assertHttpUrl(raw, field);
  const policy = typeof allowPrivate === 'boolean' ? { allowPrivate } : allowPrivate;
  if (policy.allowPrivate || policy.trustedHosts?.includes(url.host)) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = await resolveHost(host);
  } catch {
    throw AppError.invalid(`${field} host ${host} cannot be resolved`, field, 'resolvableHost');
  }
  if (addresses.length === 0 || !addresses.every(isPublicAddress)) {
    throw AppError.invalid(notPublicHostMessage(field), field, 'publicHost');
  }
  return url;
}
