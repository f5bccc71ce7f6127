// The types of the ESM build of axios: that is the one @nestjs/axios (ESM since Nest 12) loads and hands out as axiosRef.
import type { AxiosInstance, AxiosRequestConfig, AxiosResponse } from 'axios' with { 'resolution-mode': 'import' };
import { lookup } from 'node:dns/promises';
import type { Readable } from 'node:stream';
import { isTrustedHost } from './media-source-policy';
import { assertPublicHttpUrl, isPublicAddress } from './url-guard';

export interface FetchPolicy {
  /** The request field the URL came from, named in the 400. */
  field: string;
  /** MEDIA_ALLOW_PRIVATE_HOSTS: only the scheme is checked. */
  allowPrivate: boolean;
  /** Hosts (`host[:port]`) trusted as they are, e.g. the channel's own provider host. */
  trustedHosts?: string[];
  maxRedirects?: number;
}

/** Thrown when a URL keeps redirecting past the limit. */
export class TooManyRedirectsError extends Error {}

/** Resolves like the system does, but refuses names that resolve to non-public addresses (DNS rebinding). */
export async function publicOnlyLookup(hostname: string) {
  const addresses = await lookup(hostname, { all: true });
  if (addresses.length === 0 || !addresses.every((entry) => isPublicAddress(entry.address))) {
    throw Object.assign(new Error(`${hostname} does not resolve to a public address`), { code: 'ENOTPUBLIC' });
  }
  return addresses;
}

/**
 * Fetches a URL a client (or a provider) handed us without letting it reach private networks:
 * every redirect hop is followed here and checked with the public-host rule, and the connection
 * itself resolves names through a lookup that refuses private addresses. AppError 400 (naming
 * the field) when a hop is refused; transport errors are thrown as they are.
 */
export async function fetchPublicUrl<T = Readable>(
  client: AxiosInstance,
  config: AxiosRequestConfig & { url: string },
  policy: FetchPolicy,
): Promise<AxiosResponse<T>> {
  let url = config.url;
  const maxRedirects = policy.maxRedirects ?? 3;
  for (let hop = 0; ; hop++) {
    const trusted = isTrustedHost(url, policy);
    if (!trusted) await assertPublicHttpUrl(url, policy.field, policy.allowPrivate);
    const guarded = !trusted && !policy.allowPrivate;
    const response = await client.request<T>({
      ...config,
      url,
      maxRedirects: 0,
      validateStatus: () => true,
      ...(guarded ? { lookup: publicOnlyLookup } : {}),
    });
    const location = response.status >= 300 && response.status < 400 ? response.headers.location : undefined;
    if (typeof location !== 'string' || location === '') return response;
    (response.data as Readable | undefined)?.destroy?.();
    if (hop >= maxRedirects) throw new TooManyRedirectsError(`more than ${maxRedirects} redirects`);
    url = new URL(location, url).toString();
  }
}
