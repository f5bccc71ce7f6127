import { DefaultPrice, perSecond } from '../../billing/default-prices';

/**
 * Seedance's list prices per second, in credits of 0.01 USD, from Ark's token prices (a video costs
 * width x height x 24 fps x seconds / 1024 tokens: 21,600 a second at 720p, 9,720 at 480p, 48,600 at
 * 1080p). 2.0: 46 CNY per million tokens, fast 37 (Volcengine, at 7 CNY a USD; BytePlus's USD list is
 * UNCONFIRMED), audio included; 1.5 pro: 2.4 USD per million with audio, 1.2 without (BytePlus).
 * docs/families.md, Seedance, says where each figure comes from.
 */
export const SEEDANCE_DEFAULT_PRICES: DefaultPrice[] = [
  ...perSecond('seedance-2-0', { '720p': [14.2, 14.2], '480p': [6.4, 6.4] }),
  ...perSecond('seedance-2-0-fast', { '720p': [11.4, 11.4], '480p': [5.1, 5.1] }),
  ...perSecond('seedance-1-5-pro', { '720p': [2.6, 5.2], '480p': [1.2, 2.3], '1080p': [5.8, 11.7] }),
];
