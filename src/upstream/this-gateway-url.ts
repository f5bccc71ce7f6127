import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Where this gateway can be reached: its PUBLIC_BASE_URL, and the port it listens on (on every loopback address). */
export interface ThisGateway {
  publicBaseUrl: string;
  listeningPort?: number;
}

/** The embedded simulator speaks the providers' protocols, not this gateway's API: a channel may point at it. */
const SIMULATOR_PATH = /^\/simulator(\/|$)/i;

/**
 * Whether a channel's `base_url` leads back into this gateway's own API: its origin is
 * PUBLIC_BASE_URL's, or a loopback address (or `localhost`) on the port it listens on. Every task
 * of such a channel would be submitted to this gateway again, and again (X-Gateway-Hops ends a
 * loop through other gateways; this one is refused outright).
 */
export function pointsAtThisGateway(baseUrl: string, own: ThisGateway): boolean {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return false;
  }
  if (SIMULATOR_PATH.test(url.pathname)) return false;
  if (url.origin === originOf(own.publicBaseUrl)) return true;
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return own.listeningPort !== undefined && port === own.listeningPort && isLoopbackHost(url.hostname);
}

function originOf(raw: string): string | null {
  try {
    return new URL(raw).origin;
  } catch {
    return null;
  }
}

/** `localhost` (and its subdomains), a loopback address, or the unspecified one (which connects to this host). */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (!isIP(host)) return false;
  const parsed = ipaddr.process(host);
  return parsed.range() === 'loopback' || parsed.range() === 'unspecified';
}
