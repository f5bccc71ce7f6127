import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { resolveHost } from '../common/urls/url-guard';

/** Where this gateway can be reached: its PUBLIC_BASE_URL, and the port it listens on (on every loopback address). */
export interface ThisGateway {
  publicBaseUrl: string;
  listeningPort?: number;
}

/** How a host name becomes addresses: the URL guard's resolver (tests pass their own). */
export type HostResolver = (hostname: string) => Promise<string[]>;

/** The embedded simulator speaks the providers' protocols, not this gateway's API: a channel may point at it. */
const SIMULATOR_PATH = /^\/simulator(\/|$)/i;

/**
 * Whether a channel's `base_url` leads back into this gateway's own API: its origin is
 * PUBLIC_BASE_URL's, or, on the port it listens on, `localhost`, a loopback address, or a name
 * that resolves to one (/etc/hosts). Every task of such a channel would be submitted to this
 * gateway again, and again (X-Gateway-Hops ends a loop through other gateways; this one is refused outright).
 */
export async function pointsAtThisGateway(baseUrl: string, own: ThisGateway, resolve: HostResolver = resolveHost): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return false;
  }
  if (SIMULATOR_PATH.test(url.pathname)) return false;
  if (url.origin === originOf(own.publicBaseUrl)) return true;
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (own.listeningPort === undefined || port !== own.listeningPort) return false;
  const name = url.hostname.replace(/^\[|\]$/g, '');
  const host = name.replace(/\.$/, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host)) return isThisHost(host);
  // A name that does not resolve leads nowhere (the public-host check refuses it unless private hosts are allowed).
  const addresses = await resolve(name).catch(() => []);
  return addresses.some(isThisHost);
}

/** Whether a URL is this gateway's own embedded simulator (a `/simulator/...` path on this gateway's origin or port). */
export async function isThisGatewaysSimulator(rawUrl: string, own: ThisGateway, resolve: HostResolver = resolveHost): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return false;
  }
  if (!SIMULATOR_PATH.test(url.pathname)) return false;
  url.pathname = '/';
  return pointsAtThisGateway(url.toString(), own, resolve);
}

function originOf(raw: string): string | null {
  try {
    return new URL(raw).origin;
  } catch {
    return null;
  }
}

/** A loopback address, or the unspecified one (which connects to this host); also IPv4-mapped. */
function isThisHost(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = ipaddr.process(address).range();
  return range === 'loopback' || range === 'unspecified';
}
