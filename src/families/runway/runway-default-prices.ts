import { DefaultPrice, perSecond } from '../../billing/default-prices';

/**
 * Runway's API list prices in credits per second (1 credit = 0.01 USD): gen4.5 12, gen4_turbo 5,
 * veo3.1 20 silent / 40 with audio, veo3.1_fast 10 / 15; the same at every resolution.
 */
export const RUNWAY_DEFAULT_PRICES: DefaultPrice[] = [
  ...perSecond('gen4.5', { '*': [12, null] }),
  ...perSecond('gen4_turbo', { '*': [5, null] }),
  ...perSecond('veo3.1', { '*': [20, 40] }),
  ...perSecond('veo3.1_fast', { '*': [10, 15] }),
  // Runway's pricing page (a copy of 2026-09-05): 10 credits per second.
  ...perSecond('gemini-omni-flash', { '*': [10, null] }),
];
