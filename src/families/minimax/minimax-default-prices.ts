import { DefaultPrice, perSecond } from '../../billing/default-prices';

/**
 * MiniMax's list prices per clip (USD: Hailuo-2.3 and -02 768P 0.28 for 6 s / 0.56 for 10 s, 1080P
 * 0.49 for 6 s; -02 512P 0.10 / 0.15; 2.3-Fast 768P 0.19 / 0.32, 1080P 0.33) per second, rounded
 * to whole credits (1 credit = 0.01 USD).
 */
export const MINIMAX_DEFAULT_PRICES: DefaultPrice[] = [
  ...perSecond('MiniMax-Hailuo-2.3', { '768p': [5, null], '1080p': [8, null] }),
  ...perSecond('MiniMax-Hailuo-2.3-Fast', { '768p': [3, null], '1080p': [6, null] }),
  ...perSecond('MiniMax-Hailuo-02', { '512p': [2, null], '768p': [5, null], '1080p': [8, null] }),
  // MiniMax-H3 always makes sound: 0.08 USD/s at 2K (its price on OpenRouter and Vercel's AI Gateway), 768P 1.625 times less.
  ...perSecond('MiniMax-H3', { '2k': [8, 8], '768p': [5, 5] }),
];
