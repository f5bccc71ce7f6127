import { DefaultPrice, perSecond } from '../../billing/default-prices';
import { VEO_SIMULATOR_MODEL } from './veo-models';

/**
 * Google's Gemini API list prices per second of video (with audio): Veo 3.1 USD 0.40 (4k 0.60),
 * Veo 3.1 Fast 0.15 (4k 0.35), Veo 3 0.40, Veo 3 Fast 0.15; in credits of 0.01 USD.
 */
export const VEO_DEFAULT_PRICES: DefaultPrice[] = [
  ...perSecond('veo-3.1-generate-preview', { '*': [40, null], '4k': [60, null] }),
  ...perSecond('veo-3.1-fast-generate-preview', { '*': [15, null], '4k': [35, null] }),
  ...perSecond('veo-3.0-generate-001', { '*': [40, null] }),
  ...perSecond('veo-3.0-fast-generate-001', { '*': [15, null] }),
  // The simulator's model, at Veo 3.1 Fast's prices.
  ...perSecond(VEO_SIMULATOR_MODEL, { '*': [15, null], '4k': [35, null] }),
];
