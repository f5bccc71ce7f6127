import { DefaultPrice, perSecond } from '../../billing/default-prices';

/**
 * The builtin Replicate model's price in credits per second (1 credit = 0.01 USD): Kling 2.5 Turbo
 * Pro is billed per second of output video, $0.07 (the same as fal's; third-party comparisons,
 * docs/families.md: Replicate's model page prices change, the operator sets its own in the catalog).
 */
export const REPLICATE_DEFAULT_PRICES: DefaultPrice[] = [...perSecond('kling-v2-5-turbo', { '1080p': [7, null] })];
