export interface MediaSourcePolicy {
  /** MEDIA_ALLOW_PRIVATE_HOSTS: loopback and private addresses pass. */
  allowPrivate: boolean;
  /** Hosts (`host[:port]`) trusted as they are. */
  trustedHosts: string[];
}

/** The two settings the rule reads (AppConfig has them). */
export interface MediaSourceSettings {
  mediaAllowPrivateHosts: boolean;
  publicBaseUrl: string;
}

/**
 * Where client media URLs may point: public hosts, and the gateway's own PUBLIC_BASE_URL host (its
 * sample media under /simulator/media, also on localhost), or any host with MEDIA_ALLOW_PRIVATE_HOSTS.
 * Read at each use: tests set publicBaseUrl once the port is known.
 */

export function mediaSourcePolicy(config: MediaSourceSettings): MediaSourcePolicy {
  let own: string[] = [];
  try {
    own = [new URL(config.publicBaseUrl).host];
  } catch {
    // No usable base URL (a unit test's partial config): nothing is trusted beyond the rule.
  }
  return { allowPrivate: config.mediaAllowPrivateHosts, trustedHosts: own };
}

/** Whether `raw` is on one of the policy's trusted hosts (false for what is not a URL: the URL check names that). */
export function isTrustedHost(raw: string, policy: { trustedHosts?: string[] }): boolean {
  if (!policy.trustedHosts?.length) return false;
  try {
    return policy.trustedHosts.includes(new URL(raw).host);
  } catch {
    return false;
  }
}
