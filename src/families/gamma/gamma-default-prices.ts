import { DefaultPrice, perSecond } from '../../billing/default-prices';

/** The protocol document lists no prices: the provider's public per-second rates, rounded. */
export const GAMMA_DEFAULT_PRICES: DefaultPrice[] = [
  ...perSecond('gamma-2-0', { '480p': [5, null], '720p': [10, null], '1080p': [20, null] }),
  ...perSecond('gamma-2-0-fast', { '480p': [3, null], '720p': [6, null] }),
];
