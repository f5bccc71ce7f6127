import { DefaultPrice, perSecond } from '../../billing/default-prices';

/**
 * Vidu's list prices per second, in credits of 0.01 USD, audio at the same price (UNCONFIRMED: Vidu
 * publishes no price per credit; docs/families.md, Vidu, says where each figure comes from). A
 * resolution a reseller did not list (q2 at 540p) is priced as the next one up.
 */
export const VIDU_DEFAULT_PRICES: DefaultPrice[] = [
  ...perSecond('viduq3-pro', { '540p': [7, 7], '720p': [15, 15], '1080p': [16, 16] }),
  ...perSecond('viduq3-turbo', { '540p': [2.6, 2.6], '720p': [3.9, 3.9], '1080p': [5.2, 5.2] }),
  ...perSecond('viduq2-pro', { '540p': [10, 10], '720p': [10, 10], '1080p': [20, 20] }),
  ...perSecond('viduq2-turbo', { '540p': [5, 5], '720p': [5, 5], '1080p': [10, 10] }),
];
