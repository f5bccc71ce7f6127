import { DefaultPrice, perSecond } from '../../billing/default-prices';

/**
 * Operators price the models they list like any other; these seed OpenAI's public per-second
 * rates (USD 0.10 / 0.30 / 0.50) for the models the simulator channel lists.
 */
export const OPENAI_DEFAULT_PRICES: DefaultPrice[] = [
  ...perSecond('sora-2', { '*': [10, null] }),
  ...perSecond('sora-2-pro', { '*': [30, null], '1024x1792': [50, null], '1792x1024': [50, null] }),
];
