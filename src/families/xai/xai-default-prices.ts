import { DefaultPrice, perSecond } from '../../billing/default-prices';

/**
 * xAI's list prices per second of video, in credits of 0.01 USD, audio included (UNCONFIRMED:
 * third-party copies of x.ai/api pricing; docs/families.md, xAI). An input image's own fee
 * ($0.002) is not priced.
 */
export const XAI_DEFAULT_PRICES: DefaultPrice[] = [
  ...perSecond('grok-imagine-video', { '480p': [5, 5], '720p': [7, 7] }),
  ...perSecond('grok-imagine-video-1.5', { '480p': [8, 8], '720p': [14, 14], '1080p': [25, 25] }),
];
