import { DefaultPrice, perSecond } from '../../billing/default-prices';

/**
 * Kling's API list prices per second (USD for a 5 s clip / 5), in credits of 0.01 USD:
 * 720p is std mode, 1080p pro; kling-v2-6 with `sound: on` costs twice its silent price.
 */
export const KLING_DEFAULT_PRICES: DefaultPrice[] = [
  ...perSecond('kling-v2-6', { '1080p': [7, 14] }),
  ...perSecond('kling-v2-5-turbo', { '720p': [4.2, null], '1080p': [7, null] }),
  ...perSecond('kling-v2-1', { '720p': [5.6, null], '1080p': [9.8, null] }),
  ...perSecond('kling-v2-1-master', { '1080p': [28, null] }),
  ...perSecond('kling-v1-6', { '720p': [5.6, null], '1080p': [9.8, null] }),
  // Kling 3.0 (docs/families.md, Kling: 0.42 USD / 5 s at 720p, 0.56 at 1080p; sound on 1.5 times); Omni alike.
  ...['kling-v3', 'kling-v3-omni'].flatMap((model) => perSecond(model, { '720p': [8.4, 12.6], '1080p': [11.2, 16.8] })),
];
