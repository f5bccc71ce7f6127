import { DefaultPrice, perClip, perSecond } from '../../billing/default-prices';

// Family A, from the provider's price list; where it names no figure the nearest listed one is used.
const v5Clips = { '360p': { 5: 45, 8: 90 }, '540p': { 5: 45, 8: 90 }, '720p': { 5: 60, 8: 120 }, '1080p': { 5: 120, 8: 240 } };
const v55Clips = {
  '360p': { 5: 45, 8: 90, 10: 110 },
  '540p': { 5: 45, 8: 90, 10: 110 },
  '720p': { 5: 60, 8: 120, 10: 150 },
  '1080p': { 5: 120, 8: 240 },
};
const v4Clips = { '360p': { 5: 45, 8: 90 }, '540p': { 5: 45, 8: 90 }, '720p': { 5: 60, 8: 120 }, '1080p': { 5: 120, 8: 240 } };

/** Per-clip audio tiers and fast motion cost twice the silent price; per-second audio tiers are the provider's own figures. */
export const ALPHA_DEFAULT_PRICES: DefaultPrice[] = [
  ...perSecond('alpha/v6', { '360p': [5, 7], '540p': [7, 9], '720p': [9, 12], '1080p': [18, 23] }),
  ...perSecond('alpha/c1', { '360p': [6, 8], '540p': [8, 10], '720p': [10, 13], '1080p': [19, 24] }),
  ...perClip('alpha/v5.6', v55Clips),
  ...perClip('alpha/v5.5', v55Clips),
  ...perClip('alpha/v5', v5Clips),
  ...perClip('alpha/v4.5', v4Clips),
  ...perClip('alpha/v4', v4Clips),
  ...perClip('alpha/v3.5', v4Clips),
];
